import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, failureReport, startHarness, until, type Harness } from '../../testkit/service-harness.ts';
import { MESSAGE, priceReport } from './price-block.ts';

/** Far longer than any answer below may take. */
const POLL_MS = 20_000;

async function poll(h: Harness, fingerprint: string): Promise<{ status: number; body: Record<string, unknown> | null; ms: number }> {
  const t0 = Date.now();
  const res = await h.call(`/v1/failures/${fingerprint}/patch?wait=${POLL_MS}`);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, ms: Date.now() - t0 };
}

test('the long poll of a cannot-see bug answers at once: no patch will come', { timeout: 60_000 }, async (t) => {
  const h = await startHarness({ longPollMaxMs: POLL_MS });
  t.after(() => h.close());
  const ack = await (await h.call('/v1/failures', { body: priceReport() })).json();
  assert.equal(ack.status, 'cannot-see');
  const answer = await poll(h, ack.fingerprint);
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, { status: 'no-patch', bugStatus: 'cannot-see', reason: MESSAGE, names: ['RATES'] });
  assert.ok(answer.ms < 2_000, `answered in ${answer.ms} ms, not at the ${POLL_MS} ms deadline`);
  t.diagnostic(`cannot-see: answered in ${answer.ms} ms (deadline ${POLL_MS} ms)`);
});

test('an operator requeue of a cannot-see bug: the worker refuses to search it, and a held long poll answers when it does', { timeout: 90_000 }, async (t) => {
  const h = await startHarness({ longPollMaxMs: POLL_MS });
  t.after(() => h.close());
  const ack = await (await h.call('/v1/failures', { body: priceReport() })).json();
  assert.equal(ack.status, 'cannot-see');
  const requeue = await h.call(`/v1/admin/bugs/${ack.fingerprint}/requeue`, { token: ADMIN_TOKEN, body: {} });
  assert.equal(requeue.status, 202);
  const { jobId } = await requeue.json();
  assert.equal((await h.daemon.context.store.getBug(ack.fingerprint))?.status, 'new');

  // Held while the job is queued; the worker's answer ends it.
  const held = poll(h, ack.fingerprint);
  await new Promise((r) => setTimeout(r, 300));
  await h.startWorker();
  const answer = await held;
  assert.equal(answer.status, 200);
  assert.equal(answer.body?.status, 'no-patch');
  assert.equal(answer.body?.bugStatus, 'cannot-see');
  assert.deepEqual(answer.body?.names, ['RATES']);
  assert.ok(answer.ms < POLL_MS / 2, `answered in ${answer.ms} ms`);
  t.diagnostic(`requeued cannot-see: held poll answered ${answer.ms} ms after it was opened (worker started at 300 ms; deadline ${POLL_MS} ms)`);
  const job = await until(async () => {
    const j = await h.daemon.context.scheduler.queue.getJob(jobId);
    return j?.finishedOn ? j : null;
  });
  assert.deepEqual(job.returnvalue, { ended: 'skipped', reason: MESSAGE });
});

test('the long poll answers at once when the repair job ends without a plausible candidate', { timeout: 90_000 }, async (t) => {
  const h = await startHarness({ longPollMaxMs: POLL_MS });
  t.after(() => h.close());
  const ack = await (await h.call('/v1/failures', { body: failureReport() })).json();
  assert.equal(ack.status, 'new');

  // Held before any worker runs; a 1 ms search budget ends the job with no candidate.
  const held = poll(h, ack.fingerprint);
  await new Promise((r) => setTimeout(r, 300));
  await h.startWorker({ budgetMs: 1 });
  const answer = await held;
  assert.equal(answer.status, 200);
  assert.equal(answer.body?.status, 'no-patch');
  assert.equal(answer.body?.bugStatus, 'unpatched');
  assert.match(String(answer.body?.reason), /^the repair search ended without a plausible candidate \(0 tried, stopped by budget\)$/);
  assert.ok(answer.ms < POLL_MS / 2, `answered in ${answer.ms} ms, not at the ${POLL_MS} ms deadline`);
  t.diagnostic(`unpatched: held poll answered ${answer.ms} ms after it was opened (worker started at 300 ms; deadline ${POLL_MS} ms)`);

  // Asked again later: at once, from the stored status.
  const later = await poll(h, ack.fingerprint);
  assert.equal(later.body?.bugStatus, 'unpatched');
  assert.ok(later.ms < 2_000, `answered in ${later.ms} ms`);

  // A new distinct failing input opens a new round: the poll waits again (204 at a short deadline).
  await h.worker?.close();
  h.worker = undefined;
  const reopened = await (await h.call('/v1/failures', { body: failureReport({ args: [{ id: 8 }] }) })).json();
  assert.equal(reopened.status, 'new');
  assert.equal((await h.daemon.context.store.getBug(ack.fingerprint))?.reason, undefined, 'the reason goes with the round');
  const t0 = Date.now();
  const waiting = await h.call(`/v1/failures/${ack.fingerprint}/patch?wait=300`);
  assert.equal(waiting.status, 204);
  assert.ok(Date.now() - t0 >= 250, 'a bug whose new round is queued is waited for');
});
