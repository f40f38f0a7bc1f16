import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRepairClient } from '../../sdk/index.ts';
import { ADMIN_TOKEN, SHOP_TOKEN, recordedBatch, startHarness, until } from '../../testkit/service-harness.ts';
import { freePort, startRedis } from '../../testkit/private-redis.ts';
import { scanKeys } from '../../service/store/key-scan.ts';

/**
 * Must hold, with a private redis-server (never the shared 6379) frozen (SIGSTOP: connections hang
 * rather than fail, the harder case) for OUTAGE_MS = 12 s, a shorter outage than the minute
 * to keep CI time, the same code paths:
 * the app's calls are unaffected (each throws the block's own error at once); the daemon process
 * stays up (/healthz 200) and answers; no report the SDK produced is lost (every one acknowledged
 * once Redis is back, none dropped, every acknowledged one stored); and the worker, connected
 * through the outage, repairs the bug afterwards. (Redis restarted with its data lost:
 * test/service/redis-restart.test.ts.)
 */
const OUTAGE_MS = 12_000;

describe('Redis unreachable for a while', () => {
  it('the app is unaffected, no report is lost, the worker repairs afterwards', { timeout: 90_000 }, async (t) => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'suture-redis-outage-'));
    const redis = await startRedis(port, dir);
    const h = await startHarness({ redisUrl: `redis://127.0.0.1:${port}` });
    await h.startWorker();
    const client = createRepairClient({ url: h.url, app: 'shop', token: SHOP_TOKEN, sync: 'poll', pollInterval: 500, maxBackoff: 1000, flushInterval: 20, requestTimeout: 2000, record: { sampleRate: 0 } });
    const errors: string[] = [];
    client.on('error', (e) => errors.push(`${e.code}: ${e.message}`));
    t.after(async () => {
      if (redis.signalCode === null && redis.exitCode === null) redis.kill('SIGCONT');
      await client.close();
      await h.close().catch(() => {});
      redis.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });
    // The order-total bug of the harness, with its recorded calls, as the app would run it.
    const orderTotal = new Function(`return ${'function (order) {\n  let total = 0;\n  for (const item of order.items) total += item.price * item.qty;\n  return total;\n}'}`)() as (o: unknown) => number;
    let thrown = 0;
    let slowest = 0;
    const fail = (i: number) => {
      const started = performance.now();
      assert.throws(() => client.run('order-total', 'sum of price × qty over the order items', orderTotal, { id: i }), TypeError);
      slowest = Math.max(slowest, performance.now() - started);
      thrown++;
    };
    for (let i = 0; i < 5; i++) fail(i);
    await until(async () => client.stats().failuresDelivered === 5, 10_000);

    redis.kill('SIGSTOP');
    const frozenAt = Date.now();
    let i = 5;
    let healthy = 0;
    while (Date.now() - frozenAt < OUTAGE_MS) {
      fail(i++);
      const health = await fetch(`${h.url}/healthz`, { signal: AbortSignal.timeout(3000) });
      if (health.status === 200) healthy++;
      await new Promise((r) => setTimeout(r, 400));
    }
    const readyDuring = await fetch(`${h.url}/readyz`, { signal: AbortSignal.timeout(5000) }).then((r) => r.status, () => 0);
    redis.kill('SIGCONT');
    assert.ok(healthy > 10, `the daemon answered /healthz ${healthy} times during the outage`);
    assert.notEqual(readyDuring, 200, '/readyz does not claim readiness while Redis is away');

    // `failuresQueued` excludes a batch in flight: wait until every report is accounted for.
    await until(async () => client.stats().failuresQueued === 0 && client.stats().failuresDelivered + client.stats().failuresDropped >= thrown, 30_000, 100).catch(() => {});
    const { failuresDelivered, failuresDropped } = client.stats();
    const stored = (await scanKeys(h.redis, `${h.config.prefix}:req:shop:*`)).length;
    console.log(`[redis-outage] ${OUTAGE_MS / 1000} s frozen: ${thrown} failures thrown, ${failuresDelivered} acknowledged, ${stored} stored, ${failuresDropped} dropped; slowest app call ${slowest.toFixed(1)} ms`);
    assert.equal(failuresDropped, 0, errors.filter((e) => e.startsWith('SUTURE_DELIVERY_REJECTED') || e.startsWith('QUEUE')).join('\n'));
    assert.equal(failuresDelivered, thrown);
    assert.equal(stored, thrown);
    assert.ok(slowest < 100, 'the app’s calls never waited on Redis');

    // The worker kept its connection through the outage: known-good calls arrive, the bug is repaired.
    assert.equal((await h.call('/v1/cases', { body: recordedBatch() })).status, 202);
    const patched = await until(async () => {
      const res = await h.call('/v1/admin/bugs?app=shop', { token: ADMIN_TOKEN });
      const { bugs } = (await res.json()) as { bugs: { status: string }[] };
      return bugs.find((b) => b.status === 'patched');
    }, 40_000, 250);
    assert.ok(patched);
  });
});
