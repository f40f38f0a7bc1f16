import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { loadConfig } from '../config/load-config.ts';
import type { SutureConfig } from '../config/config-settings.ts';
import { createDaemon, type Daemon } from '../daemon/daemon-server.ts';
import { startRepairWorker, type RepairWorkerHandle } from '../worker/repair-worker.ts';
import type { FailureReport } from '../core/wire.ts';
import { deleteKeysUnder } from '../service/store/key-scan.ts';

export const ADMIN_TOKEN = 'admin-token-0123456789';
export const SHOP_TOKEN = 'shop-token-abcdef';
export const GAME_TOKEN = 'game-token-abcdef';

/** A bug the offline engine repairs in about a second: `order.items` missing. */
export const ORDER_TOTAL_SOURCE = 'function (order) {\n  let total = 0;\n  for (const item of order.items) total += item.price * item.qty;\n  return total;\n}';

export interface Harness {
  config: SutureConfig;
  daemon: Daemon;
  url: string;
  redis: Redis;
  dataDir: string;
  worker?: RepairWorkerHandle;
  startWorker(overrides?: Partial<SutureConfig>): Promise<RepairWorkerHandle>;
  /** fetch against the daemon with a token (app token of "shop" by default). */
  call(path: string, init?: { method?: string; body?: unknown; token?: string | null; headers?: Record<string, string> }): Promise<Response>;
  close(): Promise<void>;
}

export const quietLogger = pino({ level: 'silent' });

/** Daemon on a free port with a unique key prefix (cleaned up on close) against the real Redis. */
export async function startHarness(overrides: Partial<SutureConfig> = {}, env: Record<string, string> = {}): Promise<Harness> {
  const prefix = `suture-test-${randomBytes(6).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'suture-svc-'));
  const config = loadConfig({
    env: { SUTURE_APP_TOKENS: `shop:${SHOP_TOKEN},game:${GAME_TOKEN}`, SUTURE_ADMIN_TOKEN: ADMIN_TOKEN, ...env },
    overrides: { port: 0, host: '127.0.0.1', prefix, dataDir, sandboxSize: 1, budgetMs: 10_000, jobBackoffMs: 200, logLevel: 'silent', ...overrides },
  });
  const daemon = await createDaemon(config, { logger: quietLogger });
  const url = await daemon.listen();
  const redis = new Redis(config.redisUrl);
  const h: Harness = {
    config,
    daemon,
    url,
    redis,
    dataDir,
    async startWorker(extra = {}) {
      h.worker = await startRepairWorker({ ...config, ...extra }, { logger: quietLogger });
      return h.worker;
    },
    call(path, init = {}) {
      const token = init.token === undefined ? SHOP_TOKEN : init.token;
      return fetch(url + path, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: {
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...init.headers,
        },
        body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
      });
    },
    async close() {
      await h.worker?.close();
      await daemon.close();
      await deleteKeys(redis, prefix);
      redis.disconnect();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return h;
}

export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  await deleteKeysUnder(redis, prefix);
}

let counter = 0;
export function failureReport(overrides: Partial<FailureReport> = {}): FailureReport {
  return {
    requestId: `req-${process.pid}-${Date.now()}-${++counter}`,
    app: 'shop',
    instanceId: 'instance-1',
    block: { id: 'order-total', description: 'sum of price × qty over the order items', source: ORDER_TOTAL_SOURCE },
    error: { name: 'TypeError', message: 'order.items is not iterable', stack: 'TypeError: order.items is not iterable\n    at eval (eval at run (/srv/app/sdk.js:1:1), <anonymous>:3:22)' },
    args: [{ id: 7 }],
    at: new Date().toISOString(),
    ...overrides,
  };
}

export const recordedBatch = (requestId = `cases-${++counter}`) => ({
  requestId,
  app: 'shop',
  instanceId: 'instance-1',
  blocks: [{
    id: 'order-total',
    description: 'sum of price × qty over the order items',
    source: ORDER_TOTAL_SOURCE,
    calls: [
      { args: [{ items: [{ price: 2, qty: 3 }] }], result: 6, argsAfter: [{ items: [{ price: 2, qty: 3 }] }], at: new Date().toISOString() },
      { args: [{ items: [] }], result: 0, argsAfter: [{ items: [] }], at: new Date().toISOString() },
      { args: [{ items: [{ price: 1.5, qty: 2 }, { price: 1, qty: 1 }] }], result: 4, at: new Date().toISOString() },
    ],
  }],
});

/**
 * The repair job `jobId` once it has completed, as read after completion: a job fetched before it
 * finished and then found 'completed' by a second query still holds its old, empty returnvalue.
 */
export function completedJob(h: Harness, jobId: string, ms?: number) {
  return until(async () => {
    const j = await h.daemon.context.queue.getJob(jobId);
    return j?.finishedOn !== undefined && (await j.getState()) === 'completed' ? j : null;
  }, ms);
}

/** Polls `probe` until it returns a truthy value or `ms` pass. */
export async function until<T>(probe: () => Promise<T | undefined | null | false>, ms = 20_000, every = 50): Promise<T> {
  const deadline = Date.now() + ms;
  while (true) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, every));
  }
}
