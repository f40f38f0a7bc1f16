import type { Case } from '../core/types.ts';
import type { StoredFailureCase, StoredRecordedCall } from '../service/store/service-store.ts';

/**
 * The cases of one repair job: every stored failing input must no longer throw (kind 'failure',
 * check 'no-throw'), every recorded successful call must still return the same value and leave
 * its arguments in the same state (kind 'recorded', check 'value'). Every failure the SDK reports is
 * a throw, so the engine adds the original's answers on inputs generated around these (kind
 * 'generated', `RepairResult.cases`); a job with no recorded call gets a warning in its report.
 * A case keeps the world its call saw (core/world.ts): the trial defines the block's `uses` from it.
 */
export function buildJobCases(failures: StoredFailureCase[], recorded: StoredRecordedCall[]): Case[] {
  const cases: Case[] = [];
  failures
    .slice()
    .sort((a, b) => a.at.localeCompare(b.at))
    .forEach((f, i) => cases.push({ id: `failure-${i + 1}`, kind: 'failure', check: 'no-throw', args: f.args, ...(f.world ? { world: f.world } : {}) }));
  recorded
    .slice()
    .sort((a, b) => a.at.localeCompare(b.at))
    .forEach((r, i) =>
      cases.push({
        id: `recorded-${i + 1}`,
        kind: 'recorded',
        check: 'value',
        args: r.args,
        expect: r.result,
        ...(r.argsAfter ? { argsAfter: r.argsAfter } : {}),
        ...(r.world ? { world: r.world } : {}),
      }),
    );
  return cases;
}
