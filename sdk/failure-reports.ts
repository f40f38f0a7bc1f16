import { randomUUID } from 'node:crypto';
import type { SourceHashCache } from '../core/source-hash.ts';
import type { FailureAck, FailureReport, ManifestPatch } from '../core/wire.ts';
import { cannotSeeMessage, unknownFreeNames } from '../core/block-free-names.ts';
import type { CallContext } from './call-context.ts';
import { redactWorld } from './block-world.ts';
import { failureWorld } from './call-world.ts';
import { patchWorld } from './live-world.ts';
import type { CallRecording } from './call-recording.ts';
import type { ClientEvents } from './client-events.ts';
import type { ResolvedOptions } from './client-options.ts';
import { isRetryableStatus, type DaemonHttp } from './daemon-http.ts';
import { DeliveryQueue } from './delivery-queue.ts';
import { copyState } from './entry-copy.ts';
import type { EntryPolicy } from './entry-policy.ts';
import { describeError } from './error-description.ts';
import { parsePatch } from './manifest-shape.ts';
import type { OutcomeCounting } from './outcome-counting.ts';
import type { PatchExecutor } from './patch-executor.ts';
import type { PatchTable } from './patch-table.ts';
import { SdkError } from './sdk-errors.ts';
import type { SnapshotEncoder } from './snapshot-encoder.ts';

interface PendingFailure {
  report: FailureReport;
  ack?: (a: FailureAck | null) => void;
}

const AsyncFunction = (async () => undefined).constructor;
const FAILURE_SEND_CONCURRENCY = 8;
/** Long-poll answers that mean "no fix yet": poll again while the deadline allows. */
const NOT_YET = new Set([204, 404, 408, 425]);

/**
 * Failure reports to `/v1/failures` and, with `waitForFix`, the wait for a fix: the failing call
 * waits for the daemon's acknowledgement, long-polls for the fingerprint's patch until the
 * deadline and, when one arrives that verifies, answers with it.
 */
export class FailureReports {
  readonly #o: ResolvedOptions;
  readonly #events: ClientEvents;
  readonly #http: DaemonHttp;
  readonly #encoder: SnapshotEncoder;
  readonly #hashes: SourceHashCache;
  readonly #executor: PatchExecutor | null;
  readonly #recording: CallRecording;
  readonly #table: PatchTable;
  readonly #outcomes: OutcomeCounting;
  readonly #entry: EntryPolicy;
  readonly queue: DeliveryQueue<PendingFailure>;
  /** Blocks (id, uses, source) whose outside names were checked. */
  readonly #seenChecked = new Set<string>();
  #closed = false;

  constructor(o: {
    options: ResolvedOptions;
    events: ClientEvents;
    http: DaemonHttp;
    encoder: SnapshotEncoder;
    hashes: SourceHashCache;
    executor: PatchExecutor | null;
    recording: CallRecording;
    table: PatchTable;
    outcomes: OutcomeCounting;
    entry: EntryPolicy;
  }) {
    this.#o = o.options;
    this.#events = o.events;
    this.#http = o.http;
    this.#encoder = o.encoder;
    this.#hashes = o.hashes;
    this.#executor = o.executor;
    this.#recording = o.recording;
    this.#table = o.table;
    this.#outcomes = o.outcomes;
    this.#entry = o.entry;
    this.queue = new DeliveryQueue<PendingFailure>({
      max: o.options.maxQueuedFailures,
      batchSize: 50,
      flushInterval: Math.min(o.options.flushInterval, 500), // failures are rare and a job waits on them
      maxBackoff: o.options.maxBackoff,
      send: (items) => this.#send(items),
      onDrop: (item, why) => {
        item.ack?.(null);
        if (why === 'overflow') this.#events.error(new SdkError('SUTURE_QUEUE_OVERFLOW', 'failure report queue full: oldest report dropped'));
      },
    });
  }

