import type { SuspiciousRange } from '../../core/types.ts';
import type { Probe } from './coverage-instrumenter.ts';

/** One run of the instrumented block on one case. */
export interface CoverageRun {
  passed: boolean;
  /** Probe ids executed during the case. */
  covered: number[];
}

/** Score given to every statement when coverage cannot tell statements apart. */
export const UNIFORM_SCORE = 0.1;

/**
 * Spectrum-based fault localisation. Each probe scores Ochiai,
 * `failed(s) / sqrt(totalFailed × (failed(s) + passed(s)))`; the innermost probe holding a throw offset scores 1
 * ('throw-site'). When no run failed, or no failing run covered anything, every probe gets a low uniform
 * score ('all') so the generator still searches the whole block. Output: score descending, ties in source order.
 */
export function rankSuspicious(probes: Probe[], runs: CoverageRun[], throwOffsets: number[]): SuspiciousRange[] {
  const failedRuns = runs.filter((run) => !run.passed);
  const failedCount = new Map<number, number>();
  const passedCount = new Map<number, number>();
  for (const run of runs) {
    const counts = run.passed ? passedCount : failedCount;
    for (const id of new Set(run.covered)) counts.set(id, (counts.get(id) ?? 0) + 1);
  }

  const totalFailed = failedRuns.length;
  const informative = totalFailed > 0 && probes.some((probe) => (failedCount.get(probe.id) ?? 0) > 0);
  const byRange = new Map<string, SuspiciousRange>();
  const put = (range: SuspiciousRange): void => {
    const key = `${range.start}:${range.end}`;
    const existing = byRange.get(key);
    if (!existing || existing.score < range.score || range.reason === 'throw-site') byRange.set(key, range);
  };

  for (const probe of probes) {
    if (!informative) {
      put({ start: probe.start, end: probe.end, score: UNIFORM_SCORE, reason: 'all' });
      continue;
    }
    const failed = failedCount.get(probe.id) ?? 0;
    const passed = passedCount.get(probe.id) ?? 0;
    const denominator = Math.sqrt(totalFailed * (failed + passed));
    put({ start: probe.start, end: probe.end, score: denominator === 0 ? 0 : failed / denominator, reason: 'ochiai' });
  }

  for (const offset of throwOffsets) {
    const site = innermostProbe(probes, offset);
    if (site) put({ start: site.start, end: site.end, score: 1, reason: 'throw-site' });
    else put({ start: offset, end: offset + 1, score: 1, reason: 'throw-site' });
  }

  // A throw site outranks any statement that merely ties it on Ochiai.
  const site = (range: SuspiciousRange): number => (range.reason === 'throw-site' ? 0 : 1);
  return [...byRange.values()].sort((a, b) => b.score - a.score || site(a) - site(b) || a.start - b.start || b.end - a.end);
}

function innermostProbe(probes: Probe[], offset: number): Probe | undefined {
  let best: Probe | undefined;
  for (const probe of probes) {
    if (probe.start <= offset && offset < probe.end && (!best || probe.end - probe.start < best.end - best.start)) {
      best = probe;
    }
  }
  return best;
}
