import type { ManifestPatch } from '../core/wire.ts';
import { CallLog, frozenCalls, runTraced, Tracer } from './block-world.ts';
import type { CallContext } from './call-context.ts';
import type { CallRecording } from './call-recording.ts';
import type { ClientEvents } from './client-events.ts';
import { copyArgs, copyState } from './entry-copy.ts';
import type { EntryPolicy } from './entry-policy.ts';
import type { FailureReports } from './failure-reports.ts';
import type { FirstCalls } from './first-calls.ts';
import { receiverOf } from './function-facts.ts';
import { patchWorld, type PatchWorld } from './live-world.ts';
import type { OutcomeCounting } from './outcome-counting.ts';
import type { PatchExecutor, PatchRun } from './patch-executor.ts';
import type { PatchTable } from './patch-table.ts';
import type { ShadowWorld } from './shadow-runs.ts';
import { SdkError } from './sdk-errors.ts';
import { StateWriteBack } from './state-write-back.ts';

const AsyncFunction = (async () => undefined).constructor;

/**
 * The call path of `run` and wrapped functions. The success path is the first concern: with no
 * patch for the block and the call not sampled, a call is a flag check, one decrement of the
 * sampling countdown, one branch on the snapshot mode, the known-good check and the direct call
 * of `fn` (plus the entry copy in `snapshot: 'entry'` mode). Everything else — encoding,
 * redaction, I/O — happens only for sampled calls, failures and patched calls, in the modules this
 * one hands them to.
 */
export class CallPath {
  readonly #sampleRate: number;
  readonly #entry: EntryPolicy;
  /** Calls left until the next sampled one (see #sampleNow). */
  #countdown: number;
  readonly #table: PatchTable;
  readonly #first: FirstCalls;
  readonly #recording: CallRecording;
  readonly #failures: FailureReports;
  readonly #outcomes: OutcomeCounting;
  readonly #executor: PatchExecutor | null;
  readonly #events: ClientEvents;
  /** Patches whose first patched call here was announced. */
  readonly #announced = new Set<string>();

  constructor(o: {
    sampleRate: number;
    entry: EntryPolicy;
    table: PatchTable;
    recording: CallRecording;
    failures: FailureReports;
    outcomes: OutcomeCounting;
    executor: PatchExecutor | null;
    events: ClientEvents;
  }) {
    this.#sampleRate = o.sampleRate;
    this.#entry = o.entry;
    this.#countdown = sampleGap(o.sampleRate);
    this.#table = o.table;
    this.#first = o.recording.first;
    this.#recording = o.recording;
    this.#failures = o.failures;
    this.#outcomes = o.outcomes;
    this.#executor = o.executor;
    this.#events = o.events;
  }

