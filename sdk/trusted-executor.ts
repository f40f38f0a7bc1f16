import type { ManifestPatch } from '../core/wire.ts';
import type { PatchWorld } from './live-world.ts';
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
  /** Patches of blocks with `uses`: the patch with those names as parameters, per patch and names. */
  readonly #factories = new Map<string, (...values: unknown[]) => unknown>();

  /** The patch bound to the call's world: its names read the live values through the call's tracer. */
  #withWorld(patch: ManifestPatch, world: PatchWorld): ((...args: unknown[]) => unknown) | { error: unknown } {
    const key = `${patch.id}\0${world.names.join(',')}`;
    let make = this.#factories.get(key);
    try {
      if (make === undefined) {
        make = new Function(...world.names, `'use strict';\nreturn (${patch.source}\n);`) as (...values: unknown[]) => unknown;
        this.#factories.set(key, make);
      }
      const f = make(...world.values.map((v, i) => world.tracer.root(v, world.names[i])));
      if (typeof f !== 'function') return { error: new TypeError('patch source is not a function expression') };
      return f as (...args: unknown[]) => unknown;
    } catch (error) {
      return { error };
    }
  }

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

  runSync(patch: ManifestPatch, target: unknown[], input?: unknown[], world?: PatchWorld): PatchRun {
    const f = world === undefined ? this.#get(patch) : this.#withWorld(patch, world);
    if (typeof f !== 'function') return { ok: false, error: f.error, reason: 'compile' };
    try {
      restore(target, input);
      if (world !== undefined) return { ok: true, value: world.tracer.unwrap(f.apply(world.tracer.root(target[0], 'this'), target.slice(1))) };
      return { ok: true, value: f.apply(target[0], target.slice(1)) };
    } catch (error) {
      return { ok: false, error, reason: 'threw' };
    }
  }

  async runAsync(patch: ManifestPatch, target: unknown[], input?: unknown[], world?: PatchWorld): Promise<PatchRun> {
    const f = world === undefined ? this.#get(patch) : this.#withWorld(patch, world);
    if (typeof f !== 'function') return { ok: false, error: f.error, reason: 'compile' };
    try {
      restore(target, input);
      if (world !== undefined) return { ok: true, value: world.tracer.unwrap(await f.apply(world.tracer.root(target[0], 'this'), target.slice(1))) };
      return { ok: true, value: await f.apply(target[0], target.slice(1)) };
    } catch (error) {
      return { ok: false, error, reason: 'threw' };
    }
  }

  release(keep: ReadonlySet<string>): void {
    for (const id of this.#compiled.keys()) if (!keep.has(id)) this.#compiled.delete(id);
    for (const key of this.#factories.keys()) if (!keep.has(key.slice(0, key.indexOf('\0')))) this.#factories.delete(key);
  }

  dispose(): void {
    this.#compiled.clear();
    this.#factories.clear();
  }
}
