/**
 * Patch evidence: what a patch was checked against before it was signed (cases by kind) and its
 * re-check verdict, counted once by the worker and described the same way by the CLI and the
 * admin API. A patch checked only against the inputs that failed is a guess about everything else:
 * it is flagged, never hidden.
 */
import type { Case } from './types.ts';
import type { PatchEvidence } from './wire.ts';

/** Shown wherever a patch was checked against no recorded call and no generated input. */
export const FAILING_INPUTS_ONLY = 'failing inputs only';

/** Counts the cases by kind; kinds this build does not know yet are counted nowhere. */
export function evidenceFromCases(cases: readonly Case[], recheck: { passed: number; total: number }): PatchEvidence {
  const count = (kind: string) => cases.filter((c) => (c.kind as string) === kind).length;
  return {
    failing: count('failure'),
    recorded: count('recorded'),
    generated: count('generated'),
    tests: count('test'),
    recheck: { passed: recheck.passed, total: recheck.total },
  };
}

/** `FAILING_INPUTS_ONLY` when nothing but the failing inputs (and tests) vouched for the patch. */
export function evidenceWarning(e: PatchEvidence | undefined | null): string | undefined {
  if (!e) return undefined;
  return e.recorded === 0 && e.generated === 0 ? FAILING_INPUTS_ONLY : undefined;
}

/** `1 failing, 3 recorded, 0 generated, 0 tests`. */
export function evidenceCounts(e: PatchEvidence): string {
  return `${e.failing} failing, ${e.recorded} recorded, ${e.generated} generated, ${e.tests} tests`;
}

/** One line: `1 failing, 3 recorded, 0 generated, 0 tests; re-check 4/4`, plus the warning. */
export function describeEvidence(e: PatchEvidence | undefined | null): string {
  if (!e) return NO_EVIDENCE;
  const text = `${evidenceCounts(e)}; re-check ${e.recheck.passed}/${e.recheck.total}`;
  const warning = evidenceWarning(e);
  return warning ? `${text} (${warning})` : text;
}

/** What a patch signed before evidence existed shows instead. */
export const NO_EVIDENCE = 'no evidence (signed before evidence was recorded)';
