import { snapshotEqual } from '../core/snapshot.ts';
import type { ManifestPatch } from '../core/wire.ts';
import type { LoggedCall } from './block-world.ts';
import { copyArgs } from './entry-copy.ts';
import { isPureHelper } from './function-facts.ts';
import { shadowWorld } from './live-world.ts';
import type { PatchExecutor, PatchRun } from './patch-executor.ts';
import type { SnapshotEncoder } from './snapshot-encoder.ts';

/** Shadow runs waiting or running at once; samples beyond are skipped (never queued without bound). */
const MAX_PENDING = 8;

/** A healthy call of a block with a fallback-mode patch, as the block handled it (private copies). */
export interface ShadowSample {
  blockId: string;
  patch: ManifestPatch;
  /** The block is async: the patch is awaited. */
  async: boolean;
  /** `[this, ...args]` as they were on entry. */
  entry: unknown[];
  /** The block's answer. */
  result: unknown;
  /** `[this, ...args]` as the block left them. */
  after: unknown[];
  /** A block with `uses`: its world (copies), for a replay-only run. */
  world?: ShadowWorld;
}

/** A block's `uses` in a shadow sample: copies taken on entry and on return, and its call log (copied on return). */
export interface ShadowWorld {
  names: string[];
  entry: unknown[];
  after: unknown[];
  calls: LoggedCall[];
}

/** What the patch did on the sample's entry inputs. */
export type ShadowOutcome =
  | { agreed: true }
  /** Neither: the run could not be compared with the block (a block with `uses`, see ShadowRuns). */
  | { agreed: false; inconclusive: string }
  | { agreed: false; patch: { ok: true; result: unknown; after: unknown[] } | { ok: false; error: unknown } };

/**
 * Shadow runs: a patch in `fallback` mode never answers a call the block answers, so it is checked
 * against the block on a sample of those calls instead. The patch runs in the background (after
 * the call has returned) on a copy of the entry inputs, and its answer and effects on the
 * arguments are compared with the block's by snapshot equality (exact encoding: nothing redacted
 * or truncated). A patch that throws where the block answered disagrees too.
 *
 * Blocks with `uses` (isolate mode only; call-path.ts decides) are compared replay-only: the patch
 * runs on copies of the `uses` values and receiver taken on entry, and its dependency calls are
 * answered ONLY from the block's own log of that call (same path and arguments, in order → the
 * recorded answer or error); pure helpers run (they have no effects). The run is inconclusive —
 * neither agreed nor disagreed, not counted, not reported — when:
 *   - the patch makes a call the log cannot answer (another path, other arguments, a call past
 *     the log): the call is refused, never made live;
 *   - the patch leaves effectful logged calls unmade (it would not have made them);
 *   - the answers are equal but the state (arguments, receiver, `uses` values) differs while the
 *     log holds effectful calls: those calls changed the live state in the block's run and are
 *     not re-made here, so the difference cannot be laid on the patch;
 *   - the answers differ (or the patch throws) while the log holds effectful calls and the `uses`
 *     values or the receiver were not the same after the block's run as on entry: a dependency may
 *     have changed what the patch then reads (counter.inc() then counter.n), which a replayed
 *     answer does not.
 * Otherwise the answer and the state after are compared as for any block: the patch's answer
 * differing from the block's, given the same dependency answers, is a disagreement.
 */
export class ShadowRuns {
  readonly #executor: () => PatchExecutor | null;
  readonly #encoder: SnapshotEncoder;
  readonly #rate: number;
  readonly #first: number;
  readonly #seen = new Map<string, number>();
  readonly #onOutcome: (sample: ShadowSample, outcome: ShadowOutcome) => void;
  #pending = 0;

  constructor(o: { executor: () => PatchExecutor | null; encoder: SnapshotEncoder; rate: number; first: number; onOutcome: (sample: ShadowSample, outcome: ShadowOutcome) => void }) {
    this.#executor = o.executor;
    this.#encoder = o.encoder;
    this.#rate = o.rate;
    this.#first = o.first;
    this.#onOutcome = o.onOutcome;
  }

