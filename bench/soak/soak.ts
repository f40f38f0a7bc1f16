/**
 * Load and soak run (not a test): a real daemon and worker as child processes on loopback, N
 * simulated SDK instances (real RepairClients in this process) calling M distinct blocks: most calls
 * succeed (a share recorded as known-good cases), some fail (each block fails the same way, so each
 * is one distinct bug). After the run every client is closed (queues flushed) and the figures are
 * counted from the SDKs' own statistics and from Redis: reports acknowledged vs stored, jobs vs
 * distinct bugs, patches, daemon memory (RSS) before and after.
 *
 *   npm run bench:soak -- --instances 100 --bugs 1000 --seconds 60 [--rate 10] [--failure-share 0.2]
 *                         [--sample-rate 0.05] [--redis redis://127.0.0.1:6379] [--json out.json]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { freePort } from '../../testkit/private-redis.ts';
import { benchArgs } from '../bench-args.ts';
import { createRepairClient, type RepairClient } from '../../sdk/index.ts';
import { deleteKeysUnder, scanKeys } from '../../service/store/key-scan.ts';

const opts = benchArgs(
  `Usage: npm run bench:soak [-- --instances 100] [-- --bugs 1000] [-- --seconds 60] [-- --rate 10]
                         [-- --failure-share 0.2] [-- --sample-rate 0.05] [-- --redis URL] [-- --json FILE]

A real daemon and worker (child processes) and --instances SDK clients in this process calling
--bugs distinct blocks for --seconds: most calls succeed (a share recorded), some fail. Counts
reports acknowledged vs stored, jobs vs distinct bugs, patches, and the daemon's memory.`,
  {
    instances: { type: 'string', default: '100' },
    bugs: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '60' },
    rate: { type: 'string', default: '10' },
    'failure-share': { type: 'string', default: '0.2' },
    'sample-rate': { type: 'string', default: '0.05' },
    redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
    json: { type: 'string' },
  },
);
const INSTANCES = Number(opts.instances);
const BUGS = Number(opts.bugs);
const SECONDS = Number(opts.seconds);
/** Calls per second per instance. */
const RATE = Number(opts.rate);
const FAILURE_SHARE = Number(opts['failure-share']);
const SAMPLE_RATE = Number(opts['sample-rate']);

const APP = 'soak';
const TOKEN = `soak-token-${randomBytes(6).toString('hex')}`;
const ADMIN = `soak-admin-${randomBytes(8).toString('hex')}`;
const PREFIX = `suture-soak-${randomBytes(4).toString('hex')}`;
const ROOT = new URL('../../', import.meta.url).pathname;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

function startService(command: 'daemon' | 'worker', env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'cli/main.ts', command], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Block n: sums a line list; fails (TypeError) when the order has no lines. Distinct source per block. */
function makeBlock(n: number): (order: { lines?: { price: number; qty: number }[] }) => number {
  return new Function(`return function block${n}(order) {\n  let total = ${n % 7};\n  for (const line of order.lines) total += line.price * line.qty;\n  return total;\n}`)();
}

