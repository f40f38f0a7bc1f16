import { writesNoInput } from '../core/input-writes.ts';
import type { ManifestPatch } from '../core/wire.ts';

/** How long a block that failed copies its inputs on entry, ms. */
const HOT_MS = 10 * 60_000;

/**
 * Which healthy calls copy their inputs on entry, so that a failure report can show them as they
 * were (`snapshot: 'entry'`). Copying every call would make a healthy call cost as much as its
 * arguments are big; instead only calls being recorded copy (the call path does that) and, for
 * {@link HOT_MS} after a failure, the calls of a block that failed and may have changed its inputs
 * before throwing. Any other failure is reported with its inputs as the call left them, and says
 * so (`inputs: 'after-throw'`), unless the block provably writes to no object while it runs
 * (core/input-writes.ts): then the state at the throw is the entry state (`inputs: 'entry'`).
 *
 * On the success path this is one boolean read (`any`); `copies` runs only while some block is hot.
 *
 * Blocks with a fallback-mode patch: the patch answers a throwing call on the inputs as they were
 * on entry, so such a block's healthy calls would each need an entry copy, and a healthy call
 * would again cost as much as its arguments are big. {@link fallbackCopies} says which need one:
 *
 * - a plain sync block (no `uses`, not an `async` function) that provably writes to no object
 *   (core/input-writes.ts) takes none: nothing else runs between its entry and its throw, so at
 *   the throw its inputs are its entry inputs and the patch runs on them directly (the isolate
 *   executor copies them into the isolate anyway). If it returns a promise instead (one it was
 *   given), the call path copies the inputs when it returns, before anything else can run;
 * - an `async` block takes one: while it awaits, other code may change the objects it was given;
 * - a block with `uses` takes one: its dependencies are live objects whose methods the source
 *   analysis cannot see (`db.get(row)` may write `row`);
 * - any other block may write its inputs before it throws, so it takes one (correctness first).
 *
 * The answer is kept per patch (a patch matches exactly one block source), so an inline arrow that
 * is a new function on every call is parsed once. Calls that are recorded or compared with the
 * patch (shadow runs) copy whatever the answer: their entry state is sent or replayed later.
 * Getters and proxies in the inputs are not seen by the analysis (as for failure reports).
 */
export class EntryPolicy {
  /** Some block copies its inputs on entry now. */
  any = false;
  readonly #hot = new Map<string, number>();
  readonly #safe = new WeakMap<Function, boolean>();
  readonly #fallback = new WeakMap<ManifestPatch, boolean>();
  readonly #copyAfterFailure: boolean;
  readonly #source: (fn: Function) => string;

  constructor(mode: 'entry' | 'on-failure', source: (fn: Function) => string) {
    this.#copyAfterFailure = mode === 'entry';
    this.#source = source;
  }

  /**
   * Whether every healthy call of `fn`, a block with the fallback-mode `patch`, copies its inputs
   * on entry (see the class comment). Cached per patch.
   */
  fallbackCopies(patch: ManifestPatch, fn: Function, withUses: boolean, async: boolean): boolean {
    if (withUses || async) return true;
    let copies = this.#fallback.get(patch);
    if (copies === undefined) {
      copies = !this.#writesNone(fn);
      this.#fallback.set(patch, copies);
    }
    return copies;
  }

  /** Whether this call of the block copies its inputs on entry. */
  copies(blockId: string): boolean {
    const until = this.#hot.get(blockId);
    if (until === undefined) return false;
    if (Date.now() < until) return true;
    this.#hot.delete(blockId);
    this.any = this.#hot.size > 0;
    return false;
  }

  /** A block failed (`copied`: its inputs were copied on entry). Says what the report's inputs are. */
  failed(blockId: string, fn: Function, copied: boolean): 'entry' | 'after-throw' {
    const safe = this.#writesNone(fn);
    if (!safe && this.#copyAfterFailure) {
      this.#hot.set(blockId, Date.now() + HOT_MS);
      this.any = true;
    }
    return copied || safe ? 'entry' : 'after-throw';
  }

  #writesNone(fn: Function): boolean {
    let safe = this.#safe.get(fn);
    if (safe === undefined) {
      safe = writesNoInput(this.#source(fn));
      this.#safe.set(fn, safe);
    }
    return safe;
  }
}
