/**
 * Which helper sources a trial may run as code instead of replaying them from a call log
 * (core/world.ts `sources`): a helper that reads nothing from outside answers the same wherever it
 * runs, so it may answer inputs its log never saw. The rule lives in core, where the SDK applies
 * the same one to a patch's calls of such a helper.
 */
export { isPureHelperSource } from '../../core/function-shape.ts';
