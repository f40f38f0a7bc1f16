import { hash } from 'node:crypto';

/** sha256 hex of a block's source (UTF-8), as patches and bugs name the block; the only place it is computed. */
export function sourceHash(source: string): string {
  return hash('sha256', source, 'hex');
}

/**
 * Block source and hash per function object. `run` called with an inline arrow gets a fresh
 * closure each time, so the hash is also memoised by source text.
 */
export class SourceHashCache {
  readonly #byFn = new WeakMap<Function, { source: string; hash: string }>();
  readonly #bySource = new Map<string, string>();

  of(fn: Function): { source: string; hash: string } {
    let e = this.#byFn.get(fn);
    if (e === undefined) {
      const source = Function.prototype.toString.call(fn);
      let hash = this.#bySource.get(source);
      if (hash === undefined) {
        hash = sourceHash(source);
        if (this.#bySource.size < 10_000) this.#bySource.set(source, hash);
      }
      e = { source, hash };
      this.#byFn.set(fn, e);
    }
    return e;
  }
}
