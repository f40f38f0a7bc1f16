import { randomUUID } from 'node:crypto';
import type { SourceHashCache } from '../core/source-hash.ts';
import type { RecordedCall, RecordedCasesBatch } from '../core/wire.ts';
import type { CallContext } from './call-context.ts';
import { encodePendingWorld, pendingWorld, redactCall, type PendingWorld } from './call-world.ts';
import type { ClientEvents } from './client-events.ts';
import type { ResolvedOptions } from './client-options.ts';
import { isRetryableStatus, type DaemonHttp } from './daemon-http.ts';
import { DeliveryQueue } from './delivery-queue.ts';
import { copyArgs } from './entry-copy.ts';
import { FirstCalls } from './first-calls.ts';
import { SdkError } from './sdk-errors.ts';
import type { SnapshotEncoder } from './snapshot-encoder.ts';

interface PendingCall {
  blockId: string;
  description: string;
  source: string;
  entry: unknown[];
  result: unknown;
  after: unknown[];
  at: string;
  /** The call's `uses`, calls and receiver, copied when it returned. */
  world?: PendingWorld;
}

/**
 * Recorded calls: sampled successful calls and the known-good first distinct calls of each block
 * (see FirstCalls), queued on the call and encoded and sent to `/v1/cases` in the background.
 */
export class CallRecording {
  readonly #o: ResolvedOptions;
  readonly #events: ClientEvents;
  readonly #http: DaemonHttp;
  readonly #encoder: SnapshotEncoder;
  readonly #hashes: SourceHashCache;
  /** Known-good first calls; the call path asks it directly on the success path. */
  readonly first: FirstCalls;
  readonly queue: DeliveryQueue<PendingCall>;
  #closed = false;

  constructor(o: { options: ResolvedOptions; events: ClientEvents; http: DaemonHttp; encoder: SnapshotEncoder; hashes: SourceHashCache }) {
    this.#o = o.options;
    this.#events = o.events;
    this.#http = o.http;
    this.#encoder = o.encoder;
    this.#hashes = o.hashes;
    this.first = new FirstCalls(o.options.recordFirst);
    this.queue = new DeliveryQueue<PendingCall>({
      max: o.options.maxQueuedCalls,
      batchSize: 200,
      flushInterval: o.options.flushInterval,
      maxBackoff: o.options.maxBackoff,
      send: (items) => this.#send(items),
    });
  }

  /** Whether the block has calls not yet delivered (its failure reports wait for them). */
  pendingFor(blockId: string): boolean {
    return this.queue.some((c) => c.blockId === blockId);
  }

  /** Queues a successful call: always when sampled, else when its inputs are new among the block's first calls. */
  record(ctx: CallContext, entry: unknown[], result: unknown, sampled: boolean): void {
    if (this.#closed) return;
    try {
      const off = ctx.self === undefined ? 0 : 1;
      const args = off ? entry.slice(1) : entry;
      if (this.first.wants(ctx.id)) {
        // Told apart by the real values (see FirstCalls); what is sent is encoded, redacted, later.
        if (!this.first.admit(ctx.id, args.map((a) => this.#encoder.exact.encode(a))) && !sampled) return;
      } else if (!sampled) return;
      const world = pendingWorld(ctx, off ? entry[0] : undefined);
      this.queue.push({
        ...(world ? { world } : {}),
        blockId: ctx.id,
        description: ctx.description,
        source: this.#hashes.of(ctx.fn).source,
        entry: args,
        result: copyArgs([result])[0],
        after: copyArgs(ctx.args),
        at: new Date().toISOString(),
      });
    } catch (err) {
      this.#events.error(new SdkError('SUTURE_DELIVERY_FAILED', `could not record a call of ${ctx.id}`, { cause: err }));
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.queue.close();
  }

  async #send(items: PendingCall[]): Promise<PendingCall[]> {
    const blocks = new Map<string, RecordedCasesBatch['blocks'][number]>();
    for (const it of items) {
      const r = this.#encoder.report();
      let call: RecordedCall = {
        args: r.encodeEach(it.entry),
        result: r.encode(it.result),
        argsAfter: r.encodeEach(it.after),
        at: it.at,
      };
      if (it.world) call.world = encodePendingWorld(r, it.world);
      redactCall(r, call);
      if (this.#o.redactHook) {
        try {
          const out = this.#o.redactHook({ kind: 'recorded', blockId: it.blockId, call });
          if (!out) continue;
          call = out as RecordedCall;
        } catch (err) {
          this.#events.error(new SdkError('SUTURE_DELIVERY_FAILED', 'redact hook threw; recorded call dropped', { cause: err }));
          continue;
        }
      }
      const key = `${it.blockId}\0${it.source}\0${it.world?.names.join(',') ?? ''}`;
      let b = blocks.get(key);
      if (!b) blocks.set(key, (b = { id: it.blockId, description: it.description, source: it.source, ...(it.world && it.world.names.length > 0 ? { uses: it.world.names } : {}), calls: [] }));
      b.calls.push(call);
    }
    if (blocks.size === 0) return [];
    const batch: RecordedCasesBatch = { requestId: randomUUID(), app: this.#o.app, instanceId: this.#o.instanceId, blocks: [...blocks.values()] };
    let res;
    try {
      res = await this.#http.request('POST', '/v1/cases', { body: batch });
    } catch (err) {
      this.#events.error(new SdkError('SUTURE_DELIVERY_FAILED', `recorded calls not delivered: ${(err as Error).message}`, { cause: err }));
      return items;
    }
    if (res.status >= 200 && res.status < 300) return [];
    if (isRetryableStatus(res.status)) {
      this.#events.error(new SdkError('SUTURE_DELIVERY_FAILED', `recorded calls not delivered: HTTP ${res.status}`));
      return items;
    }
    this.#events.error(new SdkError('SUTURE_DELIVERY_REJECTED', `daemon refused recorded calls: HTTP ${res.status}`));
    return [];
  }
}
