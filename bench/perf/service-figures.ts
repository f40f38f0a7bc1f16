/**
 * Service figures with the real daemon, worker and Redis (unique key prefix, removed after):
 * ingest of one bug under 100 connections against BullMQ addBulk on the same Redis; time from a
 * failing call to the patch being visible in an SDK's manifest; time for an approved patch to
 * reach 1,000 streaming SDK clients.
 */
import autocannon from 'autocannon';
import { Queue } from 'bullmq';
import { bullConnection } from '../../service/repair-queue.ts';
import { spawnDaemon } from '../load/spawn-daemon.ts';
import { createRepairClient, type RepairClient } from '../../sdk/index.ts';
import { ADMIN_TOKEN, failureReport, SHOP_TOKEN, startHarness, until, type Harness } from '../../testkit/service-harness.ts';
import { atLeast, reportOnly, row, type PerfRow } from './perf-row.ts';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function ingestFigure(h: Harness, log: (s: string) => void): Promise<PerfRow> {
  // A second daemon on the same Redis prefix and signing key, in its own process, so the load
  // generator does not share the measured event loop; a one-second warm-up is not counted.
  const daemon = await spawnDaemon({ ...h.config, port: 0 });
  let result: autocannon.Result;
  try {
    await ingestLoad(daemon.url, 1, 'perf-warm');
    result = await ingestLoad(daemon.url, 5, 'perf');
  } finally {
    await daemon.close();
  }
  const rate = result['2xx'] / (result.duration || 5);
  if (result.non2xx > 0) log(`ingest: ${result.non2xx} non-2xx answers`);

  const queue = new Queue('perf-bulk-reference', { prefix: h.config.prefix, connection: bullConnection(h.config.redisUrl) });
  await queue.waitUntilReady();
  const total = 20_000;
  const started = performance.now();
  for (let i = 0; i < total; i += 1000) {
    await queue.addBulk(Array.from({ length: 1000 }, (_, k) => ({ name: 'repair', data: { fingerprint: `fp-${i + k}`, app: 'shop', round: 1 }, opts: { jobId: `fp-${i + k}`, attempts: 3 } })));
  }
  const bulkRate = total / ((performance.now() - started) / 1000);
  await queue.obliterate({ force: true });
  await queue.close();
  log(`ingest ${rate.toFixed(0)} reports/s (p99 ${result.latency.p99} ms) vs addBulk ${bulkRate.toFixed(0)} jobs/s`);
  return row('ingest', rate, bulkRate, 'reports/s', '≥ 1×', atLeast(1), `daemon in a child process, autocannon (100 connections) in this one, p99 ${result.latency.p99} ms; same 2-core machine as Redis`);
}

