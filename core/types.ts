/**
 * Wire and engine types shared by sdk/, daemon/, worker/ and bench/.
 * Defined once here; the SDK may import this folder, never daemon/ or worker/.
 */

/** A JSON value in the snapshot encoding (see core/snapshot.ts). Plain JSON values encode as themselves. */
import type { CallWorld } from './world.ts';

export type Encoded = unknown;

/**
 * The code under repair.
 * - With `entry`: `source` is a script that declares a function named `entry`
 *   (`function f(){}`, `const f = () => {}`, `class`es and helpers may sit beside it).
 * - Without `entry`: `source` is a single function expression (`(a, b) => a + b`,
 *   `function (x) {...}`, `async (x) => {...}`), as the SDK gets from `fn.toString()`.
 */
export interface Block {
  source: string;
  entry?: string;
  description?: string;
  /** Outside names the block reads, defined in each trial from the case's `world` (core/world.ts). */
  uses?: string[];
  /**
   * Outside names known to be undefined where the block runs (a failing call threw
   * `ReferenceError: X is not defined`, or a suite whose world is exactly its `uses`): reading
   * them is part of the bug, so the search goes ahead (core/block-free-names.ts).
   */
  absent?: string[];
}

/**
 * 'generated': an input made around the failing ones, with the original's answer as its expectation (see engine/oracle/oracle-cases.ts).
 * 'description': an example the block's description shows (`f(2) === 4`, `>>> f(2)` then `4`…), read by engine/oracle/description-examples.ts.
 */
export type CaseKind = 'failure' | 'recorded' | 'test' | 'generated' | 'description';

/**
 * One input plus an expectation.
 * - check `value`: call the block with `args`; the return value (awaited if a promise) must equal `expect`;
 *   when `argsAfter` is present the arguments' state after the call must equal it too.
 * - check `no-throw`: call with `args`; it must return (or resolve) without throwing.
 * - check `script`: run `script` after the candidate's definition; it passes when it completes and
 *   no `console.assert` failed (a failed assert throws inside the sandbox).
 */
export interface Case {
  id: string;
  kind: CaseKind;
  check: 'value' | 'no-throw' | 'script';
  args?: Encoded[];
  expect?: Encoded;
  argsAfter?: Encoded[];
  script?: string;
  /** The `uses` values, dependency calls and receiver this case's call saw. */
  world?: CallWorld;
}

/**
 * 'replay-miss': the candidate called a dependency (a function in the block's `uses`) in a way the
 * case's recorded world cannot answer, so nothing says what the call would have given: the case is
 * unverifiable, and counts as failed (see core/world.ts).
 */
export type TrialVerdict = 'pass' | 'wrong-result' | 'threw' | 'timeout' | 'memory' | 'crashed' | 'replay-miss';

export interface TrialError {
  name: string;
  message: string;
  stack?: string;
  /** 1-based line and column of the innermost frame inside the block's source, when there is one. */
  line?: number;
  column?: number;
  /** 0-based offset into the block's source matching line/column. */
  offset?: number;
}

/** One candidate on one case. */
export interface TrialResult {
  caseId: string;
  verdict: TrialVerdict;
  /** Wall-clock milliseconds spent on this case inside the sandbox host. */
  ms: number;
  /** The value returned (snapshot encoding), for wrong-result and pass of value cases. */
  actual?: Encoded;
  /** Arguments' state after the call (snapshot encoding), when the case has argsAfter. */
  actualArgsAfter?: Encoded[];
  error?: TrialError;
  /** With coverage on: sorted probe ids (see engine/localisation) executed during this case. */
  covered?: number[];
  /** The answer was a thenable, awaited for the verdict (the block answers asynchronously). */
  awaited?: boolean;
  /** For a case with a world: what the candidate did with it. */
  world?: TrialWorld;
}

/** What a candidate did with its case's world (core/world.ts). */
export interface TrialWorld {
  /** Calls answered from the log, in order: the first `calls` entries of `world.calls`. */
  calls: number;
  /** The `uses` values after the run (snapshot encoding), for no-throw checks and cases with `usesAfter`. */
  usesAfter?: Record<string, Encoded>;
  /** The receiver after the run, for no-throw checks and cases with `thisAfter`. */
  thisAfter?: Encoded;
}

export interface SandboxLimits {
  /** CPU time per case, ms (stops sync loops). @defaultValue 1000 */
  cpuMs: number;
  /** Wall-clock time per case, ms (stops promises that never settle and async loops). @defaultValue 2000 */
  wallMs: number;
  /** Isolate heap limit, MB. @defaultValue 64 */
  memoryMb: number;
  /** Largest encoded result accepted back from the sandbox, bytes. @defaultValue 1_000_000 */
  maxResultBytes: number;
}

/** A request to run one candidate on a list of cases (each candidate in a compartment of its own in a locked-down context). */
export interface TrialRequest {
  block: Block;
  cases: Case[];
  limits?: Partial<SandboxLimits>;
  /** Stop at the first case that does not pass (the remaining cases are not reported). */
  stopOnFirstFailure?: boolean;
  /**
   * Collect coverage: the source is instrumented and writes `__sutureCov[id] = 1`;
   * the sandbox resets `globalThis.__sutureCov = []` before each case and reports the ids set.
   */
  coverage?: boolean;
  /**
   * The block answers synchronously (its original never returned a thenable): a thenable answer
   * is a wrong result and is not awaited. The SDK runs a synchronous block's patch synchronously,
   * so an awaited answer is one no app would ever get.
   */
  synchronous?: boolean;
}

export interface TrialReport {
  /** The source failed to compile or did not define the entry function. */
  compileError?: TrialError;
  results: TrialResult[];
  /** Total wall-clock ms for the whole request inside the sandbox host. */
  ms: number;
}

/** A minimal textual edit of the original block source: replace [start, end) with text. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** A candidate replacement for a block, before trial. */
export interface CandidateSpec {
  /** Full replacement source. */
  source: string;
  /** `template:<operator>` or `llm:<model>#k`. */
  generator: string;
  /** For template candidates: the edits applied to the original source. */
  edits?: Edit[];
  /** Human-readable summary, e.g. "replace `>` with `>=` at 4:12". */
  description: string;
  /**
   * Prior likelihood that an edit of this kind is a real fix (0..1), from the program-repair
   * literature; higher is tried first and ranks first among equally small plausible candidates.
   */
  prior: number;
  /** True for known overfitting patterns (deleting a statement, returning a constant, swallowing errors). */
  suspect?: boolean;
}

/** A location ranked by fault localisation: a range of the block's source. */
export interface SuspiciousRange {
  start: number;
  end: number;
  /** Ochiai (or throw-site) suspiciousness, 0..1. */
  score: number;
  /** Why: 'throw-site' | 'ochiai' | 'all'. */
  reason: string;
}
