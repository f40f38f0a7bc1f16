import { SourceHashCache } from '../core/source-hash.ts';
import { blockWorld, checkBlockOptions, WorldCompiler, type BlockOptions } from './block-world.ts';
import { CallPath } from './call-path.ts';
import type { CallContext } from './call-context.ts';
import { CallRecording } from './call-recording.ts';
import { ClientEvents, type RepairClientEvents } from './client-events.ts';
import { resolveOptions, type RepairClientOptions } from './client-options.ts';
import { DaemonHttp } from './daemon-http.ts';
import { createDebugLog, logClient } from './debug-log.ts';
import { EntryPolicy } from './entry-policy.ts';
import { choosePatchExecutor } from './executor-choice.ts';
import { FailureReports } from './failure-reports.ts';
import { OutcomeCounting } from './outcome-counting.ts';
import type { PatchExecutor } from './patch-executor.ts';
import { PatchTable } from './patch-table.ts';
import { RegistrySync } from './registry-sync.ts';
import { createSnapshotEncoder } from './snapshot-encoder.ts';

export type { PatchedEvent, FailureEvent, ShadowEvent, ShadowInconclusiveEvent, SyncEvent, RepairClientEvents } from './client-events.ts';
export type { BlockOptions } from './block-world.ts';

/**
 * What `run` gives back: an async block's promise (of its value), or a sync block's value —
 * except when a sync block fails and `waitForFix` is on, where the wait makes it a promise.
 * `await` works for all of them.
 */
export type RunResult<R> = R extends PromiseLike<infer U> ? Promise<U> : R | Promise<R>;

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

/**
 * The application-side client. See sdk/index.ts and the README section "The SDK".
 *
 * This class is the public face and the wiring; each concern has its module: the call path
 * (call-path.ts), recorded calls (call-recording.ts), failure reports and the wait for a fix
 * (failure-reports.ts), outcome counts and shadow runs (outcome-counting.ts), the applied
 * manifest (patch-table.ts) and its sync with the daemon (registry-sync.ts).
 */
export class RepairClient {
  readonly #events = new ClientEvents();
  readonly #path: CallPath;
  readonly #recording: CallRecording;
  readonly #failures: FailureReports;
  readonly #outcomes: OutcomeCounting;
  readonly #table: PatchTable;
  readonly #sync: RegistrySync;
  readonly #executor: PatchExecutor | null = null;
  readonly #hashes: SourceHashCache;
  readonly #compiler = new WorldCompiler();
  #closed = false;

