import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { replaceGranted } from '../core/mode-grant.ts';
import { verifyPatchSignature } from '../core/patch-signature.ts';
import type { Encoded } from '../core/types.ts';
import type { FailureAck, FailureReport, Manifest, ManifestPatch, OutcomeReport, RecordedCall, RecordedCasesBatch, ShadowDisagreement } from '../core/wire.ts';
import { resolveOptions, type RepairClientOptions, type ResolvedOptions } from './client-options.ts';
import { DaemonHttp, isRetryableStatus } from './daemon-http.ts';
import { DeliveryQueue } from './delivery-queue.ts';
import { copyArgs } from './entry-copy.ts';
import { FirstCalls } from './first-calls.ts';
import { IsolateExecutor, loadIsolatedVm } from './isolate-executor.ts';
import { parsePatch } from './manifest-shape.ts';
import type { PatchExecutor, PatchRun } from './patch-executor.ts';
import { RegistrySync } from './registry-sync.ts';
import { inRolloutShare } from './rollout-share.ts';
import { OutcomeTally } from './outcome-tally.ts';
import { SdkError } from './sdk-errors.ts';
import { ShadowRuns, type ShadowOutcome, type ShadowSample } from './shadow-runs.ts';
import { createSnapshotEncoder, type SnapshotEncoder } from './snapshot-encoder.ts';
import { SourceHashCache } from '../core/source-hash.ts';
import { StateWriteBack } from './state-write-back.ts';
import { TrustedExecutor } from './trusted-executor.ts';

/**
 * What `run` gives back: an async block's promise (of its value), or a sync block's value —
 * except when a sync block fails and `waitForFix` is on, where the wait makes it a promise.
 * `await` works for all of them.
 */
export type RunResult<R> = R extends PromiseLike<infer U> ? Promise<U> : R | Promise<R>;

export interface PatchedEvent {
  blockId: string;
  patchId: string;
  version: number;
  /** `manifest`: first patched call of this patch in this process; `wait`: a failing call rescued by `waitForFix`. */
  via: 'manifest' | 'wait';
}

export interface FailureEvent {
  blockId: string;
  requestId: string;
  /** The block's (or patch's) own error, as thrown. */
  error: unknown;
  /** Set when the failing code was a patch. */
  patchId?: string;
}

export interface ShadowEvent {
  blockId: string;
  patchId: string;
  version: number;
  /** The patch's answer and argument effects equalled the block's on a call the block answered. */
  agreed: boolean;
}

export interface SyncEvent {
  revision: number;
  changed: boolean;
  via: 'poll' | 'stream' | 'backup';
  /** Blocks with a patch this instance runs, after the sync. */
  patchedBlocks: number;
}

export interface RepairClientEvents {
  patched: [PatchedEvent];
  failure: [FailureEvent];
  shadow: [ShadowEvent];
  sync: [SyncEvent];
  error: [SdkError];
}

/** Counters for operations and tests. */
export interface RepairClientStats {
  failuresQueued: number;
  failuresDelivered: number;
  failuresDropped: number;
  callsQueued: number;
  callsDelivered: number;
  callsDropped: number;
  manifestRevision: number;
}

interface PendingFailure {
  report: FailureReport;
  ack?: (a: FailureAck | null) => void;
}

interface PendingCall {
  blockId: string;
  description: string;
  source: string;
  entry: unknown[];
  /** The entry already encoded (first calls are encoded on the call, to tell them apart). */
  encoded?: Encoded[];
  result: unknown;
  after: unknown[];
  at: string;
}

/** Per block id: the patch this instance runs for each source hash, and a one-entry cache by function object. */
interface BlockPatches {
  byHash: Map<string, ManifestPatch>;
  lastFn: Function | null;
  lastPatch: ManifestPatch | undefined;
}

interface CallContext {
  id: string;
  description: string;
  fn: Function;
  self: unknown;
  args: unknown[];
}

const AsyncFunction = (async () => undefined).constructor;
const RUNNABLE: ReadonlySet<string> = new Set(['canary', 'active']);
const FAILURE_SEND_CONCURRENCY = 8;
/** Disagreeing calls of one patch sent by one instance: enough to be cases of the next round. */
const MAX_DISAGREEMENTS_SENT = 3;
const NOT_YET = new Set([204, 404, 408, 425]);

/**
 * The application-side client. See sdk/index.ts and the README section "The SDK".
 *
 * The success path is the first concern: with no patch for the block and the call not sampled,
 * `run` is a Map lookup, one branch on the sampling rate and the direct call of `fn` (plus the
 * entry copy in `snapshot: 'entry'` mode). Everything else — encoding, redaction, I/O — happens
 * only for sampled calls, failures and patched calls, and encoding of recorded calls is deferred
 * to the background flush.
 */
