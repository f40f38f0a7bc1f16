import { CappedBackoff } from './capped-backoff.ts';

export interface DeliveryQueueOptions<T> {
  /** Most items held; pushing beyond drops the oldest (counted in `dropped`). */
  max: number;
  /** Most items handed to one `send`. */
  batchSize: number;
  /** Period of the background flush, ms. */
  flushInterval: number;
  /** Backoff cap after failed sends, ms. */
  maxBackoff: number;
  /**
   * Delivers a batch; resolves with the items to try again later (a network error or a 5xx).
   * Items it neither returns nor delivered are considered settled (delivered or refused for good).
   * Rejecting counts as "retry all".
   */
  send(items: T[]): Promise<T[]>;
  /** Called for each item dropped because the queue was full or it was retried past closing. */
  onDrop?(item: T, why: 'overflow' | 'closed'): void;
}

/**
 * A bounded in-memory queue that ships items in batches in the background and retries with
 * capped backoff. Never blocks or throws into the caller: `push` is O(1) and the oldest item is
 * dropped when full, since a fresh report is worth more than a stale one.
 */
export class DeliveryQueue<T> {
  readonly #o: DeliveryQueueOptions<T>;
  readonly #items: T[] = [];
  readonly #backoff: CappedBackoff;
  #timer: NodeJS.Timeout | null = null;
  #inFlight: Promise<void> | null = null;
  /** The batch `send` holds right now. */
  #sending: T[] = [];
  #retryAt = 0;
  #closed = false;
  dropped = 0;
  delivered = 0;

  constructor(o: DeliveryQueueOptions<T>) {
    this.#o = o;
    this.#backoff = new CappedBackoff(Math.min(1000, o.flushInterval), o.maxBackoff);
  }

  get size(): number {
    return this.#items.length;
  }

  /** Whether an undelivered item (queued, or in a batch being sent) matches. */
  some(match: (item: T) => boolean): boolean {
    return this.#items.some(match) || this.#sending.some(match);
  }

  push(item: T): void {
    if (this.#closed) {
      this.#o.onDrop?.(item, 'closed');
      return;
    }
    if (this.#items.length >= this.#o.max) {
      const old = this.#items.shift() as T;
      this.dropped++;
      this.#o.onDrop?.(old, 'overflow');
    }
    this.#items.push(item);
    this.#schedule(this.#o.flushInterval);
  }

  /** Sends everything now (ignoring backoff) unless a send is in flight, in which case it waits for it first. */
  async flush(): Promise<void> {
    while (this.#inFlight) await this.#inFlight;
    if (this.#items.length === 0) return;
    await this.#sendAll();
  }

  /** Flushes once more and stops the timer; later pushes are dropped. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.#closed = true;
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = null;
    }
  }

  #schedule(delay: number): void {
    if (this.#timer || this.#closed) return;
    const wait = Math.max(delay, this.#retryAt - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (!this.#inFlight && this.#items.length > 0) void this.#sendAll();
    }, wait);
    this.#timer.unref();
  }

  #sendAll(): Promise<void> {
    const run = (async () => {
      let failed = false;
      while (this.#items.length > 0 && !failed) {
        const batch = this.#items.splice(0, this.#o.batchSize);
        let retry: T[];
        this.#sending = batch;
        try {
          retry = await this.#o.send(batch);
        } catch {
          retry = batch;
        } finally {
          this.#sending = [];
        }
        this.delivered += batch.length - retry.length;
        if (retry.length > 0) {
          failed = true;
          // Back at the head, in order, still bounded: the oldest go first if newer ones arrived meanwhile.
          this.#items.unshift(...retry);
          while (this.#items.length > this.#o.max) {
            this.dropped++;
            this.#o.onDrop?.(this.#items.shift() as T, 'overflow');
          }
        }
      }
      if (failed) {
        const delay = this.#backoff.next();
        this.#retryAt = Date.now() + delay;
      } else {
        this.#backoff.reset();
        this.#retryAt = 0;
      }
    })();
    this.#inFlight = run.finally(() => {
      this.#inFlight = null;
      if (this.#items.length > 0) this.#schedule(this.#o.flushInterval);
    });
    return this.#inFlight;
  }
}