  constructor(options: RepairClientOptions = {}) {
    const o = resolveOptions(options);
    const events = this.#events;
    const http = new DaemonHttp(o.url, o.token, o.requestTimeout);
    const encoder = createSnapshotEncoder(o.redactKeys);
    const hashes = (this.#hashes = new SourceHashCache());
    const debug = createDebugLog(o.debug);
    if (o.debug) logClient(o, events, debug);
    this.#executor = choosePatchExecutor(o, encoder, events, debug);
    const executor = this.#executor;
    const table = new PatchTable({
      options: o,
      events,
      hashes,
      executor,
      release: (keep) => {
        executor?.release(keep);
        outcomes.release(keep);
      },
    });
    const outcomes = new OutcomeCounting({ options: o, events, http, encoder, executor, onDisagreement: (patchId) => table.quarantine(patchId) });
    const recording = new CallRecording({ options: o, events, http, encoder, hashes });
    const entry = new EntryPolicy(o.snapshot, (fn) => hashes.of(fn).source);
    const failures = new FailureReports({ options: o, events, http, encoder, hashes, executor, recording, table, outcomes, entry });
    this.#table = table;
    this.#outcomes = outcomes;
    this.#recording = recording;
    this.#failures = failures;
    this.#path = new CallPath({ sampleRate: o.sampleRate, entry, table, recording, failures, outcomes, executor, events });
    this.#sync = new RegistrySync(http, {
      app: o.app,
      mode: o.sync,
      pollInterval: o.pollInterval,
      maxBackoff: o.maxBackoff,
      backupFile: o.backupFile,
      streamPath: '/v1/manifest/stream',
      onManifest: (m, from) => {
        table.apply(m);
        if (from === 'backup') events.emit('sync', { revision: m.revision, changed: true, via: 'backup', patchedBlocks: table.blocks.size });
      },
      onSync: (info) => events.emit('sync', { ...info, patchedBlocks: table.blocks.size }),
      onError: (err) => events.error(err),
    });
    this.#sync.start();
    events.constructed();
  }

  /**
   * Runs `fn(...args)` as block `id`; see {@link RunResult}. Never throws its own errors: only the
   * block's. The options form names what the block reads from outside:
   * `run({ id, description, uses: { RATES, db } }, fn, ...args)` (see {@link BlockOptions}).
   */
  run<A extends unknown[], R>(id: string, description: string, fn: (...args: A) => R, ...args: A): RunResult<R>;
  run<A extends unknown[], R>(block: BlockOptions, fn: (...args: A) => R, ...args: A): RunResult<R>;
  // Fixed parameters instead of a rest array: up to four arguments cross without an array being
  // allocated on the success path (more take the general route through `arguments`).
  run(id: string | BlockOptions, description: string | Function, fn?: unknown, a0?: unknown, a1?: unknown, a2?: unknown, a3?: unknown): unknown {
    if (typeof id !== 'string') return this.#path.callWorld(this.#context(id, description as Function, id.receiver, restOf(arguments, 2), 'run'));
    const n = arguments.length - 3;
    return this.#path.invoke(id, description as string, fn as Function, undefined, n, a0, a1, a2, a3, n > 4 ? restOf(arguments, 3) : null);
  }

  /**
   * `run` bound to a block: returns a function with `fn`'s parameters (and `this`: the call's own,
   * or in the options form `receiver` when given).
   */
  wrap<A extends unknown[], R, T = unknown>(id: string, description: string, fn: (this: T, ...args: A) => R): (this: T, ...args: A) => RunResult<R>;
  wrap<A extends unknown[], R, T = unknown>(block: BlockOptions, fn: (this: T, ...args: A) => R): (this: T, ...args: A) => RunResult<R>;
  wrap<A extends unknown[], R, T = unknown>(id: string | BlockOptions, description: string | Function, fn?: (this: T, ...args: A) => R): (this: T, ...args: A) => RunResult<R> {
    const path = this.#path;
    if (typeof id !== 'string') {
      checkBlockOptions(id, 'wrap');
      const block = id;
      const body = description as Function;
      if (typeof body !== 'function') throw new TypeError(`suture wrap: block '${block.id}' needs a function`);
      const client = this;
      const fixed = Object.hasOwn(block, 'receiver');
      return function wrapped(this: T, ...args: A): RunResult<R> {
        return path.callWorld(client.#context(block, body, fixed ? block.receiver : this, args, null)) as RunResult<R>;
      };
    }
    const name = description as string;
    const body = fn as Function;
    return function wrapped(this: T, a0?: unknown, a1?: unknown, a2?: unknown, a3?: unknown): RunResult<R> {
      const n = arguments.length;
      return path.invoke(id, name, body, this, n, a0, a1, a2, a3, n > 4 ? restOf(arguments, 0) : null) as RunResult<R>;
    } as unknown as (this: T, ...args: A) => RunResult<R>;
  }

  /** A call of an options-form block. `check`: where to name in errors when the options are still unchecked. */
  #context(block: BlockOptions, fn: Function, self: unknown, args: unknown[], check: string | null): CallContext {
    if (check !== null) {
      checkBlockOptions(block, check);
      if (typeof fn !== 'function') throw new TypeError(`suture ${check}: block '${block.id}' needs a function`);
    }
    const ctx: CallContext = { id: block.id, description: block.description, fn, self, args };
    if (block.uses !== undefined) ctx.world = blockWorld(this.#compiler, fn, () => this.#hashes.of(fn).source, block.uses);
    return ctx;
  }

  /** Runs `fn` with `self` as `this` (the Pause adapter's `scope`). */
  runWithThis<A extends unknown[], R>(id: string, description: string, fn: (...args: A) => R, self: unknown, args: A): RunResult<R> {
    return this.#path.call(id, description, fn, self, args) as RunResult<R>;
  }

  on<E extends keyof RepairClientEvents>(event: E, listener: (...args: RepairClientEvents[E]) => void): this {
    this.#events.emitter.on(event, listener as never);
    return this;
  }

  off<E extends keyof RepairClientEvents>(event: E, listener: (...args: RepairClientEvents[E]) => void): this {
    this.#events.emitter.off(event, listener as never);
    return this;
  }

  once<E extends keyof RepairClientEvents>(event: E, listener: (...args: RepairClientEvents[E]) => void): this {
    this.#events.emitter.once(event, listener as never);
    return this;
  }

  /** Sends queued reports, recorded calls and outcome counts now. Never rejects. */
  async flush(): Promise<void> {
    await Promise.all([this.#failures.queue.flush(), this.#recording.queue.flush(), this.#outcomes.send()]).catch(() => undefined);
  }

  /** Stops syncing, flushes everything once more and frees the isolate. Blocks keep working (directly) afterwards. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#sync.stop();
    await Promise.all([this.#failures.close(), this.#recording.close(), this.#outcomes.close()]).catch(() => undefined);
    await this.#sync.settled();
    this.#executor?.dispose();
    this.#table.clear();
  }

  stats(): RepairClientStats {
    const failures = this.#failures.queue;
    const calls = this.#recording.queue;
    return {
      failuresQueued: failures.size,
      failuresDelivered: failures.delivered,
      failuresDropped: failures.dropped,
      callsQueued: calls.size,
      callsDelivered: calls.delivered,
      callsDropped: calls.dropped,
      manifestRevision: this.#sync.revision,
    };
  }
}

function restOf(all: IArguments, from: number): unknown[] {
  return Array.prototype.slice.call(all, from) as unknown[];
}

/**
 * Creates a client: validates options (throws RepairConfigError for bad or missing ones), loads the
 * backup manifest, starts syncing. Options left out come from the environment: SUTURE_URL,
 * SUTURE_APP, SUTURE_TOKEN, SUTURE_PUBLIC_KEY or SUTURE_PUBLIC_KEY_FILE, SUTURE_DEBUG.
 */
export function createRepairClient(options: RepairClientOptions = {}): RepairClient {
  return new RepairClient(options);
}
