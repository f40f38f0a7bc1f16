import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failureReport, startHarness, until } from '../../testkit/service-harness.ts';
import { freePort, startRedis } from '../../testkit/private-redis.ts';

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

test('Redis restarted under a running daemon: /readyz says 503, then 200 when it is back; ingest recovers', async (t) => {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'suture-redis-'));
  let redis = await startRedis(port, dir);
  const h = await startHarness({ redisUrl: `redis://127.0.0.1:${port}` });
  t.after(async () => {
    await h.close().catch(() => {});
    await stop(redis);
    rmSync(dir, { recursive: true, force: true });
  });

  assert.equal((await h.call('/readyz', { token: null })).status, 200);
  assert.equal((await h.call('/v1/failures', { body: failureReport() })).status, 202);

  await stop(redis);
  const down = await until(async () => {
    const r = await h.call('/readyz', { token: null });
    return r.status === 503 ? r : null;
  }, 10_000);
  assert.equal((await down.json()).status, 'unavailable');
  // While Redis is away, a report is refused (not acknowledged), and the daemon stays up.
  const refused = await h.call('/v1/failures', { body: failureReport() });
  assert.equal(refused.status, 503);
  assert.equal((await h.call('/healthz', { token: null })).status, 200);

  redis = await startRedis(port, dir);
  await until(async () => (await h.call('/readyz', { token: null })).status === 200, 15_000, 100);
  const accepted = await until(async () => {
    const r = await h.call('/v1/failures', { body: failureReport() });
    return r.status === 202 ? r : null;
  }, 15_000, 100);
  const ack = await accepted.json();
  // The queue connection came back too: the report made a job again (Redis lost its data).
  const job = await until(() => h.daemon.context.queue.getJob(ack.jobId), 10_000);
  assert.equal(job.id, ack.fingerprint);
});
