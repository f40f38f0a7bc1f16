import type { CandidateReport, RepairResult } from '../engine/index.ts';
import type { RecheckResult } from './patch-recheck.ts';

/** What the admin API shows of one repair job: the search's figures and the kept candidates. */
export interface RepairJobReport {
  fingerprint: string;
  round: number;
  plausible: boolean;
  stoppedBy: RepairResult['stoppedBy'];
  generated: number;
  tried: number;
  trials: number;
  ms: number;
  firstPlausibleMs?: number;
  cases: { total: number; failing: number };
  /** The original-as-oracle rule: inputs generated, cases made, inputs the original threw on. */
  oracle?: RepairResult['oracle'];
  /** Recorded calls (and tests) the original passes; 0 comes with a warning. */
  knownGood: number;
  warnings: string[];
  winner?: CandidateReport;
  /** Whether the cases decided between the plausible candidates; a 'low' winner waits for approval. */
  confidence?: RepairResult['confidence'];
  /** Examples read from the block's description (cases of kind 'description'). */
  description?: RepairResult['description'];
  /** Plausible candidates by score, then failed ones in trial order, at most `keep`. */
  candidates: CandidateReport[];
  llm?: RepairResult['llm'];
  /** The winner's re-check before signing (patch-recheck.ts); `refused` with the differing cases. */
  recheck?: RecheckResult;
  finishedAt: string;
}

export function buildJobReport(fingerprint: string, round: number, result: RepairResult, keep: number): RepairJobReport {
  const plausible = result.candidates.filter((c) => c.status === 'plausible').sort((a, b) => (a.score ?? 0) - (b.score ?? 0));
  const others = result.candidates.filter((c) => c.status !== 'plausible');
  return {
    fingerprint,
    round,
    plausible: result.plausible,
    stoppedBy: result.stoppedBy,
    generated: result.generated,
    tried: result.tried,
    trials: result.trials,
    ms: Math.round(result.ms),
    firstPlausibleMs: result.firstPlausibleMs === undefined ? undefined : Math.round(result.firstPlausibleMs),
    cases: { total: result.baseline.results.length, failing: result.baseline.results.filter((r) => r.verdict !== 'pass').length },
    oracle: result.oracle,
    knownGood: result.knownGood,
    warnings: result.warnings,
    winner: result.winner,
    confidence: result.confidence,
    description: result.description,
    candidates: [...plausible, ...others].slice(0, keep),
    llm: result.llm,
    finishedAt: new Date().toISOString(),
  };
}
