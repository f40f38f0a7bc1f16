import type { Redis } from 'ioredis';

/** One time bucket of an app's activity. */
export interface ActivityBucket {
  /** Start of the bucket, ms since the epoch. */
  at: number;
  /** Failure reports stored (resent reports count once). */
  failures: number;
  /** Patched calls that passed / threw, from outcome reports. */
  passed: number;
  threw: number;
}

export interface ActivitySeriesOptions {
  /** Width of one bucket, ms. @defaultValue 10_000 */
  bucketMs?: number;
  /** How long a bucket is kept in Redis, seconds. @defaultValue 7200 */
  ttlSeconds?: number;
}

type Counter = 'failures' | 'passed' | 'threw';

/**
 * Failures and patched calls over time, per app, for the dashboard's chart. The Prometheus
 * counters are per process; these live in Redis so every daemon adds to the same series. One small
 * hash per bucket (`<prefix>:activity:<app>:<bucket>`) that expires by itself, so nothing needs
 * pruning and a read is one pipelined HMGET per bucket.
 */
export class ActivitySeries {
  readonly bucketMs: number;
  readonly #ttl: number;

  constructor(
    readonly redis: Redis,
    readonly prefix: string,
    options: ActivitySeriesOptions = {},
  ) {
    this.bucketMs = options.bucketMs ?? 10_000;
    this.#ttl = options.ttlSeconds ?? 7200;
  }

  #key(app: string, bucket: number) {
    return `${this.prefix}:activity:${app}:${bucket}`;
  }

  /** Adds to the current bucket; counts of zero are skipped. */
  async record(app: string, counts: Partial<Record<Counter, number>>, now = Date.now()): Promise<void> {
    const key = this.#key(app, Math.floor(now / this.bucketMs));
    const tx = this.redis.multi();
    let any = false;
    for (const [field, n] of Object.entries(counts)) {
      if (!n) continue;
      tx.hincrby(key, field, n);
      any = true;
    }
    if (!any) return;
    await tx.expire(key, this.#ttl).exec();
  }

  /** The last `minutes` of buckets, oldest first, empty buckets included (so the chart's x axis is time). */
  async read(app: string, minutes: number, now = Date.now()): Promise<ActivityBucket[]> {
    const last = Math.floor(now / this.bucketMs);
    const count = Math.max(1, Math.ceil((minutes * 60_000) / this.bucketMs));
    const pipe = this.redis.pipeline();
    for (let b = last - count + 1; b <= last; b++) pipe.hmget(this.#key(app, b), 'failures', 'passed', 'threw');
    const rows = (await pipe.exec()) ?? [];
    return rows.map(([error, values], i) => {
      if (error) throw error;
      const [failures, passed, threw] = (values as (string | null)[]).map((v) => Number(v ?? 0));
      return { at: (last - count + 1 + i) * this.bucketMs, failures, passed, threw };
    });
  }
}