export class RepairClient {
  readonly #o: ResolvedOptions;
  readonly #events = new EventEmitter<RepairClientEvents>();
  readonly #http: DaemonHttp;
  readonly #encoder: SnapshotEncoder;
  readonly #hashes = new SourceHashCache();
  readonly #failures: DeliveryQueue<PendingFailure>;
  readonly #calls: DeliveryQueue<PendingCall>;
  readonly #sync: RegistrySync;
  readonly #sampleRate: number;
  readonly #entryCopies: boolean;
  /** Calls left until the next sampled one (see #sampleNow). */
  #countdown: number;
  /** Whether the manifest gives this instance any patch at all: without one, no per-call lookup. */
  #anyPatches = false;
  #executor: PatchExecutor | null = null;
  #patches = new Map<string, BlockPatches>();
  readonly #verified = new Map<string, boolean>();
  readonly #announced = new Set<string>();
  readonly #first: FirstCalls;
  readonly #shadow: ShadowRuns;
  /** Patches whose replace grant verified; every other live patch runs in fallback mode. */
  #replacing = new Set<string>();
  /** Patches that disagreed with the block in a shadow run: this instance no longer uses them. */
  readonly #quarantined = new Set<string>();
  readonly #disagreementsSent = new Map<string, number>();
  #manifest: Manifest | null = null;
  readonly #outcomes = new OutcomeTally();
  #outcomeTimer: NodeJS.Timeout | null = null;
  #warnedNoKey = false;
  #closed = false;
  /** Events raised while the constructor runs wait a tick, so listeners attached right after creation hear them. */
  #constructing = true;

