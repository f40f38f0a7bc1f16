/**
 * Load on POST /v1/failures: reports/s, p99 latency and jobs created, for one bug (every report
 * the same failure) and for 1,000 distinct bugs, plus BullMQ's own addBulk on the same Redis in
 * the same run as the reference for queueing cost. The daemon runs in a child process (so the
 * load generator does not share its event loop) on a free port with a throw-away key prefix
 * (deleted afterwards); no worker runs, so jobs stay waiting.
 *
 *   node --no-node-snapshot --import tsx bench/load/ingest-load.ts [--seconds 10] [--connections 100]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { benchArgs } from '../bench-args.ts';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { loadConfig } from '../../config/load-config.ts';
import { bullConnection, createRepairQueue } from '../../service/repair-queue.ts';
import { spawnDaemon } from './spawn-daemon.ts';
import { deleteKeysUnder } from '../../service/store/key-scan.ts';

const values = benchArgs(
  `Usage: npm run bench:load [-- --seconds 10] [-- --connections 100] [-- --bulk 20000]

Load on POST /v1/failures (one bug and 1,000 distinct bugs): reports/s, p99 latency, jobs created,
beside BullMQ's own addBulk of --bulk jobs on the same Redis. The daemon runs in a child process.`,
  { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '100' }, bulk: { type: 'string', default: '20000' } },
);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const TOKEN = 'bench-token-0123456789';
const SOURCE = 'function (order) {\n  let total = 0;\n  for (const item of order.items) total += item.price * item.qty;\n  return total;\n}';

const prefix = `suture-bench-${randomBytes(4).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'suture-bench-'));
const config = loadConfig({ env: { SUTURE_APP_TOKENS: `shop:${TOKEN}` }, overrides: { port: 0, host: '127.0.0.1', prefix, dataDir, logLevel: 'warn' } });
const daemon = await spawnDaemon(config);
const url = daemon.url;
const repairQueue = createRepairQueue(config);
await repairQueue.waitUntilReady();
const redis = new Redis(config.redisUrl);

let n = 0;
function body(distinctBugs: number): string {
  const i = n++;
  return JSON.stringify({
    requestId: `bench-${i}`,
    app: 'shop',
    instanceId: `instance-${i % 64}`,
    block: { id: distinctBugs > 1 ? `order-total-${i % distinctBugs}` : 'order-total', description: 'sum of price × qty', source: SOURCE },
    error: { name: 'TypeError', message: 'order.items is not iterable', stack: 'TypeError: order.items is not iterable\n    at eval (<anonymous>:3:22)' },
    args: [{ id: i % 100 }],
    at: new Date().toISOString(),
  });
}

async function jobsCreated(): Promise<number> {
  const counts = await repairQueue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed');
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

function load(distinctBugs: number, duration: number) {
  return autocannon({
    url: `${url}/v1/failures`,
    method: 'POST',
    connections,
    duration,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    requests: [{ setupRequest: (req) => ({ ...req, body: body(distinctBugs) }) }],
  });
}

/** CPU seconds used so far by the daemon process (user + system, from /proc) and by Redis (INFO). */
async function cpuSeconds(): Promise<{ daemon: number; redis: number }> {
  const fields = readFileSync(`/proc/${daemon.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const info = await redis.info('cpu');
  const get = (k: string) => Number(new RegExp(`${k}:([0-9.]+)`).exec(info)?.[1] ?? 0);
  return { daemon: ticks / 100, redis: get('used_cpu_user') + get('used_cpu_sys') };
}

async function scenario(name: string, distinctBugs: number) {
  const before = await jobsCreated();
  const cpuBefore = await cpuSeconds();
  const result = await load(distinctBugs, seconds);
  const cpuAfter = await cpuSeconds();
  const ok = result['2xx'];
  const row = {
    scenario: name,
    reportsPerSecond: Math.round(ok / (result.duration || seconds)),
    acknowledged: ok,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    jobsCreated: (await jobsCreated()) - before,
    // Robust against a busy machine: CPU per acknowledged report (Redis's figure is the whole
    // server's, so other users of the same Redis add to it).
    cpuMicrosPerReport: {
      daemon: Math.round(((cpuAfter.daemon - cpuBefore.daemon) * 1e6) / Math.max(1, ok)),
      redis: Math.round(((cpuAfter.redis - cpuBefore.redis) * 1e6) / Math.max(1, ok)),
    },
  };
  console.log(JSON.stringify(row));
  return row;
}

async function addBulkScenario(total: number) {
  const queue = new Queue('bulk-reference', { prefix, connection: bullConnection(config.redisUrl) });
  await queue.waitUntilReady();
  const batch = 1000;
  const started = performance.now();
  for (let i = 0; i < total; i += batch) {
    await queue.addBulk(Array.from({ length: Math.min(batch, total - i) }, (_, k) => ({ name: 'repair', data: { fingerprint: `fp-${i + k}`, app: 'shop', round: 1 }, opts: { jobId: `fp-${i + k}`, attempts: 3 } })));
  }
  const ms = performance.now() - started;
  const row = { scenario: `BullMQ addBulk (${batch} per call, distinct job ids)`, jobsPerSecond: Math.round(total / (ms / 1000)), jobs: total, ms: Math.round(ms), jobsCreated: await queue.count() };
  console.log(JSON.stringify(row));
  await queue.close();
  return row;
}

try {
  console.log(`# POST /v1/failures, ${connections} connections, ${seconds} s per scenario; daemon in a child process, load generator in this one, same machine (${(await import('node:os')).availableParallelism()} cores)`);
  // Warm-up (JIT, connections, script cache), not counted.
  await load(1, Math.min(seconds, 5));
  await scenario('one bug', 1);
  await scenario('1,000 distinct bugs', 1000);
  await addBulkScenario(Number(values.bulk));
} finally {
  await daemon.close();
  await repairQueue.close();
  await deleteKeysUnder(redis, prefix);
  redis.disconnect();
  rmSync(dataDir, { recursive: true, force: true });
}