  /**
   * Whether the coming call of the patch's block is compared if it answers: the first few of each
   * patch, then a sample. Asked before the block runs, so that only these calls copy their inputs
   * on entry; a call that then throws costs the patch no place among its first (only `run` counts
   * them; calls of an async block in flight together may make a few more than `first`).
   */
  wants(patchId: string, async: boolean): boolean {
    const executor = this.#executor();
    // A trusted patch of an async block may do I/O: running it a second time is not a dry run.
    if (!executor || (async && executor.mode === 'trusted') || this.#pending >= MAX_PENDING) return false;
    if ((this.#seen.get(patchId) ?? 0) < this.#first) return true;
    return this.#rate > 0 && Math.random() < this.#rate;
  }

  /** Runs the patch on the sample (a call `wants` chose) in the background and reports the outcome; never throws. */
  run(sample: ShadowSample): void {
    if (this.#pending >= MAX_PENDING) return;
    const n = this.#seen.get(sample.patch.id) ?? 0;
    if (n < this.#first) this.#seen.set(sample.patch.id, n + 1);
    this.#pending++;
    setImmediate(() => {
      void this.#compare(sample)
        .then((outcome) => this.#onOutcome(sample, outcome))
        .catch(() => undefined)
        .finally(() => this.#pending--);
    });
  }

  /** Patch ids no longer in the manifest are forgotten. */
  release(keep: ReadonlySet<string>): void {
    for (const id of this.#seen.keys()) if (!keep.has(id)) this.#seen.delete(id);
  }

  async #compare(s: ShadowSample): Promise<ShadowOutcome> {
    const executor = this.#executor();
    if (!executor) return { agreed: true };
    const target = copyArgs(s.entry);
    const w = s.world;
    const world = w === undefined ? undefined : shadowWorld(w.names, copyArgs(w.entry), target[0], w.calls);
    const run: PatchRun = s.async ? await executor.runAsync(s.patch, target, undefined, world) : executor.runSync(s.patch, target, undefined, world);
    // Not run here at all (no fault of the patch): no outcome, rather than a disagreement.
    if (!run.ok && run.reason === 'unavailable') throw run.error;
    const replay = world?.replay ?? null;
    if (replay !== null && w !== undefined) {
      if (replay.contradicted !== null) return { agreed: false, inconclusive: `the patch ${replay.contradicted}` };
      const unmade = w.calls.slice(replay.next).find((c) => !isPureHelper(c.fn));
      if (unmade !== undefined) return { agreed: false, inconclusive: `the patch did not call ${unmade.path} as the block did` };
    }
    const exact = this.#encoder.exact;
    // The patch reads copies taken on entry. If effectful dependency calls ran in the block's call
    // and the uses values or the receiver were not the same after it as on entry, a dependency may
    // have changed what the patch reads afterwards (counter.inc(), then counter.n), and replaying
    // its answer does not repeat that change: a different answer is then no proof against the
    // patch. (Arguments the block writes itself, like order.total, do not count.)
    const stale = w !== undefined && w.calls.some((c) => !isPureHelper(c.fn)) &&
      !(snapshotEqual(exact.encode(w.entry), exact.encode(w.after)) && snapshotEqual(exact.encode(s.entry[0]), exact.encode(s.after[0])));
    if (!run.ok) return stale ? { agreed: false, inconclusive: 'the patch threw after effectful dependency calls changed the state it reads' } : { agreed: false, patch: { ok: false, error: run.error } };
    if (!snapshotEqual(exact.encode(run.value), exact.encode(s.result))) {
      return stale ? { agreed: false, inconclusive: 'the answers differ after effectful dependency calls changed the state the patch reads' } : { agreed: false, patch: { ok: true, result: run.value, after: target } };
    }
    let sameState = snapshotEqual(exact.encode(target), exact.encode(s.after));
    if (sameState && world !== undefined && w !== undefined) sameState = snapshotEqual(exact.encode(world.values), exact.encode(w.after));
    if (sameState) return { agreed: true };
    if (w !== undefined && w.calls.some((c) => !isPureHelper(c.fn))) return { agreed: false, inconclusive: 'the state differs after effectful dependency calls that were replayed, not made' };
    return { agreed: false, patch: { ok: true, result: run.value, after: target } };
  }
}
