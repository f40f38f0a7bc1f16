import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Queue } from 'bullmq';
import { FailureIngestBatcher } from '../../daemon/failure-ingest-batcher.ts';
import { REPAIR_QUEUE, bullConnection } from '../../service/repair-queue.ts';
import { RepairScheduler } from '../../daemon/repair-scheduler.ts';
import type { FailureRecord } from '../../service/store/service-store.ts';
import { startHarness } from '../../testkit/service-harness.ts';

const record = (fingerprint: string, requestId: string): FailureRecord => ({
  app: 'shop', requestId, requestIdTtl: 60, now: Date.now(), blockId: 'b', sourceHash: 'f'.repeat(64), description: '', source: 'function () {}',
  errorName: 'TypeError', message: 'm', firstMessage: 'm', frame: '', stack: '', caseHash: requestId.slice(0, 8), caseJson: '{}', maxCases: 5, fingerprint,
});

test('group commit: one write per turn, repeated request id counts once, job added only while BullMQ lacks it', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { store, scheduler, queue } = h.daemon.context;
  const batches: number[] = [];
  const batcher = new FailureIngestBatcher(store, scheduler, { onStored: (s) => batches.push(s.length) });

  const first = await Promise.all([batcher.submit(record('fp-a', 'r1')), batcher.submit(record('fp-a', 'r1')), batcher.submit(record('fp-a', 'r2'))]);
  assert.deepEqual(batches, [3], 'the three reports went in one batch');
  assert.deepEqual(first.map((r) => r.fresh), [true, false, true], 'the repeated request id in the same batch changed nothing');
  assert.ok(first.every((r) => r.jobId === 'fp-a'));
  assert.equal((await store.getBug('fp-a'))?.count, 2);
  assert.ok(await queue.getJob('fp-a'), 'the job exists when the reports are acknowledged');

  const again = await batcher.submit(record('fp-a', 'r3'));
  assert.equal(again.jobExists, true, 'the script saw the job, so no add was sent');
  // The job vanishes while the bug is still open: the next report queues it again.
  await (await queue.getJob('fp-a'))!.remove();
  const readded = await batcher.submit(record('fp-a', 'r4'));
  assert.equal(readded.jobExists, false);
  assert.ok(await queue.getJob('fp-a'), 'job added again');
});

test('group commit: a failed job add fails only the reports that needed a job', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { store, scheduler } = h.daemon.context;
  const batcher = new FailureIngestBatcher(store, scheduler);
  await batcher.submit(record('fp-old', 'o1'));
  // A scheduler whose queue is closed: its addBulk throws.
  const closed = new Queue(REPAIR_QUEUE, { prefix: h.config.prefix, connection: bullConnection(h.config.redisUrl) });
  await closed.waitUntilReady();
  await closed.close();
  const broken = new FailureIngestBatcher(store, new RepairScheduler(closed, store, h.config));
  const [old, fresh] = await Promise.allSettled([broken.submit(record('fp-old', 'o2')), broken.submit(record('fp-new', 'n1'))]);
  assert.equal(old.status, 'fulfilled', 'the bug whose job exists is acknowledged');
  assert.equal(fresh.status, 'rejected', 'the bug whose job could not be added is not');
  // The report itself is stored; a retry with the same request id gets the job.
  const retry = await batcher.submit(record('fp-new', 'n1'));
  assert.equal(retry.fresh, false);
  assert.ok(await h.daemon.context.queue.getJob('fp-new'));
});