async function main(): Promise<void> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'suture-soak-'));
  const env = {
    SUTURE_PORT: String(port),
    SUTURE_HOST: '127.0.0.1',
    SUTURE_REDIS_URL: opts.redis!,
    SUTURE_PREFIX: PREFIX,
    SUTURE_APP_TOKENS: `${APP}:${TOKEN}`,
    SUTURE_ADMIN_TOKEN: ADMIN,
    SUTURE_DATA_DIR: dataDir,
    SUTURE_LOG_LEVEL: 'warn',
    SUTURE_BUDGET_MS: '3000',
    SUTURE_SANDBOX_SIZE: '1',
  };
  const url = `http://127.0.0.1:${port}`;
  const daemon = startService('daemon', env);
  let worker: ChildProcess | undefined;
  const redis = new Redis(opts.redis!);
  const clients: RepairClient[] = [];
  try {
    for (let i = 0; ; i++) {
      if (i > 200) throw new Error('daemon did not start');
      const ok = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
      if (ok) break;
      await sleep(100);
    }
    worker = startService('worker', env);
    const blocks = Array.from({ length: BUGS }, (_, n) => makeBlock(n));
    for (let i = 0; i < INSTANCES; i++) {
      const c = createRepairClient({ url, app: APP, token: TOKEN, instanceId: `instance-${i}`, sync: 'poll', pollInterval: 5000, record: { sampleRate: SAMPLE_RATE }, maxQueuedFailures: 10_000 });
      c.on('error', () => {});
      clients.push(c);
    }
    await sleep(2000);
    const rssBefore = rssMb(daemon.pid!);
    console.log(`daemon up (pid ${daemon.pid}, RSS ${rssBefore.toFixed(1)} MB); ${INSTANCES} instances × ${RATE} calls/s over ${BUGS} blocks for ${SECONDS} s`);

    let calls = 0;
    let failures = 0;
    let succeeded = 0;
    let unexpected = 0;
    const failedBlocks = new Set<number>();
    const started = Date.now();
    const tickMs = 100;
    let lateTicks = 0;
    while (Date.now() - started < SECONDS * 1000) {
      const tickStart = Date.now();
      for (const c of clients) {
        for (let k = 0; k < (RATE * tickMs) / 1000; k++) {
          const n = Math.floor(Math.random() * BUGS);
          const fail = Math.random() < FAILURE_SHARE;
          calls++;
          try {
            const v = c.run(`block-${n}`, `order total ${n}`, blocks[n], fail ? {} : { lines: [{ price: 2, qty: 3 }, { price: 1, qty: n % 5 }] });
            if (fail) unexpected++;
            else if (v === (n % 7) + 6 + (n % 5)) succeeded++;
            else unexpected++;
          } catch (error) {
            if (fail && error instanceof TypeError) {
              failures++;
              failedBlocks.add(n);
            } else unexpected++;
          }
        }
      }
      const spent = Date.now() - tickStart;
      if (spent > tickMs) lateTicks++;
      await sleep(Math.max(0, tickMs - spent));
      if (Math.floor((Date.now() - started) / 10_000) !== Math.floor((tickStart - started) / 10_000)) {
        console.log(`  ${Math.round((Date.now() - started) / 1000)} s: ${calls} calls, ${failures} failures, daemon RSS ${rssMb(daemon.pid!).toFixed(1)} MB`);
      }
    }
    const elapsed = (Date.now() - started) / 1000;
    const flushStart = Date.now();
    await Promise.all(clients.map((c) => c.close()));
    const flushSeconds = (Date.now() - flushStart) / 1000;
    const stats = clients.map((c) => c.stats());
    const sum = (k: keyof (typeof stats)[number]) => stats.reduce((s, x) => s + Number(x[k]), 0);
    await sleep(5000);
    const rssAfter = rssMb(daemon.pid!);

    // What the daemon stored: failure reports counted per bug, the bugs, their jobs, the patches.
    const keys = { appBugs: `${PREFIX}:app:${APP}:bugs`, appPatches: `${PREFIX}:app:${APP}:patches` };
    const fps = await redis.zrange(keys.appBugs, '0', '-1');
    let storedReports = 0;
    for (const fp of fps) storedReports += Number((await redis.hget(`${PREFIX}:bug:${fp}`, 'count')) ?? 0);
    const bugKeys = await scanKeys(redis, `${PREFIX}:*`, 5000);
    const jobHashes = bugKeys.filter((k) => k.startsWith(`${PREFIX}:repair:`) && /^[0-9a-f]{16,}(-r\d+)?$/.test(k.slice(`${PREFIX}:repair:`.length)));
    const queue = new Queue('repair', { connection: { url: opts.redis! }, prefix: PREFIX });
    const jobCounts = await queue.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized');
    await queue.close();
    const patches = await redis.zcard(keys.appPatches).catch(() => 0);
    const status = new Map<string, number>();
    for (const fp of fps) {
      const s = (await redis.hget(`${PREFIX}:bug:${fp}`, 'status')) ?? '?';
      status.set(s, (status.get(s) ?? 0) + 1);
    }

    const figures = {
      instances: INSTANCES,
      blocks: BUGS,
      seconds: Math.round(elapsed),
      calls,
      callsPerSecond: Math.round(calls / elapsed),
      succeeded,
      failuresThrown: failures,
      unexpectedResults: unexpected,
      lateTicks,
      distinctFailingBlocks: failedBlocks.size,
      reportsAcknowledged: sum('failuresDelivered'),
      reportsDropped: sum('failuresDropped'),
      reportsStillQueued: sum('failuresQueued'),
      reportsStored: storedReports,
      recordedCallsAcknowledged: sum('callsDelivered'),
      recordedCallsDropped: sum('callsDropped'),
      distinctBugsStored: fps.length,
      jobs: jobHashes.length,
      jobStates: jobCounts,
      bugStatus: Object.fromEntries(status),
      patches,
      flushSeconds,
      daemonRssMbBefore: Math.round(rssBefore * 10) / 10,
      daemonRssMbAfter: Math.round(rssAfter * 10) / 10,
    };
    console.log(JSON.stringify(figures, null, 2));
    if (opts.json) writeFileSync(opts.json, JSON.stringify(figures, null, 2) + '\n');
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    worker?.kill('SIGTERM');
    daemon.kill('SIGTERM');
    await sleep(1500);
    worker?.kill('SIGKILL');
    daemon.kill('SIGKILL');
    await deleteKeysUnder(redis, PREFIX);
    redis.disconnect();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