  /**
   * The success path. With no patch in the manifest and the call not sampled this is a flag check,
   * one decrement of the sampling countdown and the call itself, whatever the size of the
   * arguments: they are copied on entry only for recorded calls and for blocks that failed lately
   * (see EntryPolicy). `many` holds the whole argument list when there are more than four.
   */
  invoke(id: string, description: string, fn: Function, self: unknown, n: number, a0: unknown, a1: unknown, a2: unknown, a3: unknown, many: unknown[] | null): unknown {
    if (this.#table.any || --this.#countdown <= 0 || this.#entry.any || this.#first.wants(id)) return this.call(id, description, fn, self, many ?? argList(n, a0, a1, a2, a3));
    let r: unknown;
    try {
      r = callWith(fn, self, n, a0, a1, a2, a3, many);
    } catch (error) {
      return this.#failures.failed({ id, description, fn, self: receiverOf(fn, self), args: many ?? argList(n, a0, a1, a2, a3) }, null, error, true);
    }
    if (r instanceof Promise) return this.#watch(id, description, fn, receiverOf(fn, self), many ?? argList(n, a0, a1, a2, a3), null, r);
    return r;
  }

  /** Everything but the plainest call: patches, sampling, entry copies. */
  call(id: string, description: string, fn: Function, receiver: unknown, args: unknown[]): unknown {
    // The object an arrow block was called on is no part of the call: never recorded or reported.
    const self = receiverOf(fn, receiver);
    let sampled: boolean;
    if (this.#table.any) {
      const block = this.#table.blocks.get(id);
      if (block !== undefined) {
        const patch = this.#table.patchFor(block, fn);
        if (patch !== undefined) return this.#runPatched({ id, description, fn, self, args }, patch);
      }
      // invoke skipped the countdown when patches exist; take the sampling decision here.
      sampled = --this.#countdown <= 0 && this.#sampleNow();
    } else {
      sampled = this.#countdown <= 0 && this.#sampleNow();
    }
    if (sampled || this.#first.wants(id)) return this.#runRecorded({ id, description, fn, self, args }, sampled);
    if (this.#entry.any && this.#entry.copies(id)) return this.#runWithEntry(id, description, fn, self, args);
    let r: unknown;
    try {
      r = fn.apply(self, args);
    } catch (error) {
      return this.#failures.failed({ id, description, fn, self, args }, null, error, true);
    }
    if (r instanceof Promise) return this.#watch(id, description, fn, self, args, null, r);
    return r;
  }

  /**
   * A block given with `uses` (the options-object form): it runs as its traced copy (see
   * block-world.ts), so failures and recorded calls carry its world. Patches, sampling and entry
   * copies as in `call`.
   */
  callWorld(ctx: CallContext): unknown {
    ctx.self = receiverOf(ctx.fn, ctx.self);
    if (this.#table.any) {
      const block = this.#table.blocks.get(ctx.id);
      if (block !== undefined) {
        const patch = this.#table.patchFor(block, ctx.fn);
        if (patch !== undefined) return this.#runPatched(ctx, patch);
      }
    }
    const sampled = --this.#countdown <= 0 && this.#sampleNow();
    if (sampled || this.#first.wants(ctx.id)) return this.#runRecorded(ctx, sampled);
    const entry = this.#entry.any && this.#entry.copies(ctx.id) ? copyState(ctx.self, ctx.args) : null;
    let r: unknown;
    try {
      r = applyBlock(ctx);
    } catch (error) {
      return this.#failures.failed(ctx, entry, error, true);
    }
    if (r instanceof Promise) return r.then(undefined, (error: unknown) => this.#failures.failed(ctx, entry, error, true));
    return r;
  }

  /**
   * The countdown reached zero: draw the next gap and say whether this call is recorded. Gaps come
   * from the geometric distribution, so each call is still sampled independently with probability
   * `sampleRate`, but `Math.random` runs once per sampled call instead of once per call.
   */
  #sampleNow(): boolean {
    this.#countdown = sampleGap(this.#sampleRate);
    return this.#sampleRate !== 0;
  }

  #watch(id: string, description: string, fn: Function, self: unknown, args: unknown[], entry: unknown[] | null, r: Promise<unknown>): unknown {
    return r.then(undefined, (error: unknown) => this.#failures.failed({ id, description, fn, self, args }, entry, error, true));
  }

  #runWithEntry(id: string, description: string, fn: Function, self: unknown, args: unknown[]): unknown {
    const entry = copyState(self, args);
    let r: unknown;
    try {
      r = fn.apply(self, args);
    } catch (error) {
      return this.#failures.failed({ id, description, fn, self, args }, entry, error, true);
    }
    if (r instanceof Promise) return this.#watch(id, description, fn, self, args, entry, r);
    return r;
  }

  /** A call that is sampled (`sampled`) or may be one of the block's first distinct calls. */
  #runRecorded(ctx: CallContext, sampled: boolean): unknown {
    const entry = copyState(ctx.self, ctx.args);
    if (ctx.world !== undefined) ctx.usesEntry = copyArgs(ctx.world.values);
    let r: unknown;
    try {
      r = applyBlock(ctx);
    } catch (error) {
      return this.#failures.failed(ctx, entry, error, true);
    }
    if (r instanceof Promise) {
      return r.then(
        (v: unknown) => {
          this.#recording.record(ctx, entry, v, sampled);
          return v;
        },
        (error: unknown) => this.#failures.failed(ctx, entry, error, true),
      );
    }
    this.#recording.record(ctx, entry, r, sampled);
    return r;
  }

  /** Replace mode (granted by the operator): the patch runs instead of the block. */
  #runPatched(ctx: CallContext, patch: ManifestPatch): unknown {
    if (!this.#table.replaces(patch.id)) return this.#runFallback(ctx, patch);
    const executor = this.#executor as PatchExecutor;
    const target = [ctx.self, ...ctx.args];
    // Trusted patches work on the live objects: keep the entry state to put back if one throws.
    const entry = executor.mode === 'trusted' ? copyArgs(target) : null;
    // A block with uses: the patch reaches the live values (see live-world.ts).
    const world = ctx.world === undefined ? undefined : patchWorld({ ...ctx, world: ctx.world }, false);
    if (ctx.fn instanceof AsyncFunction) {
      return executor.runAsync(patch, target, undefined, world).then((run) => {
        if (run.ok) return this.#patchPassed(ctx, patch, run.value);
        return this.#patchFailed(ctx, patch, run.error, entry, target, run.reason);
      });
    }
    const run = executor.runSync(patch, target, undefined, world);
    if (run.ok) return this.#patchPassed(ctx, patch, run.value);
    return this.#patchFailed(ctx, patch, run.error, entry, target, run.reason);
  }

  /**
   * Fallback mode: the block runs as written and its answers stand. Only when it throws does the
   * patch run, on the inputs as they were on entry; its effects on the arguments are written back
   * and its answer returned. Some healthy calls are compared with the patch in the background.
   * A healthy call copies its inputs on entry only when it is recorded, compared (both decided
   * before the block runs) or its block needs the copy to rescue a throw (EntryPolicy.fallbackCopies):
   * a block that provably writes to no object takes none, whatever the size of its arguments.
   */
  #runFallback(ctx: CallContext, patch: ManifestPatch): unknown {
    const target = [ctx.self, ...ctx.args];
    const async = ctx.fn instanceof AsyncFunction;
    // call skipped the sampling countdown for a patched block: take the decision here.
    const sampled = --this.#countdown <= 0 && this.#sampleNow();
    const record = sampled || this.#first.wants(ctx.id);
    // A shadow run must have no effects. A block with uses is compared replay-only (shadow-runs.ts):
    // only in the isolate (a trusted patch holds live references), and only when its calls are
    // logged (its traced copy runs).
    const compare = (ctx.world === undefined || (ctx.world.factory !== null && this.#executor?.mode === 'isolate')) && this.#outcomes.wantsShadow(patch.id, async);
    if (compare && ctx.world !== undefined) ctx.usesEntry = copyArgs(ctx.world.values);
    let entry: unknown[] | null = record || compare || this.#entry.fallbackCopies(patch, ctx.fn, ctx.world !== undefined, async) ? copyArgs(target) : null;
    let r: unknown;
    try {
      r = applyBlock(ctx);
    } catch (error) {
      return this.#rescue(ctx, patch, entry, target, error, async);
    }
    if (r instanceof Promise) {
      // A sync block that wrote nothing returned a promise (one it was given): nothing else has run
      // since it was entered, so its inputs now are its entry inputs; keep them for a rejection.
      entry ??= copyArgs(target);
      const kept = entry;
      return r.then(
        (v: unknown) => this.#answered(ctx, patch, kept, target, v, sampled, record, compare, true),
        (error: unknown) => this.#rescue(ctx, patch, kept, target, error, true),
      );
    }
    return entry === null ? r : this.#answered(ctx, patch, entry, target, r, sampled, record, compare, async);
  }

  /** The block answered: record it when due, maybe compare the patch with it, and return its answer. */
  #answered(ctx: CallContext, patch: ManifestPatch, entry: unknown[], target: unknown[], value: unknown, sampled: boolean, record: boolean, compare: boolean, async: boolean): unknown {
    try {
      if (record) this.#recording.record(ctx, ctx.self === undefined ? entry.slice(1) : entry, value, sampled);
      if (compare) this.#outcomes.shadow(ctx.id, patch, async, entry, value, target, shadowWorldOf(ctx));
    } catch (err) {
      this.#events.error(new SdkError('SUTURE_PATCH_FAILED', `could not compare patch ${patch.id} with block ${ctx.id}`, { cause: err }));
    }
    return value;
  }

  /**
   * The block threw: the patch answers on the entry inputs, or, when it fails too, the block's error
   * stands. `entry` null: no copy was taken because the block writes to no object (see
   * #runFallback), so its inputs at the throw are its entry inputs and the patch runs on them.
   */
  #rescue(ctx: CallContext, patch: ManifestPatch, copied: unknown[] | null, target: unknown[], error: unknown, async: boolean): unknown {
    const executor = this.#executor as PatchExecutor;
    // A trusted patch works on the live objects: keep what the block left, to put back if the patch fails.
    const left = executor.mode === 'trusted' ? copyArgs(target) : null;
    // No entry copy: the patch runs on the live inputs, which are the entry state. An isolate patch
    // writes them only when it answers; a trusted one may change them before it fails, so the
    // reports get a copy taken now.
    const input = copied ?? target;
    const entry = copied ?? (left === null ? target : copyArgs(target));
    const state = ctx.self === undefined ? entry.slice(1) : entry;
    // The block may have called dependencies before it threw: the patch gets those calls' answers
    // from the block's log (no second effect) and reaches the live ones only past them.
    const world: PatchWorld | undefined = ctx.world === undefined ? undefined : patchWorld({ ...ctx, world: ctx.world }, true);
    const settle = (run: PatchRun): unknown => {
      const contradicted = world?.replay?.contradicted ?? null;
      if (run.ok && contradicted === null) return this.#patchPassed(ctx, patch, run.value);
      // Not run at all (no fault of the patch): the block's error stands, nothing counted against the patch.
      if (!run.ok && run.reason === 'unavailable') return this.#failures.failed(ctx, state, error, false);
      this.#outcomes.count(patch.id, 'threw');
      this.#failures.report(ctx, state, run.ok ? new Error(`suture: the patch ${contradicted}; the block's own error stands`) : run.error, patch.id);
      if (left) putBack(target, left);
      return this.#failures.failed(ctx, state, error, false);
    };
    if (async) return executor.runAsync(patch, target, input, world).then(settle);
    return settle(executor.runSync(patch, target, input, world));
  }

  #patchPassed(ctx: CallContext, patch: ManifestPatch, value: unknown): unknown {
    this.#outcomes.count(patch.id, 'passed');
    if (!this.#announced.has(patch.id)) {
      this.#announced.add(patch.id);
      this.#events.emit('patched', { blockId: ctx.id, patchId: patch.id, version: patch.version, via: 'manifest' });
    }
    return value;
  }

