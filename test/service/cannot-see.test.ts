import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startHarness } from '../../testkit/service-harness.ts';
import { MESSAGE, PRICE_SOURCE, priceReport } from './price-block.ts';
import { suture } from '../cli/cli-process.ts';


test('a block that reads a name suture cannot see: stored with status cannot-see, no job, a clear ack; status and admin API say so; with uses it is searched', { timeout: 90_000 }, async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { store } = h.daemon.context;

  const res = await h.call('/v1/failures', { body: priceReport() });
  assert.equal(res.status, 202);
  const ack = await res.json();
  assert.equal(ack.status, 'cannot-see');
  assert.deepEqual(ack.names, ['RATES']);
  assert.equal(ack.message, MESSAGE);
  assert.match(ack.fingerprint, /^[0-9a-f]{32}$/);
  assert.equal(typeof ack.jobId, 'string', 'the existing fields stay');

  // Nothing lost: the bug, its failing input and the block are stored; no repair job exists.
  const bug = await store.getBug(ack.fingerprint);
  assert.equal(bug?.status, 'cannot-see');
  assert.deepEqual(bug?.unseen, ['RATES']);
  assert.equal(bug?.reason, MESSAGE);
  assert.deepEqual((await store.bugCases(ack.fingerprint)).map((c) => c.args), [[{ qty: 2, currency: 'XTS' }]]);
  assert.equal((await store.getBlock('shop', 'price', bug!.sourceHash))?.source, PRICE_SOURCE);
  assert.equal(await h.daemon.context.scheduler.queue.getJob(ack.jobId), undefined, 'no repair job queued');

  // The same block failing again on another input: still not searched.
  const again = await (await h.call('/v1/failures', { body: { ...priceReport(), args: [{ qty: 1, currency: 'XXX' }] } })).json();
  assert.equal(again.fingerprint, ack.fingerprint);
  assert.equal(again.status, 'cannot-see');
  assert.equal(await h.daemon.context.scheduler.queue.getJob(ack.jobId), undefined);

  // The admin API and `suture status` show the status and what to do.
  const admin = await (await h.call('/v1/admin/bugs?app=shop', { token: ADMIN_TOKEN })).json();
  const listed = admin.bugs.find((b: { fingerprint: string }) => b.fingerprint === ack.fingerprint);
  assert.equal(listed.status, 'cannot-see');
  assert.deepEqual(listed.unseen, ['RATES']);
  assert.equal(listed.reason, MESSAGE);
  const status = await suture(['status', '--url', h.url, '--token', ADMIN_TOKEN]);
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /price\s+cannot-see/);
  assert.ok(status.stdout.includes(`${ack.fingerprint.slice(0, 16)} cannot-see: ${MESSAGE}`), status.stdout);

  // The same block with RATES in its uses is another bug (its inputs carry RATES), and is searched.
  const withUses = await (await h.call('/v1/failures', { body: priceReport(['RATES']) })).json();
  assert.notEqual(withUses.fingerprint, ack.fingerprint);
  assert.equal(withUses.status, 'new');
  assert.equal(withUses.names, undefined);
  assert.ok(await h.daemon.context.scheduler.queue.getJob(withUses.jobId), 'its repair job is queued');
  assert.deepEqual((await store.getBug(withUses.fingerprint))?.uses, ['RATES']);
  assert.equal((await store.getBug(ack.fingerprint))?.status, 'cannot-see', 'the earlier bug stays as it was');
});

test("a failing call that threw 'X is not defined' proves X undefined in the app: the block is searched, not held as cannot-see", { timeout: 60_000 }, async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const report = { ...priceReport(), error: { name: 'ReferenceError', message: 'RATES is not defined', stack: 'ReferenceError: RATES is not defined\n    at price (/srv/app/price.js:2:20)' } };
  const ack = await (await h.call('/v1/failures', { body: report })).json();
  assert.notEqual(ack.status, 'cannot-see');
  assert.equal(ack.names, undefined);
  assert.ok(await h.daemon.context.scheduler.queue.getJob(ack.jobId), 'a repair job is queued');
});