  constructor(options: RepairClientOptions) {
    const o = resolveOptions(options);
    this.#o = o;
    this.#sampleRate = o.sampleRate;
    this.#entryCopies = o.snapshot === 'entry';
    this.#countdown = sampleGap(o.sampleRate);
    this.#first = new FirstCalls(o.recordFirst);
    this.#http = new DaemonHttp(o.url, o.token, o.requestTimeout);
    this.#encoder = createSnapshotEncoder(o.redactKeys);
    this.#shadow = new ShadowRuns({
      executor: () => this.#executor,
      encoder: this.#encoder,
      rate: o.shadowRate,
      first: o.shadowFirst,
      onOutcome: (sample, outcome) => this.#shadowDone(sample, outcome),
    });
    this.#failures = new DeliveryQueue<PendingFailure>({
      max: o.maxQueuedFailures,
      batchSize: 50,
      flushInterval: Math.min(o.flushInterval, 500), // failures are rare and a job waits on them
      maxBackoff: o.maxBackoff,
      send: (items) => this.#sendFailures(items),
      onDrop: (item, why) => {
        item.ack?.(null);
        if (why === 'overflow') this.#error(new SdkError('QUEUE_OVERFLOW', 'failure report queue full: oldest report dropped'));
      },
    });
    this.#calls = new DeliveryQueue<PendingCall>({
      max: o.maxQueuedCalls,
      batchSize: 200,
      flushInterval: o.flushInterval,
      maxBackoff: o.maxBackoff,
      send: (items) => this.#sendCalls(items),
    });
    if (o.execution === 'trusted') this.#executor = new TrustedExecutor();
    else {
      const loaded = loadIsolatedVm();
      if ('ivm' in loaded) this.#executor = new IsolateExecutor(loaded.ivm, o.limits, this.#encoder);
      else this.#error(new SdkError('ISOLATE_UNAVAILABLE', loaded.error));
    }
    this.#sync = new RegistrySync(this.#http, {
      app: o.app,
      mode: o.sync,
      pollInterval: o.pollInterval,
      maxBackoff: o.maxBackoff,
      backupFile: o.backupFile,
      streamPath: '/v1/manifest/stream',
      onManifest: (m, from) => {
        this.#applyManifest(m);
        if (from === 'backup') this.#emit('sync', { revision: m.revision, changed: true, via: 'backup', patchedBlocks: this.#patches.size });
      },
      onSync: (info) => this.#emit('sync', { ...info, patchedBlocks: this.#patches.size }),
      onError: (err) => this.#error(err),
    });
    this.#sync.start();
    this.#constructing = false;
  }

  // ---- public API ----

  /** Runs `fn(...args)` as block `id`; see {@link RunResult}. Never throws its own errors: only the block's. */
  run<A extends unknown[], R>(id: string, description: string, fn: (...args: A) => R, ...args: A): RunResult<R>;
  // Fixed parameters instead of a rest array: up to four arguments cross without an array being
  // allocated on the success path (more take the general route through `arguments`).
  run(id: string, description: string, fn: Function, a0?: unknown, a1?: unknown, a2?: unknown, a3?: unknown): unknown {
    const n = arguments.length - 3;
    return this.#invoke(id, description, fn, undefined, n, a0, a1, a2, a3, n > 4 ? restOf(arguments, 3) : null);
  }

  /** `run` bound to a block: returns a function with `fn`'s parameters (and `this`). */
  wrap<A extends unknown[], R, T = unknown>(id: string, description: string, fn: (this: T, ...args: A) => R): (this: T, ...args: A) => RunResult<R> {
    const client = this;
    return function wrapped(this: T, a0?: unknown, a1?: unknown, a2?: unknown, a3?: unknown): RunResult<R> {
      const n = arguments.length;
      return client.#invoke(id, description, fn, this, n, a0, a1, a2, a3, n > 4 ? restOf(arguments, 0) : null) as RunResult<R>;
    } as unknown as (this: T, ...args: A) => RunResult<R>;
  }

  /** Runs `fn` with `self` as `this` (the Pause adapter's `scope`). */
  runWithThis<A extends unknown[], R>(id: string, description: string, fn: (...args: A) => R, self: unknown, args: A): RunResult<R> {
    return this.#call(id, description, fn, self, args) as RunResult<R>;
  }

  on<E extends keyof RepairClientEvents>(event: E, listener: (...args: RepairClientEvents[E]) => void): this {
    this.#events.on(event, listener as never);
    return this;
  }

  off<E extends keyof RepairClientEvents>(event: E, listener: (...args: RepairClientEvents[E]) => void): this {
    this.#events.off(event, listener as never);
    return this;
  }

  once<E extends keyof RepairClientEvents>(event: E, listener: (...args: RepairClientEvents[E]) => void): this {
    this.#events.once(event, listener as never);
    return this;
  }

  /** Sends queued reports, recorded calls and outcome counts now. Never rejects. */
  async flush(): Promise<void> {
    await Promise.all([this.#failures.flush(), this.#calls.flush(), this.#sendOutcomes()]).catch(() => undefined);
  }

  /** Stops syncing, flushes everything once more and frees the isolate. Blocks keep working (directly) afterwards. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#sync.stop();
    if (this.#outcomeTimer) clearTimeout(this.#outcomeTimer);
    await Promise.all([this.#failures.close(), this.#calls.close(), this.#sendOutcomes()]).catch(() => undefined);
    await this.#sync.settled();
    this.#executor?.dispose();
    this.#patches = new Map();
    this.#anyPatches = false;
  }

  stats(): RepairClientStats {
    return {
      failuresQueued: this.#failures.size,
      failuresDelivered: this.#failures.delivered,
      failuresDropped: this.#failures.dropped,
      callsQueued: this.#calls.size,
      callsDelivered: this.#calls.delivered,
      callsDropped: this.#calls.dropped,
      manifestRevision: this.#sync.revision,
    };
  }

  // ---- the call ----

  /**
   * The success path. With no patch in the manifest and the call not sampled this is a flag check,
   * one decrement of the sampling countdown and the call itself (in `'on-failure'` mode; `'entry'`
   * mode adds the copy). `many` holds the whole argument list when there are more than four.
   */
  #invoke(id: string, description: string, fn: Function, self: unknown, n: number, a0: unknown, a1: unknown, a2: unknown, a3: unknown, many: unknown[] | null): unknown {
    if (this.#anyPatches || --this.#countdown <= 0 || this.#entryCopies || this.#first.wants(id)) return this.#call(id, description, fn, self, many ?? argList(n, a0, a1, a2, a3));
    let r: unknown;
    try {
      r = callWith(fn, self, n, a0, a1, a2, a3, many);
    } catch (error) {
      return this.#failed({ id, description, fn, self, args: many ?? argList(n, a0, a1, a2, a3) }, null, error, true);
    }
    if (r instanceof Promise) return this.#watch(id, description, fn, self, many ?? argList(n, a0, a1, a2, a3), null, r);
    return r;
  }

  /** Everything but the plainest call: patches, sampling, entry copies. */
  #call(id: string, description: string, fn: Function, self: unknown, args: unknown[]): unknown {
    let sampled: boolean;
    if (this.#anyPatches) {
      const block = this.#patches.get(id);
      if (block !== undefined) {
        const patch = this.#patchFor(block, fn);
        if (patch !== undefined) return this.#runPatched({ id, description, fn, self, args }, patch);
      }
      // #invoke skipped the countdown when patches exist; take the sampling decision here.
      sampled = --this.#countdown <= 0 && this.#sampleNow();
    } else {
      sampled = this.#countdown <= 0 && this.#sampleNow();
    }
    if (sampled || this.#first.wants(id)) return this.#runRecorded({ id, description, fn, self, args }, sampled);
    if (this.#entryCopies) return this.#runWithEntry(id, description, fn, self, args);
    let r: unknown;
    try {
      r = fn.apply(self, args);
    } catch (error) {
      return this.#failed({ id, description, fn, self, args }, null, error, true);
    }
    if (r instanceof Promise) return this.#watch(id, description, fn, self, args, null, r);
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
    return r.then(undefined, (error: unknown) => this.#failed({ id, description, fn, self, args }, entry, error, true));
  }

  #runWithEntry(id: string, description: string, fn: Function, self: unknown, args: unknown[]): unknown {
    const entry = copyArgs(self === undefined ? args : [self, ...args]);
    let r: unknown;
    try {
      r = fn.apply(self, args);
    } catch (error) {
      return this.#failed({ id, description, fn, self, args }, entry, error, true);
    }
    if (r instanceof Promise) return this.#watch(id, description, fn, self, args, entry, r);
    return r;
  }

  /** A call that is sampled (`sampled`) or may be one of the block's first distinct calls. */
  #runRecorded(ctx: CallContext, sampled: boolean): unknown {
    const entry = copyArgs(ctx.self === undefined ? ctx.args : [ctx.self, ...ctx.args]);
    // A call copied only because it may be a first call fails like any other call of its snapshot mode.
    const reported = sampled || this.#entryCopies ? entry : null;
    let r: unknown;
    try {
      r = ctx.fn.apply(ctx.self, ctx.args);
    } catch (error) {
      return this.#failed(ctx, reported, error, true);
    }
    if (r instanceof Promise) {
      return r.then(
        (v: unknown) => {
          this.#record(ctx, entry, v, sampled);
          return v;
        },
        (error: unknown) => this.#failed(ctx, reported, error, true),
      );
    }
    this.#record(ctx, entry, r, sampled);
    return r;
  }

  /** Queues a successful call: always when sampled, else when its inputs are new among the block's first calls. */
  #record(ctx: CallContext, entry: unknown[], result: unknown, sampled: boolean): void {
    if (this.#closed) return;
    try {
      const off = ctx.self === undefined ? 0 : 1;
      const args = off ? entry.slice(1) : entry;
      let encoded: Encoded[] | undefined;
      if (this.#first.wants(ctx.id)) {
        encoded = this.#encoder.encodeEach(args);
        if (!this.#first.admit(ctx.id, encoded) && !sampled) return;
      } else if (!sampled) return;
      this.#calls.push({
        blockId: ctx.id,
        description: ctx.description,
        source: this.#hashes.of(ctx.fn).source,
        entry: args,
        ...(encoded ? { encoded } : {}),
        result: copyArgs([result])[0],
        after: copyArgs(ctx.args),
        at: new Date().toISOString(),
      });
    } catch (err) {
      this.#error(new SdkError('DELIVERY_FAILED', `could not record a call of ${ctx.id}`, { cause: err }));
    }
  }

  #patchFor(block: BlockPatches, fn: Function): ManifestPatch | undefined {
    if (block.lastFn === fn) return block.lastPatch;
    const patch = block.byHash.get(this.#hashes.of(fn).hash);
    block.lastFn = fn;
    block.lastPatch = patch;
    return patch;
  }

  /** Replace mode (granted by the operator): the patch runs instead of the block. */
  #runPatched(ctx: CallContext, patch: ManifestPatch): unknown {
    if (!this.#replacing.has(patch.id)) return this.#runFallback(ctx, patch);
    const executor = this.#executor as PatchExecutor;
    const target = [ctx.self, ...ctx.args];
    // Trusted patches work on the live objects: keep the entry state to put back if one throws.
    const entry = executor.mode === 'trusted' ? copyArgs(target) : null;
    if (ctx.fn instanceof AsyncFunction) {
      return executor.runAsync(patch, target).then((run) => {
        if (run.ok) return this.#patchPassed(ctx, patch, run.value);
        return this.#patchFailed(ctx, patch, run.error, entry, target);
      });
    }
    const run = executor.runSync(patch, target);
    if (run.ok) return this.#patchPassed(ctx, patch, run.value);
    return this.#patchFailed(ctx, patch, run.error, entry, target);
  }

  /**
   * Fallback mode: the block runs as written and its answers stand. Only when it throws does the
   * patch run, on the inputs as they were on entry; its effects on the arguments are written back
   * and its answer returned. Some healthy calls are compared with the patch in the background.
   */
  #runFallback(ctx: CallContext, patch: ManifestPatch): unknown {
    const target = [ctx.self, ...ctx.args];
    const entry = copyArgs(target);
    // #call skipped the sampling countdown for a patched block: take the decision here.
    const sampled = --this.#countdown <= 0 && this.#sampleNow();
    let r: unknown;
    try {
      r = ctx.fn.apply(ctx.self, ctx.args);
    } catch (error) {
      return this.#rescue(ctx, patch, entry, target, error, ctx.fn instanceof AsyncFunction);
    }
    if (r instanceof Promise) {
      return r.then(
        (v: unknown) => this.#answered(ctx, patch, entry, target, v, sampled, true),
        (error: unknown) => this.#rescue(ctx, patch, entry, target, error, true),
      );
    }
    return this.#answered(ctx, patch, entry, target, r, sampled, false);
  }

  /** The block answered: record it when due, maybe compare the patch with it, and return its answer. */
  #answered(ctx: CallContext, patch: ManifestPatch, entry: unknown[], target: unknown[], value: unknown, sampled: boolean, async: boolean): unknown {
    try {
      if (sampled || this.#first.wants(ctx.id)) this.#record(ctx, ctx.self === undefined ? entry.slice(1) : entry, value, sampled);
      if (!this.#closed && this.#shadow.wants(patch.id, async)) {
        this.#shadow.run({ blockId: ctx.id, patch, async, entry, result: copyArgs([value])[0], after: copyArgs(target) });
      }
    } catch (err) {
      this.#error(new SdkError('PATCH_FAILED', `could not compare patch ${patch.id} with block ${ctx.id}`, { cause: err }));
    }
    return value;
  }

  /** The block threw: the patch answers on the entry inputs, or, when it fails too, the block's error stands. */
  #rescue(ctx: CallContext, patch: ManifestPatch, entry: unknown[], target: unknown[], error: unknown, async: boolean): unknown {
    const executor = this.#executor as PatchExecutor;
    const state = ctx.self === undefined ? entry.slice(1) : entry;
    // A trusted patch works on the live objects: keep what the block left, to put back if the patch fails.
    const left = executor.mode === 'trusted' ? copyArgs(target) : null;
    const settle = (run: PatchRun): unknown => {
      if (run.ok) return this.#patchPassed(ctx, patch, run.value);
      this.#count(patch.id, 'threw');
      this.#report(ctx, state, run.error, patch.id);
      if (left) {
        try {
          new StateWriteBack().applyArgs(target, left);
        } catch {
          /* best effort */
        }
      }
      return this.#failed(ctx, state, error, false);
    };
    if (async) return executor.runAsync(patch, target, entry).then(settle);
    return settle(executor.runSync(patch, target, entry));
  }

  /** A shadow run ended: count it; a disagreement is reported at once and the patch is dropped here. */
  #shadowDone(sample: ShadowSample, outcome: ShadowOutcome): void {
    const { patch } = sample;
    this.#emit('shadow', { blockId: sample.blockId, patchId: patch.id, version: patch.version, agreed: outcome.agreed });
    if (outcome.agreed) {
      this.#outcomes.add(patch.id, { agreed: 1 });
      this.#scheduleOutcomes();
      return;
    }
    const sent = this.#disagreementsSent.get(patch.id) ?? 0;
    let disagreement;
    if (sent < MAX_DISAGREEMENTS_SENT) {
      try {
        disagreement = this.#describeDisagreement(sample, outcome);
      } catch (err) {
        this.#error(new SdkError('DELIVERY_FAILED', `could not encode a shadow disagreement of ${patch.id}`, { cause: err }));
      }
      if (disagreement) this.#disagreementsSent.set(patch.id, sent + 1);
    }
    this.#outcomes.add(patch.id, { disagreed: 1 }, disagreement);
    if (!this.#quarantined.has(patch.id)) {
      this.#quarantined.add(patch.id);
      if (this.#manifest) this.#applyManifest(this.#manifest);
    }
    if (!this.#closed) void this.#sendOutcomes();
  }

  #describeDisagreement(s: ShadowSample, outcome: Extract<ShadowOutcome, { agreed: false }>): ShadowDisagreement | undefined {
    let call: RecordedCall = {
      args: this.#encoder.encodeEach(s.entry.slice(1)),
      result: this.#encoder.encode(s.result),
      argsAfter: this.#encoder.encodeEach(s.after.slice(1)),
      at: new Date().toISOString(),
    };
    if (this.#o.redactHook) {
      const out = this.#o.redactHook({ kind: 'recorded', blockId: s.blockId, call });
      if (!out) return undefined;
      call = out as RecordedCall;
    }
    const p = outcome.patch;
    return {
      call,
      patch: p.ok ? { result: this.#encoder.encode(p.result), argsAfter: this.#encoder.encodeEach(p.after.slice(1)) } : { error: shortError(p.error) },
    };
  }

  #patchPassed(ctx: CallContext, patch: ManifestPatch, value: unknown): unknown {
    this.#count(patch.id, 'passed');
    if (!this.#announced.has(patch.id)) {
      this.#announced.add(patch.id);
      this.#emit('patched', { blockId: ctx.id, patchId: patch.id, version: patch.version, via: 'manifest' });
    }
    return value;
  }

  /** A patch that throws (or hits a limit) counts against it and is reported; the call then gets the block's own behaviour. */
  #patchFailed(ctx: CallContext, patch: ManifestPatch, error: unknown, entry: unknown[] | null, target: unknown[]): unknown {
    this.#count(patch.id, 'threw');
    this.#report(ctx, entry ?? copyArgs(target), error, patch.id);
    if (entry) {
      try {
        new StateWriteBack().applyArgs(target, entry);
      } catch {
        /* best effort */
      }
    }
    let r: unknown;
    try {
      r = ctx.fn.apply(ctx.self, ctx.args);
    } catch (err) {
      return this.#failed(ctx, entry, err, false);
    }
    if (r instanceof Promise) return r.then(undefined, (err: unknown) => this.#failed(ctx, entry, err, false));
    return r;
  }

  // ---- failures ----

  /** Reports the failure, then waits for a fix or rethrows the block's error unchanged. */
  #failed(ctx: CallContext, entry: unknown[] | null, error: unknown, mayWait: boolean): unknown {
    const wait = mayWait && this.#o.waitForFix > 0 && !this.#closed && this.#executor !== null && this.#o.publicKey !== undefined;
    let ack: Promise<FailureAck | null> | null = null;
    try {
      // The state to report (and to run a patch on): on entry, or as the failed call left it.
      const state = entry ?? copyArgs(ctx.self === undefined ? ctx.args : [ctx.self, ...ctx.args]);
      ack = this.#report(ctx, state, error, undefined, wait);
      if (wait && ack) return this.#waitForFix(ctx, state, error, ack, Date.now() + this.#o.waitForFix);
    } catch (err) {
      this.#error(new SdkError('DELIVERY_FAILED', `could not report a failure of ${ctx.id}`, { cause: err }));
    }
    throw error;
  }

  /** Queues a failure report; with `withAck` resolves with the daemon's acknowledgement (or null). */
  #report(ctx: CallContext, state: unknown[], error: unknown, patchId?: string, withAck = false): Promise<FailureAck | null> | null {
    if (this.#closed) return null;
    const withThis = ctx.self !== undefined;
    const args = withThis ? state.slice(1) : state;
    const e = describeError(error);
    let report: FailureReport = {
      requestId: randomUUID(),
      app: this.#o.app,
      instanceId: this.#o.instanceId,
      block: { id: ctx.id, description: ctx.description, source: this.#hashes.of(ctx.fn).source },
      error: e,
      args: this.#encoder.encodeEach(args),
      at: new Date().toISOString(),
    };
    if (patchId !== undefined) report.patchId = patchId;
    if (this.#o.redactHook) {
      try {
        const out = this.#o.redactHook({ kind: 'failure', report });
        if (!out) return null;
        report = out as FailureReport;
      } catch (err) {
        this.#error(new SdkError('DELIVERY_FAILED', 'redact hook threw; report dropped', { cause: err }));
        return null;
      }
    }
    this.#emit('failure', { blockId: ctx.id, requestId: report.requestId, error, ...(patchId !== undefined ? { patchId } : {}) });
    if (!withAck) {
      this.#failures.push({ report });
      return null;
    }
    const acked = new Promise<FailureAck | null>((resolve) => this.#failures.push({ report, ack: resolve }));
    void this.#failures.flush();
    return acked;
  }

  async #waitForFix(ctx: CallContext, state: unknown[], error: unknown, ack: Promise<FailureAck | null>, deadline: number): Promise<unknown> {
    try {
      const a = await beforeDeadline(ack, deadline);
      if (!a) throw error;
      const hash = this.#hashes.of(ctx.fn).hash;
      let patch: ManifestPatch | null = null;
      while (!patch && Date.now() < deadline - 5) {
        const left = deadline - Date.now();
        const started = Date.now();
        let res;
        try {
          res = await this.#http.request('GET', `/v1/failures/${encodeURIComponent(a.fingerprint)}/patch?wait=${Math.round(left)}`, {
            timeoutMs: left + 50,
          });
        } catch {
          break; // timeout or network: the deadline is (nearly) up or the daemon is gone
        }
        if (res.status === 200) {
          patch = parsePatch(res.body);
          if (!patch) throw new SdkError('MANIFEST_INVALID', 'daemon sent a patch that is not valid');
        } else if (!NOT_YET.has(res.status)) {
          break;
        } else if (Date.now() - started < 50) {
          await sleep(Math.min(250, deadline - Date.now())); // a daemon that answers at once: don't spin
        }
      }
      if (!patch) throw error;
      if (patch.app !== this.#o.app || patch.blockId !== ctx.id || patch.sourceHash !== hash || !RUNNABLE.has(patch.status)) throw error;
      if (!this.#verify(patch)) throw error;
      const executor = this.#executor as PatchExecutor;
      const target = [ctx.self, ...ctx.args];
      const input = ctx.self === undefined ? [undefined, ...state] : state;
      const run = ctx.fn instanceof AsyncFunction ? await executor.runAsync(patch, target, input) : executor.runSync(patch, target, input);
      if (!run.ok) {
        this.#count(patch.id, 'threw');
        this.#report(ctx, state, run.error, patch.id);
        throw error;
      }
      this.#count(patch.id, 'passed');
      this.#emit('patched', { blockId: ctx.id, patchId: patch.id, version: patch.version, via: 'wait' });
      return run.value;
    } catch (err) {
      if (err !== error) this.#error(err instanceof SdkError ? err : new SdkError('PATCH_FAILED', 'waiting for a fix failed', { cause: err }));
      throw error;
    }
  }

  /**
   * Recorded calls of a block go out before its failure reports: a report queues a repair job at
   * once, and the job reads the block's recorded calls when it starts. A report whose block still
   * has undelivered calls (the daemon refused them for now) waits with them.
   */
  async #sendFailures(items: PendingFailure[]): Promise<PendingFailure[]> {
    const retry: PendingFailure[] = [];
    let ready = items;
    if (this.#calls.size > 0 || this.#calls.some(() => true)) {
      await this.#calls.flush();
      ready = [];
      for (const item of items) {
        const id = item.report.block.id;
        if (this.#calls.some((c) => c.blockId === id)) retry.push(item);
        else ready.push(item);
      }
    }
    for (let i = 0; i < ready.length; i += FAILURE_SEND_CONCURRENCY) {
      await Promise.all(
        ready.slice(i, i + FAILURE_SEND_CONCURRENCY).map(async (item) => {
          let res;
          try {
            res = await this.#http.request('POST', '/v1/failures', { body: item.report });
          } catch (err) {
            retry.push(item);
            this.#error(new SdkError('DELIVERY_FAILED', `failure report not delivered: ${(err as Error).message}`, { cause: err }));
            return;
          }
          if (res.status >= 200 && res.status < 300) {
            const b = res.body as Partial<FailureAck> | undefined;
            item.ack?.(b && typeof b.fingerprint === 'string' ? { fingerprint: b.fingerprint, jobId: String(b.jobId ?? '') } : null);
          } else if (isRetryableStatus(res.status)) {
            retry.push(item);
            this.#error(new SdkError('DELIVERY_FAILED', `failure report not delivered: HTTP ${res.status}`));
          } else {
            item.ack?.(null);
            this.#error(new SdkError('DELIVERY_REJECTED', `daemon refused a failure report: HTTP ${res.status}`));
          }
        }),
      );
    }
    return retry;
  }

  async #sendCalls(items: PendingCall[]): Promise<PendingCall[]> {
    const blocks = new Map<string, RecordedCasesBatch['blocks'][number]>();
    for (const it of items) {
      let call: RecordedCall = {
        args: it.encoded ?? this.#encoder.encodeEach(it.entry),
        result: this.#encoder.encode(it.result),
        argsAfter: this.#encoder.encodeEach(it.after),
        at: it.at,
      };
      if (this.#o.redactHook) {
        try {
          const out = this.#o.redactHook({ kind: 'recorded', blockId: it.blockId, call });
          if (!out) continue;
          call = out as RecordedCall;
        } catch (err) {
          this.#error(new SdkError('DELIVERY_FAILED', 'redact hook threw; recorded call dropped', { cause: err }));
          continue;
        }
      }
      const key = `${it.blockId}\0${it.source}`;
      let b = blocks.get(key);
      if (!b) blocks.set(key, (b = { id: it.blockId, description: it.description, source: it.source, calls: [] }));
      b.calls.push(call);
    }
    if (blocks.size === 0) return [];
    const batch: RecordedCasesBatch = { requestId: randomUUID(), app: this.#o.app, instanceId: this.#o.instanceId, blocks: [...blocks.values()] };
    let res;
    try {
      res = await this.#http.request('POST', '/v1/cases', { body: batch });
    } catch (err) {
      this.#error(new SdkError('DELIVERY_FAILED', `recorded calls not delivered: ${(err as Error).message}`, { cause: err }));
      return items;
    }
    if (res.status >= 200 && res.status < 300) return [];
    if (isRetryableStatus(res.status)) {
      this.#error(new SdkError('DELIVERY_FAILED', `recorded calls not delivered: HTTP ${res.status}`));
      return items;
    }
    this.#error(new SdkError('DELIVERY_REJECTED', `daemon refused recorded calls: HTTP ${res.status}`));
    return [];
  }

  // ---- outcomes ----

  #count(patchId: string, what: 'passed' | 'threw'): void {
    this.#outcomes.add(patchId, { [what]: 1 });
    this.#scheduleOutcomes();
  }

  #scheduleOutcomes(delay = this.#o.flushInterval): void {
    if (this.#outcomeTimer || this.#closed) return;
    this.#outcomeTimer = setTimeout(() => {
      this.#outcomeTimer = null;
      void this.#sendOutcomes();
    }, delay);
    this.#outcomeTimer.unref();
  }

  async #sendOutcomes(): Promise<void> {
    if (this.#outcomes.size === 0) return;
    const outcomes = this.#outcomes.take();
    const report: OutcomeReport = { requestId: randomUUID(), app: this.#o.app, instanceId: this.#o.instanceId, outcomes };
    let ok = false;
    try {
      const res = await this.#http.request('POST', '/v1/outcomes', { body: report });
      ok = (res.status >= 200 && res.status < 300) || !isRetryableStatus(res.status);
      if (!ok) this.#error(new SdkError('DELIVERY_FAILED', `outcome counts not delivered: HTTP ${res.status}`));
    } catch (err) {
      this.#error(new SdkError('DELIVERY_FAILED', `outcome counts not delivered: ${(err as Error).message}`, { cause: err }));
    }
    if (!ok) {
      // Put the counts back (after Unleash's metrics buckets) so the next send carries them.
      this.#outcomes.restore(outcomes);
      this.#scheduleOutcomes(Math.min(this.#o.maxBackoff, this.#o.flushInterval * 4));
    }
  }

  // ---- manifest ----

  #verify(patch: ManifestPatch): boolean {
    const key = `${patch.id}\0${patch.version}\0${patch.signature}\0${patch.sourceHash}\0${patch.source.length}`;
    let ok = this.#verified.get(key);
    if (ok === undefined) {
      ok = this.#o.publicKey !== undefined && verifyPatchSignature(patch, this.#o.publicKey);
      this.#verified.set(key, ok);
      if (!ok && this.#o.publicKey !== undefined) {
        this.#error(new SdkError('PATCH_SIGNATURE_INVALID', `patch ${patch.id} (block ${patch.blockId}) does not verify with the configured public key; refused`, { patchId: patch.id }));
      }
    }
    return ok;
  }

  /** A patch replaces its block only with the operator's signed grant; a `replace` without one runs in fallback mode. */
  #grantsReplace(p: ManifestPatch): boolean {
    if (p.mode !== 'replace') return false;
    const key = `grant\0${p.id}\0${p.version}\0${p.modeSignature ?? ''}`;
    let ok = this.#verified.get(key);
    if (ok === undefined) {
      ok = replaceGranted(p, this.#o.publicKey as NonNullable<ResolvedOptions['publicKey']>);
      this.#verified.set(key, ok);
      if (!ok) this.#error(new SdkError('PATCH_SIGNATURE_INVALID', `patch ${p.id} (block ${p.blockId}) says mode 'replace' without a grant that verifies; it runs in fallback mode`, { patchId: p.id }));
    }
    return ok;
  }

  #applyManifest(m: Manifest): void {
    if (!this.#o.publicKey) {
      if (m.patches.length > 0 && !this.#warnedNoKey) {
        this.#warnedNoKey = true;
        this.#error(new SdkError('PATCH_SIGNATURE_INVALID', 'no publicKey configured: patches are never run'));
      }
      return;
    }
    if (!this.#executor) return;
    this.#manifest = m;
    // Per (block, source hash): the newest runnable, verified patch whose rollout includes this
    // instance and that has not disagreed with the block here.
    const candidates = m.patches
      .filter((p) => p.app === this.#o.app && RUNNABLE.has(p.status))
      .sort((a, b) => b.version - a.version);
    const next = new Map<string, BlockPatches>();
    const decided = new Set<string>();
    const replacing = new Set<string>();
    for (const p of candidates) {
      const key = `${p.blockId}\0${p.sourceHash}`;
      if (decided.has(key) || this.#quarantined.has(p.id)) continue;
      if (!inRolloutShare(this.#o.instanceId, p.id, p.rollout)) continue;
      if (!this.#verify(p)) continue;
      decided.add(key);
      if (this.#grantsReplace(p)) replacing.add(p.id);
      let b = next.get(p.blockId);
      if (!b) next.set(p.blockId, (b = { byHash: new Map(), lastFn: null, lastPatch: undefined }));
      b.byHash.set(p.sourceHash, p);
    }
    const keep = new Set<string>();
    for (const b of next.values()) for (const p of b.byHash.values()) keep.add(p.id);
    this.#executor.release(keep);
    this.#shadow.release(keep);
    this.#replacing = replacing;
    this.#patches = next;
    this.#anyPatches = next.size > 0;
  }

  // ---- events ----

  #emit<E extends keyof RepairClientEvents>(event: E, ...args: RepairClientEvents[E]): void {
    if (this.#constructing) {
      process.nextTick(() => this.#emit(event, ...args));
      return;
    }
    if (event === 'error' && this.#events.listenerCount('error') === 0) return; // never an unhandled 'error' throw
    try {
      (this.#events.emit as (e: string, ...a: unknown[]) => boolean).call(this.#events, event, ...args);
    } catch {
      // A listener threw; it must not reach the block's caller.
    }
  }

  #error(err: SdkError): void {
    this.#emit('error', err);
  }
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

function restOf(all: IArguments, from: number): unknown[] {
  return Array.prototype.slice.call(all, from) as unknown[];
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

function describeError(error: unknown): { name: string; message: string; stack?: string } {
  try {
    if (error instanceof Error) {
      return { name: String(error.name), message: String(error.message), ...(typeof error.stack === 'string' ? { stack: error.stack } : {}) };
    }
    return { name: typeof error, message: String(error) };
  } catch {
    return { name: 'Error', message: '<unreadable error>' };
  }
}

function shortError(error: unknown): { name: string; message: string } {
  const e = describeError(error);
  return { name: e.name.slice(0, 200), message: e.message.slice(0, 2000) };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());
}

async function beforeDeadline<T>(p: Promise<T | null>, deadline: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Creates a client: validates options (throws RepairConfigError for bad ones), loads the backup manifest, starts syncing. */
export function createRepairClient(options: RepairClientOptions): RepairClient {
  return new RepairClient(options);
}
