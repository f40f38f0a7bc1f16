import type { Case, CandidateSpec, Encoded, SuspiciousRange, TrialReport, TrialResult } from '../core/types.ts';

/** What the original-as-oracle rule (oracle/oracle-cases.ts) did in one job. */
export interface OracleReport {
  applied: boolean;
  /** Why the rule applies to this job or not. */
  reason: string;
  /** Inputs generated and run on the original. */
  generated: number;
  /** Inputs that became cases (the original returned normally, twice the same). */
  cases: number;
  /** Inputs the original threw on (dropped). */
  originalThrew: number;
  /** Inputs on which the original hit a time or memory limit (dropped). */
  limits: number;
  /**
   * Inputs on which the original's answer breaks what known-good calls show, e.g. NaN, or is of a kind no
   * known-good answer has (dropped: not an answer to keep).
   */
  misbehaved: number;
  /** Inputs on which the original answered differently when run again (dropped). */
  unstable: number;
  /** Inputs on which the original made a dependency call no world of the job can answer (dropped). */
  replayMisses: number;
}

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
  /**
   * Set for a plausible candidate whose answer on a no-throw case is of another kind than every known-good
   * answer (scoring/answer-kinds.ts): why. It ranks after the plausible candidates that keep the kind.
   */
  offKind?: string;
  /** Set with `offKind` when all it found is an empty list or string where known-good answers hold something: it orders, it does not lower confidence. */
  offKindEmptyOnly?: boolean;
}

/**
 * Whether the cases decided between the plausible candidates (engine/oracle/confidence.ts): 'low' when the
 * top plausible candidates answer differently on generated inputs, so the ranking alone picked the winner.
 */
export interface RepairConfidence {
  level: 'high' | 'low';
  reason: string;
  /** Ranks of the plausible candidates compared, the winner first. */
  compared: number[];
  /** Generated inputs they were run on. */
  inputs: number;
  /** Compared candidates that answer unlike the winner somewhere. */
  alternatives?: { rank: number; generator: string; description: string }[];
  /** Inputs they disagree on (a few), with every compared candidate's answer. */
  disagreements: { args: Encoded[]; how: string; answers: { rank: number; answer: string }[] }[];
}

export interface RepairResult {
  /** True when at least one candidate passes every case. */
  plausible: boolean;
  /** The original never answered with a thenable: candidates must not either. */
  synchronous: boolean;
  /** The chosen candidate (best score among the plausible ones). */
  winner?: CandidateReport;
  /** Set when there is a winner: whether the cases decided between the plausible candidates. */
  confidence?: RepairConfidence;
  /** Every candidate tried, in trial order (plausible ones and a bounded sample of failures). */
  candidates: CandidateReport[];
  /** How the original fared on the cases (the generated ones included). */
  baseline: TrialReport;
  /** Every case candidates were judged on: the job's, then the generated ones (kind 'generated'). */
  cases: Case[];
  /**
   * Examples read from the block's description: found, made cases (kind 'description'; calls the job's
   * own cases answer are left to them), and lines that call the block but were not read, with why.
   */
  description?: { examples: number; cases: number; skipped: { text: string; reason: string }[] };
  /** The original-as-oracle rule: whether it applied, inputs generated, cases made, inputs the original threw on. */
  oracle?: OracleReport;
  /**
   * Known-good cases: recorded calls and tests the original passes. 0 means nothing but the failing inputs
   * (and the original's answers on generated inputs) says what a patch must return; `warnings` says so.
   */
  knownGood: number;
  /** Things a reader of the report must know, one line each (e.g. no known-good call). */
  warnings: string[];
  localisation: SuspiciousRange[];
  /** Number of candidates generated (after de-duplication) and tried. */
  generated: number;
  tried: number;
  /** Number of case executions (trials) in the sandbox, including baseline and localisation. */
  trials: number;
  ms: number;
  /** Milliseconds from start to the first plausible candidate. */
  firstPlausibleMs?: number;
  /** Why the search ended ('cannot-see': the block reads names no trial can define, see `cannotSee`). */
  stoppedBy: 'exhausted' | 'budget' | 'candidate-limit' | 'converged' | 'nothing-to-repair' | 'aborted' | 'cannot-see';
  /**
   * Outside names the block reads that are neither declared in it, standard globals nor among its
   * `uses`: every trial would throw ReferenceError on them, so the engine did not search.
   */
  cannotSee?: string[];
  /** Token usage and cost of the LLM generator, when it ran. */
  llm?: { requests: number; failures: number; promptTokens: number; completionTokens: number; costUsd: number };
}

export type EngineEvent =
  | { type: 'baseline'; failing: number; total: number }
  | { type: 'oracle'; report: OracleReport }
  | { type: 'warning'; message: string }
  | { type: 'localised'; top: SuspiciousRange[] }
  | { type: 'candidate'; candidate: CandidateReport }
  | { type: 'plausible'; candidate: CandidateReport }
  | { type: 'confidence'; confidence: RepairConfidence }
  | { type: 'done'; result: RepairResult };

export type { CandidateSpec };
