import type { CandidateSpec, SuspiciousRange, TrialReport, TrialResult } from '../../core/types.ts';

export type CandidateStatus = 'plausible' | 'failed' | 'compile-error' | 'duplicate' | 'skipped';

/** One candidate with everything a user needs to see why it won or lost. */
export interface CandidateReport {
  /** Order in which the candidate was tried, from 1. */
  rank: number;
  generator: string;
  description: string;
  prior: number;
  suspect: boolean;
  source: string;
  diff: string;
  editSize: number;
  status: CandidateStatus;
  /** Cases passed before the first failure (or all of them). */
  passed: number;
  /** Cases in the job. */
  total: number;
  /** The trial table: one row per case run (stops at the first failure). */
  trials: TrialResult[];
  /** Milliseconds the trials of this candidate took in the sandbox. */
  ms: number;
  compileError?: TrialReport['compileError'];
  /** Lower is better; set for plausible candidates. */
  score?: number;
}

export interface RepairResult {
  /** True when at least one candidate passes every case. */
  plausible: boolean;
  /** The chosen candidate (best score among the plausible ones). */
  winner?: CandidateReport;
  /** Every candidate tried, in trial order (plausible ones and a bounded sample of failures). */
  candidates: CandidateReport[];
  /** How the original fared on the cases. */
  baseline: TrialReport;
  localisation: SuspiciousRange[];
  /** Number of candidates generated (after de-duplication) and tried. */
  generated: number;
  tried: number;
  /** Number of case executions (trials) in the sandbox, including baseline and localisation. */
  trials: number;
  ms: number;
  /** Milliseconds from start to the first plausible candidate. */
  firstPlausibleMs?: number;
  /** Why the search ended. */
  stoppedBy: 'exhausted' | 'budget' | 'candidate-limit' | 'converged' | 'nothing-to-repair' | 'aborted';
  /** Token usage and cost of the LLM generator, when it ran. */
  llm?: { requests: number; failures: number; promptTokens: number; completionTokens: number; costUsd: number };
}

export type EngineEvent =
  | { type: 'baseline'; failing: number; total: number }
  | { type: 'localised'; top: SuspiciousRange[] }
  | { type: 'candidate'; candidate: CandidateReport }
  | { type: 'plausible'; candidate: CandidateReport }
  | { type: 'done'; result: RepairResult };

export type { CandidateSpec };
