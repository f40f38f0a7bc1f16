import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { publishPatch } from '../../worker/patch-publisher.ts';
import { failureReport, recordedBatch, completedJob, startHarness, until, type Harness } from '../../testkit/service-harness.ts';
import type { CandidateReport } from '../../engine/repair-report.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function spawnWorker(h: Harness): ChildProcess {
  const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'cli/main.ts', 'worker'], {
    cwd: ROOT,
    // Own process group, so the worker and its sandbox hosts die together.
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      SUTURE_REDIS_URL: h.config.redisUrl,
      SUTURE_PREFIX: h.config.prefix,
      SUTURE_DATA_DIR: h.dataDir,
      SUTURE_SANDBOX_SIZE: '1',
      SUTURE_LOCK_DURATION_MS: '2000',
      SUTURE_STALLED_INTERVAL_MS: '1000',
      SUTURE_BUDGET_MS: '10000',
      SUTURE_LOG_LEVEL: 'warn',
    },
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d: string) => {
    if (process.env.SUTURE_TEST_VERBOSE) process.stderr.write(`[worker ${child.pid}] ${d}`);
  });
  return child;
}

async function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  try {
    process.kill(-child.pid!, signal);
  } catch {
    return;
  }
  await exited;
}

test('a worker SIGKILLed mid-job: another worker finishes it, the bug gets one patch version', async (t) => {
  const h = await startHarness();
  const children: ChildProcess[] = [];
  t.after(async () => {
    for (const c of children) await killGroup(c, 'SIGKILL');
    await h.close();
  });
  await h.call('/v1/cases', { body: recordedBatch() });
  const { fingerprint } = await (await h.call('/v1/failures', { body: failureReport() })).json();
  const store = h.daemon.context.store;

  const first = spawnWorker(h);
  children.push(first);
  await until(async () => (await store.getBug(fingerprint))?.status === 'repairing', 30_000, 10);
  const job = await h.daemon.context.queue.getJob(fingerprint);
  assert.equal(await job!.getState(), 'active');
  assert.equal((await store.readPatches('shop')).patches.length, 0, 'killed before publishing');
  await killGroup(first, 'SIGKILL');

  const second = spawnWorker(h);
  children.push(second);
  const bug = await until(async () => {
    const b = await store.getBug(fingerprint);
    return b?.status === 'patched' ? b : null;
  }, 40_000);
  assert.equal(bug.patchVersion, 1);
  const { patches } = await store.readPatches('shop');
  assert.equal(patches.length, 1, 'one patch version');
  assert.equal(patches[0].version, 1);
  const finished = await completedJob(h, fingerprint);
  assert.equal(finished.returnvalue.ended, 'published');
  await killGroup(second, 'SIGTERM');
});

test('publishing a bug round twice at once stores one version (the idempotence the takeover relies on)', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { fingerprint } = await (await h.call('/v1/failures', { body: failureReport() })).json();
  const store = h.daemon.context.store;
  const bug = (await store.getBug(fingerprint))!;
  const winner = (source: string): CandidateReport => ({
    rank: 1, generator: 'template:test', description: 'test', prior: 0.5, suspect: false, source, diff: '', editSize: 3,
    status: 'plausible', passed: 1, total: 1, trials: [], ms: 1, score: 1,
  });
  const keys = h.daemon.context.keys;
  const evidence = { failing: 1, recorded: 0, generated: 0, tests: 0, recheck: { passed: 1, total: 1 } };
  const results = await Promise.all(
    ['a', 'b', 'c', 'd'].map((s) => publishPatch({ store, keys, config: h.config, bug, round: 1, winner: winner(`function (order) { return '${s}'; }`), evidence })),
  );
  assert.equal(new Set(results.map((r) => r.patchId)).size, 1);
  assert.equal(results.filter((r) => r.stored).length, 1);
  assert.deepEqual(results.map((r) => r.version), [1, 1, 1, 1]);
  assert.equal((await store.readPatches('shop')).patches.length, 1);
  // The next bug round (after a requeue) gets the block's next version.
  assert.equal(await store.requeueBug(fingerprint), 2);
  const next = await publishPatch({ store, keys, config: h.config, bug: (await store.getBug(fingerprint))!, round: 2, winner: winner('function (order) { return 0; }'), evidence });
  assert.equal(next.version, 2);
  // A stale round (the job of round 1 finishing late) publishes nothing.
  await assert.rejects(publishPatch({ store, keys, config: h.config, bug, round: 1, winner: winner('x'), evidence }), { code: 'SUTURE_STALE_ROUND' });
});
