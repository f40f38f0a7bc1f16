import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Manifest } from '../../core/wire.ts';
import { ADMIN_TOKEN, failureReport, recordedBatch, startHarness, until, type Harness } from '../../testkit/service-harness.ts';

const admin = (h: Harness, path: string, body?: unknown, actor = 'alice') =>
  h.call(path, { token: ADMIN_TOKEN, body, method: body === undefined ? 'GET' : path.includes('/policies') ? 'PUT' : 'POST', headers: { 'x-suture-actor': actor } });

async function repairOnce(h: Harness) {
  await h.call('/v1/cases', { body: recordedBatch() });
  const { fingerprint } = await (await h.call('/v1/failures', { body: failureReport() })).json();
  await h.startWorker();
  const bug = await until(async () => {
    const b = await h.daemon.context.store.getBug(fingerprint);
    return b?.status === 'patched' ? b : null;
  });
  // Later rounds are inspected, not run.
  await h.worker!.close();
  h.worker = undefined;
  return { fingerprint, patchId: bug.patchId! };
}

test('manual policy: the patch waits in pending-approval until an admin approves it; every decision is audited', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const set = await admin(h, '/v1/admin/policies', { app: 'shop', blockId: 'order-total', policy: 'manual' });
  assert.equal(set.status, 200);

  const { fingerprint, patchId } = await repairOnce(h);
  const pending = await (await admin(h, `/v1/admin/patches/${patchId}`)).json();
  assert.equal(pending.status, 'pending-approval');
  assert.equal(pending.rollout, 0);
  const before = (await (await h.call('/v1/manifest?app=shop')).json()) as Manifest;
  assert.equal(before.patches.length, 0, 'an unapproved patch is not served');
  assert.equal((await h.call(`/v1/failures/${fingerprint}/patch?wait=0`)).status, 204);

  // An app token cannot approve.
  assert.equal((await h.call(`/v1/admin/patches/${patchId}/approve`, { body: {} })).status, 403);

  const waiting = h.call(`/v1/failures/${fingerprint}/patch?wait=10000`);
  const approved = await admin(h, `/v1/admin/patches/${patchId}/approve`, { reason: 'diff reviewed' });
  assert.equal(approved.status, 200);
  assert.equal((await approved.json()).patch.status, 'active');
  const polled = await waiting;
  assert.equal(polled.status, 200, 'the long poll is released by the approval');
  assert.equal((await polled.json()).id, patchId);
  const after = (await (await h.call('/v1/manifest?app=shop')).json()) as Manifest;
  assert.equal(after.patches[0].status, 'active');
  assert.ok(after.revision > before.revision);
  assert.equal((await admin(h, `/v1/admin/patches/${patchId}/approve`, {})).status, 409, 'approving twice is a conflict');

  const rolled = await admin(h, `/v1/admin/patches/${patchId}/rollback`, { reason: 'customer report' }, 'bob');
  assert.equal((await rolled.json()).patch.status, 'rolled-back');

  const { entries } = await (await admin(h, '/v1/admin/audit')).json();
  const actions = entries.map((e: { actor: string; action: string; target: string }) => `${e.actor}:${e.action}:${e.target}`);
  assert.deepEqual(actions, [`bob:rollback:${patchId}`, `alice:approve:${patchId}`, 'alice:set-policy:shop/order-total']);
  assert.equal(entries[1].detail.reason, 'diff reviewed');
  assert.ok(Date.parse(entries[0].at) > 0);
});

test('canary: outcome reports promote 10 % → 50 % → 100 %, then failures roll it back and re-queue the bug with the patched failures', async (t) => {
  const h = await startHarness({ canaryCleanCalls: 10, rollbackMinCalls: 10, rollbackThreshold: 0.2 }, { SUTURE_POLICY: 'canary' });
  t.after(() => h.close());
  const { fingerprint, patchId } = await repairOnce(h);
  const store = h.daemon.context.store;
  assert.equal((await store.getPatch(patchId))?.status, 'canary');
  assert.equal((await store.getPatch(patchId))?.rollout, 0.1);

  const outcomes = async (passed: number, threw: number, requestId = `o-${Math.random()}`) =>
    (await h.call('/v1/outcomes', { body: { requestId, app: 'shop', instanceId: 'i-1', outcomes: [{ patchId, passed, threw }] } })).json();

  assert.equal((await outcomes(6, 0)).decisions[0].decision, 'counted');
  const p1 = await outcomes(4, 0, 'promote-1');
  assert.deepEqual(p1.decisions[0], { patchId, decision: 'promoted', status: 'canary', rollout: 0.5 });
  assert.equal((await outcomes(4, 0, 'promote-1')).duplicate, true, 'a resent outcome report counts once');
  const p2 = await outcomes(10, 0);
  assert.deepEqual(p2.decisions[0], { patchId, decision: 'promoted', status: 'active', rollout: 1 });
  const manifest = (await (await h.call('/v1/manifest?app=shop')).json()) as Manifest;
  assert.equal(manifest.patches[0].rollout, 1);

  // The patched block starts failing: its inputs are reported with the patch id, then the counts.
  const patchedFailure = failureReport({ patchId, args: [null], error: { name: 'TypeError', message: "Cannot read properties of null (reading 'items')" } });
  const ack = await (await h.call('/v1/failures', { body: patchedFailure })).json();
  assert.equal(ack.fingerprint, fingerprint, 'a patched failure belongs to the bug the patch fixed');
  const rb = await outcomes(2, 10);
  assert.equal(rb.decisions[0].decision, 'rolled-back');
  const patch = await store.getPatch(patchId);
  assert.equal(patch?.status, 'rolled-back');
  assert.equal(patch?.threw, 10);
  const served = (await (await h.call('/v1/manifest?app=shop')).json()) as Manifest;
  assert.equal(served.patches[0].status, 'rolled-back', 'SDKs learn of the rollback');

  const bug = await store.getBug(fingerprint);
  assert.equal(bug?.round, 2);
  assert.equal(bug?.status, 'new');
  const job = await h.daemon.context.queue.getJob(`${fingerprint}-r2`);
  assert.deepEqual(job?.data, { fingerprint, app: 'shop', round: 2 });
  const cases = await store.bugCases(fingerprint);
  assert.ok(cases.some((c) => c.patchId === patchId && c.args[0] === null), 'the failing patched input is a case of the next round');

  const { entries } = await (await admin(h, '/v1/admin/audit')).json();
  assert.deepEqual(entries.map((e: { action: string }) => e.action), ['requeue', 'auto-rollback', 'auto-promote', 'auto-promote']);
  assert.ok(entries.every((e: { actor: string }) => e.actor === 'system'));
});
