import type { ManifestPatch } from '../core/wire.ts';
import type { PatchWorld } from './live-world.ts';

/**
 * How one patched call went. A failed run leaves the caller's arguments as they were (isolate mode).
 * `unavailable`: the patch could not be run here at all, through no fault of its own (the patch
 * helper cannot start or did not answer, the client is closed): the block's own behaviour
 * stands and nothing is counted or reported against the patch.
 */
export type PatchRun =
  | { ok: true; value: unknown }
  | { ok: false; error: unknown; reason: 'threw' | 'timeout' | 'memory' | 'compile' | 'unavailable' };

/** Runs verified patches; `isolate` and `trusted` modes implement it. */
export interface PatchExecutor {
  readonly mode: 'isolate' | 'trusted';
  /**
   * For blocks that return plain values. `target` is `[this, ...args]` of the call: the patch's
   * effects land there. `input` is the state to run on when it differs from the target's current
   * state (the inputs as they were on entry, after a failed call).
   */
  runSync(patch: ManifestPatch, target: unknown[], input?: unknown[], world?: PatchWorld): PatchRun;
  /** For async blocks (the patch's promise is awaited). `world`: the block's live `uses` (see live-world.ts). */
  runAsync(patch: ManifestPatch, target: unknown[], input?: unknown[], world?: PatchWorld): Promise<PatchRun>;
  /** Frees what is held for patches not in `keep` (patch ids). */
  release(keep: ReadonlySet<string>): void;
  dispose(): void;
}
