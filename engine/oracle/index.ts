/**
 * What a candidate is judged on beyond the job's cases: the original's runs on them (the baseline),
 * the original as oracle on generated inputs when the bug is a throw, examples read from the block's
 * description, recorded calls left out where they need a redacted value, the follow-up of candidates
 * whose throw moved further on (a second throw site), and the confidence check that the cases decided
 * between the plausible candidates. This is the area's face: other areas import
 * from here.
 */
export { runBaseline } from './original-runs.ts';
export { notApplied, oracleCases, oracleRule, withoutEffects } from './oracle-cases.ts';
export type { OracleOptions } from './oracle-cases.ts';
export { MovedThrows } from './moved-throw.ts';
export { assessConfidence } from './confidence.ts';
export type { ConfidenceOptions } from './confidence.ts';
export { descriptionCases } from './description-examples.ts';
export { unusableRedacted } from './redacted-cases.ts';
