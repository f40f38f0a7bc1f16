import type { ManifestPatch } from '../core/wire.ts';
import type { PatchExecutor, PatchRun } from './patch-executor.ts';
import { StateWriteBack } from './state-write-back.ts';

/** Puts the entry state back onto the live objects before the patch runs on them. */
function restore(target: unknown[], input: unknown[] | undefined): void {
  if (input && input !== target) new StateWriteBack().applyArgs(target, input);
}

/**
 * `execution: 'trusted'`: a verified patch compiled in this process and called on the caller's
 * own arguments, exactly like the block it replaces. Fast (no copies) and able to use what the
 * block uses (host objects, functions in arguments, I/O in async blocks), but with no CPU or
 * memory limit and no protection from a patch's mistakes beyond the signature.
 */
export class TrustedExecutor implements PatchExecutor {
  readonly mode = 'trusted' as const;
  readonly #compiled = new Map<string, (...args: unknown[]) => unknown>();

  #get(patch: ManifestPatch): ((...args: unknown[]) => unknown) | { error: unknown } {
    let f = this.#compiled.get(patch.id);
    if (f) return f;
    try {
      // Global scope on purpose: the patch sees globals, never the SDK's locals.
      const made = new Function(`return (${patch.source}\n);`)() as unknown;
      if (typeof made !== 'function') return { error: new TypeError('patch source is not a function expression') };
      f = made as (...args: unknown[]) => unknown;
    } catch (error) {
      return { error };
    }
    this.#compiled.set(patch.id, f);
    return f;
  }

  runSync(patch: ManifestPatch, target: unknown[], input?: unknown[]): PatchRun {
    const f = this.#get(patch);
    if (typeof f !== 'function') return { ok: false, error: f.error, reason: 'compile' };
    try {
      restore(target, input);
      return { ok: true, value: f.apply(target[0], target.slice(1)) };
    } catch (error) {
      return { ok: false, error, reason: 'threw' };
    }
  }

  async runAsync(patch: ManifestPatch, target: unknown[], input?: unknown[]): Promise<PatchRun> {
    const f = this.#get(patch);
    if (typeof f !== 'function') return { ok: false, error: f.error, reason: 'compile' };
    try {
      restore(target, input);
      return { ok: true, value: await f.apply(target[0], target.slice(1)) };
    } catch (error) {
      return { ok: false, error, reason: 'threw' };
    }
  }

  release(keep: ReadonlySet<string>): void {
    for (const id of this.#compiled.keys()) if (!keep.has(id)) this.#compiled.delete(id);
  }

  dispose(): void {
    this.#compiled.clear();
  }
}
