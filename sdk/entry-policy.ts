import { writesNoInput } from '../core/input-writes.ts';

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
 */
export class EntryPolicy {
  /** Some block copies its inputs on entry now. */
  any = false;
  readonly #hot = new Map<string, number>();
  readonly #safe = new WeakMap<Function, boolean>();
  readonly #copyAfterFailure: boolean;
  readonly #source: (fn: Function) => string;

  constructor(mode: 'entry' | 'on-failure', source: (fn: Function) => string) {
    this.#copyAfterFailure = mode === 'entry';
    this.#source = source;
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
    let safe = this.#safe.get(fn);
    if (safe === undefined) {
      safe = writesNoInput(this.#source(fn));
      this.#safe.set(fn, safe);
    }
    if (!safe && this.#copyAfterFailure) {
      this.#hot.set(blockId, Date.now() + HOT_MS);
      this.any = true;
    }
    return copied || safe ? 'entry' : 'after-throw';
  }
}
