import type { RepairScheduler } from './repair-scheduler.ts';
import { repairJobId, type RepairJobData } from '../service/repair-queue.ts';
import type { FailureRecord, ServiceStore, StoredFailure } from '../service/store/service-store.ts';

export interface FailureIngestBatcherOptions {
  /** Most reports stored in one round trip; a full batch is written at once. @defaultValue 512 */
  maxBatch?: number;
  /** Called once per written batch with the reports it stored (for counters kept per batch). */
  onStored?: (stored: { record: FailureRecord; result: StoredFailure }[]) => void;
}

export interface IngestedFailure extends StoredFailure {
  jobId: string;
}

interface Pending {
  record: FailureRecord;
  resolve: (r: IngestedFailure) => void;
  reject: (e: Error) => void;
}

/**
 * Group commit of failure reports: the reports that arrive within one turn of the event loop are
 * stored with one pipelined Redis round trip, and the repair jobs they need with one addBulk.
 * Each report's promise settles only after its own write (and its job add, when it needs one), so
 * nothing is acknowledged before it is stored; an error fails exactly the reports it concerns.
 * Under light load a batch is one report and the added latency is one setImmediate.
 */
export class FailureIngestBatcher {
  readonly #maxBatch: number;
  readonly #onStored: FailureIngestBatcherOptions['onStored'];
  readonly #jobKeyPrefix: string;
  #pending: Pending[] = [];
  #scheduled = false;

  constructor(
    readonly store: ServiceStore,
    readonly scheduler: RepairScheduler,
    options: FailureIngestBatcherOptions = {},
  ) {
    this.#maxBatch = options.maxBatch ?? 512;
    this.#onStored = options.onStored;
    // BullMQ's key of a job is `<prefix>:<queue>:<jobId>`; the ingest script checks it exists.
    this.#jobKeyPrefix = scheduler.queue.toKey('');
  }

  submit(record: FailureRecord): Promise<IngestedFailure> {
    return new Promise<IngestedFailure>((resolve, reject) => {
      this.#pending.push({ record, resolve, reject });
      if (this.#pending.length >= this.#maxBatch) this.#flush();
      else if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    const batch = this.#pending;
    if (batch.length === 0) return;
    this.#pending = [];
    void this.#write(batch);
  }

  async #write(batch: Pending[]): Promise<void> {
    let results: (StoredFailure | Error)[];
    try {
      results = await this.store.ingestFailures(batch.map((p) => p.record), this.#jobKeyPrefix);
    } catch (error) {
      for (const p of batch) p.reject(error as Error);
      return;
    }
    // Add (idempotently) until a worker has taken the bug and while BullMQ lacks the job; also
    // for a repeated request id, so a client retrying after a failed add still gets its job.
    const needJob: number[] = [];
    const stored: { record: FailureRecord; result: StoredFailure }[] = [];
    results.forEach((r, i) => {
      if (r instanceof Error) return;
      stored.push({ record: batch[i].record, result: r });
      if ((r.status === 'new' || r.status === 'requeue') && !r.jobExists) needJob.push(i);
    });
    let addError: Error | null = null;
    if (needJob.length > 0) {
      const rounds: RepairJobData[] = needJob.map((i) => ({ fingerprint: batch[i].record.fingerprint, app: batch[i].record.app, round: (results[i] as StoredFailure).round }));
      try {
        await this.scheduler.scheduleMany(rounds);
      } catch (error) {
        addError = error as Error;
      }
    }
    if (stored.length > 0) this.#onStored?.(stored);
    const failedAdd = new Set(addError ? needJob : []);
    batch.forEach((p, i) => {
      const r = results[i];
      if (r instanceof Error) p.reject(r);
      else if (failedAdd.has(i)) p.reject(addError as Error);
      else p.resolve({ ...r, jobId: repairJobId(p.record.fingerprint, r.round) });
    });
  }
}
