/**
 * The world a call of a block saw: the outside names it reads (`uses`), the calls it made through
 * them, and its receiver (`this`). The SDK captures it with each failure and each recorded call;
 * the sandbox defines the names again from it, so a trial sees what the failing call saw; the SDK
 * gives a patch the live values instead.
 *
 * Values are snapshot-encoded (core/snapshot.ts): functions inside a `uses` value encode as
 * `{"$t":"function","name"}` stand-ins, which the sandbox turns into replayers answering from
 * `calls`, unless the function is shipped as source (see `sources`).
 */
/** A snapshot-encoded value (the same as `Encoded` in core/types.ts, which imports this module). */
type Encoded = unknown;

/** One call the block made through a `uses` name, in the order made. */
export interface DependencyCall {
  /**
   * Where the function was reached from a `uses` name: `moveRight`, `db.getUser`,
   * `self.getCurrentPosition`, `clients.0.send` (dot-separated own property keys).
   */
  path: string;
  /** The arguments as they were at the call. */
  args: Encoded[];
  /** `false`: the function returned or threw; `true`: it returned a promise, which settled as below. */
  async: boolean;
  /** The answer (when `async`, the settled value); absent when it threw or rejected. */
  result?: Encoded;
  /** The error it threw or the promise rejected with. */
  error?: { name: string; message: string };
}

/** The world of one call. */
export interface CallWorld {
  /** Each `uses` name with its value on entry. */
  uses: Record<string, Encoded>;
  /**
   * The `uses` values after the call, for comparing effects made through them, like `argsAfter`.
   * Absent on failure reports where the block threw (what it left is not an expectation).
   */
  usesAfter?: Record<string, Encoded>;
  /** Every call made through `uses`, in order. On a failure, the calls made before the throw. */
  calls: DependencyCall[];
  /** The receiver on entry, for blocks run through `wrap` or with an explicit receiver. */
  this?: Encoded;
  /** The receiver after the call (compared and written back like argument effects). */
  thisAfter?: Encoded;
  /**
   * Source text of functions in `uses` (same paths as `DependencyCall.path`). The engine runs a
   * function as code instead of replaying it only when its source parses as one function, reads
   * no free names and no `this`: a pure helper then answers inputs the log never saw.
   */
  sources?: Record<string, string>;
}

/** Verdict of a case whose candidate called a dependency the log cannot answer. */
export const REPLAY_MISS = 'replay-miss' as const;
