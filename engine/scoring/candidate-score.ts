import type { CandidateReport } from '../repair-report.ts';

/**
 * Ranking of plausible candidates, lower is better. The literature's lesson: plausible is not correct,
 * so prefer the edit kinds that fix real bugs (prior), then the smallest change; known overfitting
 * shapes (deleting code, returning constants, swallowing errors) come last whatever their size.
 */
export function scoreCandidate(c: Pick<CandidateReport, 'prior' | 'suspect' | 'editSize'>): number {
  const suspectPenalty = c.suspect ? 100 : 0;
  return suspectPenalty + (1 - clamp01(c.prior)) * 20 + Math.min(c.editSize, 60) * 0.5;
}

function clamp01(x: number): number {
  return Math.max(0, Math.min(1, Number.isFinite(x) ? x : 0));
}
