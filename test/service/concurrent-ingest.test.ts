import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureReport, recordedBatch, startHarness, until } from '../../testkit/service-harness.ts';

test('1,000 concurrent reports of one bug make exactly one job and one patch', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  await h.call('/v1/cases', { body: recordedBatch() });

  const reports = Array.from({ length: 1000 }, (_, i) => failureReport({ instanceId: `instance-${i % 50}`, args: [{ id: i % 20 }] }));
  const acks = await Promise.all(
    reports.map(async (r) => {
      const res = await fetch(`${h.url}/v1/failures`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer shop-token-abcdef' },
        body: JSON.stringify(r),
      });
      return { status: res.status, body: await res.json() };
    }),
  );
  assert.ok(acks.every((a) => a.status === 202), 'every report acknowledged');
  const fingerprints = new Set(acks.map((a) => a.body.fingerprint));
  assert.equal(fingerprints.size, 1, 'one bug');
  const [fp] = fingerprints;
  assert.ok(acks.every((a) => a.body.jobId === fp));

  const queue = h.daemon.context.queue;
  const jobs = await queue.getJobs(['waiting', 'active', 'completed', 'delayed', 'failed']);
  assert.equal(jobs.length, 1, 'one job');
  const bug = await h.daemon.context.store.getBug(fp);
  assert.equal(bug?.count, 1000);
  assert.equal((await h.daemon.context.store.bugCases(fp)).length, 20, 'failing inputs merged, distinct by args');

  await h.startWorker();
  await until(async () => (await h.daemon.context.store.getBug(fp))?.status === 'patched');
  // Reports keep coming after the patch: still one job, one patch.
  await Promise.all(Array.from({ length: 50 }, () => h.call('/v1/failures', { body: failureReport() })));
  const { patches } = await h.daemon.context.store.readPatches('shop');
  assert.equal(patches.length, 1, 'one patch');
  assert.equal(patches[0].version, 1);
  assert.equal((await queue.getJobs(['waiting', 'active', 'completed', 'delayed', 'failed'])).length, 1);
});
