import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Manifest } from '../../core/wire.ts';
import type { RepairJobReport } from '../../worker/repair-job-report.ts';
import { ADMIN_TOKEN, failureReport, recordedBatch, startHarness, until } from '../../testkit/service-harness.ts';

test('a low-confidence winner is held for approval under the auto policy, with the disagreeing inputs in its job report', { timeout: 120_000 }, async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  assert.equal(h.config.policy, 'auto');
  const store = h.daemon.context.store;

  // Two recorded calls only: nothing says what an order whose item is null should total, and the
  // plausible fixes disagree there (the winner throws, a rival skips the item and answers 0).
  const batch = recordedBatch();
  batch.blocks[0].calls = batch.blocks[0].calls.slice(0, 2);
  await h.call('/v1/cases', { body: batch });
  const { fingerprint } = await (await h.call('/v1/failures', { body: failureReport() })).json();
  await h.startWorker();
  const bug = await until(async () => {
    const b = await store.getBug(fingerprint);
    return b?.patchId ? b : null;
  }, 60_000);
  const report = (await store.getReport(fingerprint, bug.round)) as RepairJobReport;
  assert.equal(report.confidence?.level, 'low', `the engine's confidence on this job: ${report.confidence?.reason}`);
  assert.ok(report.confidence!.disagreements.length > 0, 'the report shows the inputs the candidates disagree on');
  for (const d of report.confidence!.disagreements) assert.ok(new Set(d.answers.map((a) => a.answer)).size > 1);
  const patch = await store.getPatch(bug.patchId!);
  assert.equal(patch?.status, 'pending-approval', `held whatever the policy (got ${patch?.status})`);
  assert.equal(patch?.rollout, 0);
  const manifest = (await (await h.call('/v1/manifest?app=shop')).json()) as Manifest;
  assert.equal(manifest.patches.length, 0, 'not served before an operator approves it');
  const approved = await h.call(`/v1/admin/patches/${bug.patchId}/approve`, { token: ADMIN_TOKEN, body: { reason: 'rival behaviour reviewed' }, headers: { 'x-suture-actor': 'alice' } });
  assert.equal(approved.status, 200);
  assert.equal((await approved.json()).patch.status, 'active');
});