  /** A patch that throws (or hits a limit) counts against it and is reported; the call then gets the block's own behaviour. */
  #patchFailed(ctx: CallContext, patch: ManifestPatch, error: unknown, entry: unknown[] | null, target: unknown[], reason: Extract<PatchRun, { ok: false }>['reason']): unknown {
    // `target` and `entry` hold the receiver slot always; reports take it only when there is a receiver.
    const asState = (s: unknown[]) => (ctx.self === undefined ? s.slice(1) : s);
    if (reason !== 'unavailable') {
      this.#outcomes.count(patch.id, 'threw');
      this.#failures.report(ctx, asState(entry ?? copyArgs(target)), error, patch.id);
    }
    if (entry) putBack(target, entry);
    if (ctx.tracer !== undefined) ctx.tracer = new Tracer(new CallLog());
    let r: unknown;
    try {
      r = applyBlock(ctx);
    } catch (err) {
      return this.#failures.failed(ctx, entry && asState(entry), err, false);
    }
    if (r instanceof Promise) return r.then(undefined, (err: unknown) => this.#failures.failed(ctx, entry && asState(entry), err, false));
    return r;
  }
}

/** Writes `state` back onto the live `target` after a failed patch run; best effort (a frozen or exotic object may refuse). */
function putBack(target: unknown[], state: unknown[]): void {
  try {
    new StateWriteBack().applyArgs(target, state);
  } catch {
    /* best effort */
  }
}