  /** Reports the failure, then waits for a fix or rethrows the block's error unchanged. */
  failed(ctx: CallContext, entry: unknown[] | null, error: unknown, mayWait: boolean): unknown {
    const wait = mayWait && this.#o.waitForFix > 0 && !this.#closed && this.#executor !== null && this.#o.publicKey !== undefined;
    let ack: Promise<FailureAck | null> | null = null;
    try {
      // The state to report (and to run a patch on): on entry, or as the failed call left it.
      const state = entry ?? copyState(ctx.self, ctx.args);
      ack = this.report(ctx, state, error, undefined, wait, this.#entry.failed(ctx.id, ctx.fn, entry !== null));
      if (wait && ack) return this.#waitForFix(ctx, state, error, ack, Date.now() + this.#o.waitForFix);
    } catch (err) {
      this.#events.error(new SdkError('SUTURE_DELIVERY_FAILED', `could not report a failure of ${ctx.id}`, { cause: err }));
    }
    throw error;
  }

  /**
   * Queues a failure report; with `withAck` resolves with the daemon's acknowledgement (or null).
   * `inputs` says whether `state` is the inputs on entry or as the failed call left them.
   */
  report(ctx: CallContext, state: unknown[], error: unknown, patchId?: string, withAck = false, inputs?: 'entry' | 'after-throw'): Promise<FailureAck | null> | null {
    if (this.#closed) return null;
    const withThis = ctx.self !== undefined;
    const args = withThis ? state.slice(1) : state;
    const r = this.#encoder.report();
    let report: FailureReport = {
      requestId: randomUUID(),
      app: this.#o.app,
      instanceId: this.#o.instanceId,
      block: { id: ctx.id, description: ctx.description, source: this.#hashes.of(ctx.fn).source },
      error: describeError(error),
      args: r.encodeEach(args),
      at: new Date().toISOString(),
    };
    if (patchId !== undefined) report.patchId = patchId;
    if (inputs !== undefined) report.inputs = inputs;
    if (ctx.world !== undefined) report.block.uses = ctx.world.names;
    const world = failureWorld(r, ctx, state);
    if (world !== undefined) report.world = world;
    // Copies of values redacted by key (a token in the error message, passed to a dependency...).
    report.args = r.redactEach(report.args);
    if (report.world !== undefined) redactWorld(r, report.world);
    const e = report.error;
    report.error = { ...e, name: r.redactText(e.name), message: r.redactText(e.message), ...(e.stack !== undefined ? { stack: r.redactText(e.stack) } : {}) };
    if (patchId === undefined) this.#checkSeen(ctx, report.block.source);
    if (this.#o.redactHook) {
      try {
        const out = this.#o.redactHook({ kind: 'failure', report });
        if (!out) return null;
        report = out as FailureReport;
      } catch (err) {
        this.#events.error(new SdkError('SUTURE_DELIVERY_FAILED', 'redact hook threw; report dropped', { cause: err }));
        return null;
      }
    }
    this.#events.emit('failure', { blockId: ctx.id, requestId: report.requestId, error, ...(patchId !== undefined ? { patchId } : {}) });
    if (!withAck) {
      this.queue.push({ report });
      return null;
    }
    const acked = new Promise<FailureAck | null>((resolve) => this.queue.push({ report, ack: resolve }));
    void this.queue.flush();
    return acked;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.queue.close();
  }

  /**
   * On a block's first failure: the outside names it reads that suture cannot see (neither standard
   * globals nor in its `uses`) make an `error` event, once per block and set of names. The daemon
   * refuses to search such a block.
   */
  #checkSeen(ctx: CallContext, source: string): void {
    const uses = ctx.world?.names ?? [];
    const key = `${ctx.id}\0${uses.join(',')}\0${source}`;
    if (this.#seenChecked.has(key)) return;
    if (this.#seenChecked.size >= 10_000) this.#seenChecked.clear();
    this.#seenChecked.add(key);
    let names: string[];
    try {
      names = ctx.world?.unknown ?? unknownFreeNames(source, uses);
    } catch {
      return; // a source that does not parse as a function: the daemon tells (cannot-see needs names)
    }
    if (names.length > 0) this.#events.error(new SdkError('SUTURE_CANNOT_SEE', cannotSeeMessage(ctx.id, names), { names }));
  }

  async #waitForFix(ctx: CallContext, state: unknown[], error: unknown, ack: Promise<FailureAck | null>, deadline: number): Promise<unknown> {
    try {
      const a = await beforeDeadline(ack, deadline);
      // Refused, or a block the daemon will not search (it reads names suture cannot see): no fix will come.
      if (!a || a.status === 'cannot-see') throw error;
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
        if (res.status === 200 && (res.body as { status?: unknown } | undefined)?.status === 'no-patch') {
          break; // the daemon knows none will come (no plausible candidate, refused, cannot see…)
        } else if (res.status === 200) {
          patch = parsePatch(res.body);
          if (!patch) throw new SdkError('SUTURE_MANIFEST_INVALID', 'daemon sent a patch that is not valid');
        } else if (!NOT_YET.has(res.status)) {
          break;
        } else if (Date.now() - started < 50) {
          await sleep(Math.min(250, deadline - Date.now())); // a daemon that answers at once: don't spin
        }
      }
      if (!patch) throw error;
      if (!this.#table.accepts(patch, ctx.id, hash)) throw error;
      const executor = this.#executor as PatchExecutor;
      const target = [ctx.self, ...ctx.args];
      const input = ctx.self === undefined ? [undefined, ...state] : state;
      // The block's calls before it threw are answered from its log, not made again (see live-world.ts).
      const world = ctx.world === undefined ? undefined : patchWorld({ ...ctx, world: ctx.world }, true);
      let run = ctx.fn instanceof AsyncFunction ? await executor.runAsync(patch, target, input, world) : executor.runSync(patch, target, input, world);
      if (run.ok && world?.replay?.contradicted) run = { ok: false, error: new Error(`suture: the patch ${world.replay.contradicted}; the block's own error stands`), reason: 'threw' };
      if (!run.ok && run.reason === 'unavailable') throw error; // not run here: nothing against the patch
      if (!run.ok) {
        this.#outcomes.count(patch.id, 'threw');
        this.report(ctx, state, run.error, patch.id);
        throw error;
      }
      this.#outcomes.count(patch.id, 'passed');
      this.#events.emit('patched', { blockId: ctx.id, patchId: patch.id, version: patch.version, via: 'wait' });
      return run.value;
    } catch (err) {
      if (err !== error) this.#events.error(err instanceof SdkError ? err : new SdkError('SUTURE_PATCH_FAILED', 'waiting for a fix failed', { cause: err }));
      throw error;
    }
  }

  /**
   * Recorded calls of a block go out before its failure reports: a report queues a repair job at
   * once, and the job reads the block's recorded calls when it starts. A report whose block still
   * has undelivered calls (the daemon refused them for now) waits with them.
   */
  async #send(items: PendingFailure[]): Promise<PendingFailure[]> {
    const retry: PendingFailure[] = [];
    let ready = items;
    const calls = this.#recording.queue;
    if (calls.size > 0 || calls.some(() => true)) {
      await calls.flush();
      ready = [];
      for (const item of items) {
        if (this.#recording.pendingFor(item.report.block.id)) retry.push(undelivered(item));
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
            retry.push(undelivered(item));
            this.#events.error(new SdkError('SUTURE_DELIVERY_FAILED', `failure report not delivered: ${(err as Error).message}`, { cause: err }));
            return;
          }
          if (res.status >= 200 && res.status < 300) {
            const b = res.body as Partial<FailureAck> | undefined;
            item.ack?.(b && typeof b.fingerprint === 'string' ? { fingerprint: b.fingerprint, jobId: String(b.jobId ?? ''), ...(typeof b.status === 'string' ? { status: b.status } : {}) } : null);
          } else if (isRetryableStatus(res.status)) {
            retry.push(undelivered(item));
            this.#events.error(new SdkError('SUTURE_DELIVERY_FAILED', `failure report not delivered: HTTP ${res.status}`));
          } else {
            item.ack?.(null);
            this.#events.error(new SdkError('SUTURE_DELIVERY_REJECTED', `daemon refused a failure report: HTTP ${res.status}`));
          }
        }),
      );
    }
    return retry;
  }
}

/**
 * A report that could not be delivered now stays queued for the next try, but a call held for its
 * fix (waitForFix) is not: no fix can come for a failure the daemon has not seen, so the held call
 * is answered "no acknowledgement" at once and rethrows its own error.
 */
function undelivered(item: PendingFailure): PendingFailure {
  item.ack?.(null);
  return { report: item.report };
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