/** One bug reported over and over from 100 connections, each report with its own request id. */
function ingestLoad(url: string, seconds: number, idPrefix: string): Promise<autocannon.Result> {
  let n = 0;
  return autocannon({
    url: `${url}/v1/failures`,
    method: 'POST',
    connections: 100,
    duration: seconds,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SHOP_TOKEN}` },
    requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify(failureReport({ requestId: `${idPrefix}-${n++}` })) }) }],
  });
}

/** A distinct order-total block per round (distinct source, so a distinct bug). */
function orderBlock(k: number): (order: { items?: { price: number; qty: number }[] }) => number {
  const src = `(function orderTotal${k}(order) {\n  let total = 0;\n  for (const item of order.items) total += item.price * item.qty;\n  return total + ${k} - ${k};\n})`;
  return (0, eval)(src) as (order: { items?: { price: number; qty: number }[] }) => number;
}

async function timeToPatch(h: Harness, publicKey: string, rounds: number, log: (s: string) => void): Promise<number[]> {
  const client = createRepairClient({ url: h.url, app: 'shop', token: SHOP_TOKEN, publicKey, instanceId: 'perf-ttp', record: { sampleRate: 1 }, flushInterval: 50, execution: 'trusted' });
  const times: number[] = [];
  try {
    await new Promise<void>((resolve) => client.once('sync', () => resolve()));
    for (let k = 0; k < rounds; k++) {
      const fn = orderBlock(k);
      const id = `order-total-${k}`;
      for (const items of [[{ price: 2, qty: 3 }], [], [{ price: 1.5, qty: 2 }, { price: 1, qty: 1 }]]) client.run(id, 'sum of price × qty over the order items', fn, { items });
      await client.flush();
      const visible = new Promise<number>((resolve) => {
        const on = (e: { patchedBlocks: number }) => {
          if (e.patchedBlocks >= k + 1) {
            client.off('sync', on);
            resolve(performance.now());
          }
        };
        client.on('sync', on);
      });
      const t0 = performance.now();
      try {
        client.run(id, 'sum of price × qty over the order items', fn, { id: 7 } as never);
      } catch {
        /* the failure being repaired */
      }
      const t1 = await Promise.race([visible, new Promise<number>((_, reject) => setTimeout(() => reject(new Error(`no patch for ${id} within 30 s`)), 30_000))]);
      times.push(t1 - t0);
      log(`time_to_patch round ${k + 1}: ${(t1 - t0).toFixed(0)} ms`);
    }
  } finally {
    await client.close();
  }
  return times.sort((a, b) => a - b);
}

async function propagation(h: Harness, publicKey: string, count: number, log: (s: string) => void): Promise<number[]> {
  const admin = (path: string, body?: unknown) =>
    h.call(path, { token: ADMIN_TOKEN, body, method: body === undefined ? 'GET' : path.includes('/policies') ? 'PUT' : 'POST', headers: { 'x-suture-actor': 'perf' } });
  const blockId = 'order-total-manual';
  if ((await admin('/v1/admin/policies', { app: 'shop', blockId, policy: 'manual' })).status !== 200) throw new Error('could not set the manual policy');
  // A pending patch to approve.
  const fn = orderBlock(1000);
  const { fingerprint } = (await (await h.call('/v1/failures', { body: failureReport({ block: { id: blockId, description: 'sum of price × qty over the order items', source: fn.toString() } }) })).json()) as { fingerprint: string };
  const bug = await until(async () => {
    const b = await h.daemon.context.store.getBug(fingerprint);
    return b?.patchId ? b : null;
  }, 60_000);

  const clients: RepairClient[] = [];
  const arrived: number[] = [];
  let t0 = 0;
  try {
    let connected = 0;
    for (let i = 0; i < count; i++) {
      const c = createRepairClient({ url: h.url, app: 'shop', token: SHOP_TOKEN, publicKey, instanceId: `perf-${i}`, record: { sampleRate: 0 }, execution: 'trusted' });
      let first = true;
      c.on('sync', (e) => {
        if (first) {
          first = false;
          connected++;
        } else if (t0 > 0 && e.changed && e.patchedBlocks > 0 && arrived.length < count) {
          arrived.push(performance.now() - t0);
        }
      });
      clients.push(c);
    }
    await until(async () => connected >= count, 60_000);
    await new Promise((r) => setTimeout(r, 500));
    t0 = performance.now();
    const approved = await admin(`/v1/admin/patches/${bug.patchId}/approve`, { reason: 'perf' });
    if (approved.status !== 200) throw new Error(`approve answered ${approved.status}`);
    await until(async () => arrived.length >= count, 30_000, 20);
    log(`propagation: ${arrived.length} clients, max ${Math.max(...arrived).toFixed(0)} ms`);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
  return arrived.sort((a, b) => a - b);
}

export async function serviceFigures(log: (s: string) => void, options: { rounds?: number; clients?: number } = {}): Promise<PerfRow[]> {
  const h = await startHarness({ canarySteps: [1], sandboxSize: 2 });
  try {
    const rows = [await ingestFigure(h, log)];
    // The ingest load queued one job for its bug; start from an empty queue.
    await h.daemon.context.queue.obliterate({ force: true });
    await h.startWorker();
    const publicKey = ((await (await h.call('/v1/public-key')).json()) as { publicKey: string }).publicKey;
    const times = await timeToPatch(h, publicKey, options.rounds ?? 8, log);
    rows.push(row('time_to_patch_p50_ms', percentile(times, 50), null, 'ms', 'report', reportOnly, `${times.length} seed bugs, offline engine`));
    rows.push(row('time_to_patch_p99_ms', percentile(times, 99), null, 'ms', 'report', reportOnly, `${times.length} seed bugs (p99 of few samples = the slowest)`));
    const arrivals = await propagation(h, publicKey, options.clients ?? 1000, log);
    rows.push(row('propagation_p99_ms', percentile(arrivals, 99), null, 'ms', 'report', reportOnly, `${arrivals.length} streaming clients in one process with the daemon`));
    return rows;
  } finally {
    await h.close();
  }
}