/** A compared call's world when its block has `uses`: entry copies, copies now, and its log copied now. */
function shadowWorldOf(ctx: CallContext): ShadowWorld | undefined {
  if (ctx.world === undefined) return undefined;
  const values = ctx.world.values;
  return { names: ctx.world.names, entry: ctx.usesEntry ?? copyArgs(values), after: copyArgs(values), calls: frozenCalls(ctx.tracer?.log.calls ?? [], copyArgs) };
}

/** Runs the block: as its traced copy when it has `uses` (the call's log goes in `ctx.tracer`). */
function applyBlock(ctx: CallContext): unknown {
  if (ctx.world === undefined) return ctx.fn.apply(ctx.self, ctx.args);
  return runTraced(ctx.world, ctx.fn, ctx.self, ctx.args, (ctx.tracer ??= new Tracer(new CallLog())));
}

/** With rate 0 the countdown still runs out after 2^30 calls; #sampleNow then just refills it. */
const NEVER = 2 ** 30;

/** Calls until the next sampled one: geometric with success probability `rate` (at least 1). */
function sampleGap(rate: number): number {
  if (rate <= 0) return NEVER;
  if (rate >= 1) return 1;
  const gap = 1 + Math.floor(Math.log(1 - Math.random()) / Math.log1p(-rate));
  return gap > NEVER ? NEVER : gap;
}

function argList(n: number, a0: unknown, a1: unknown, a2: unknown, a3: unknown): unknown[] {
  switch (n) {
    case 0:
      return [];
    case 1:
      return [a0];
    case 2:
      return [a0, a1];
    case 3:
      return [a0, a1, a2];
    default:
      return [a0, a1, a2, a3];
  }
}

/** `fn.apply(self, args)` without the array for up to four arguments (the arity `fn` sees is unchanged). */
function callWith(fn: Function, self: unknown, n: number, a0: unknown, a1: unknown, a2: unknown, a3: unknown, many: unknown[] | null): unknown {
  switch (n) {
    case 0:
      return fn.call(self);
    case 1:
      return fn.call(self, a0);
    case 2:
      return fn.call(self, a0, a1);
    case 3:
      return fn.call(self, a0, a1, a2);
    case 4:
      return fn.call(self, a0, a1, a2, a3);
    default:
      return fn.apply(self, many as unknown[]);
  }
}
