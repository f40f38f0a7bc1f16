import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { canonicalPatchPayload, verifyPatchSignature } from '../../core/patch-signature.ts';
import { describeEvidence, evidenceFromCases, evidenceWarning, FAILING_INPUTS_ONLY } from '../../core/patch-evidence.ts';
import type { Manifest, ManifestPatch, PatchEvidence } from '../../core/wire.ts';
import type { PatchRecord } from '../../service/store/service-store.ts';
import { publishPatch } from '../../worker/patch-publisher.ts';
import type { CandidateReport } from '../../engine/repair-report.ts';
import { suture } from '../cli/cli-process.ts';
import { ADMIN_TOKEN, failureReport, recordedBatch, startHarness, until } from '../../testkit/service-harness.ts';

/**
 * Must hold: a published patch carries, inside its signature, how many failing inputs, recorded
 * calls, generated inputs and tests it was checked against and its re-check verdict; the admin API,
 * `suture patches` and the manifest show it; inflating or dropping it breaks the signature; a patch
 * signed before evidence existed still verifies; a patch checked against failing inputs only is
 * flagged wherever it is listed.
 */
type PatchView = PatchRecord & { evidenceWarning?: string };

test('a worker-published patch carries signed evidence: cases by kind and a full re-check, shown by the admin API, the manifest and the long poll', { timeout: 90_000 }, async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  await h.startWorker();
  assert.equal((await h.call('/v1/cases', { body: recordedBatch() })).status, 202);
  const { fingerprint, jobId } = await (await h.call('/v1/failures', { body: failureReport() })).json();
  const live = await h.call(`/v1/failures/${fingerprint}/patch?wait=30000`);
  assert.equal(live.status, 200);
  const polled = (await live.json()) as ManifestPatch;

  const { patches } = (await (await h.call('/v1/admin/patches?app=shop', { token: ADMIN_TOKEN })).json()) as { patches: PatchView[] };
  assert.equal(patches.length, 1);
  const e = patches[0].evidence!;
  assert.ok(e, 'evidence stored with the patch');
  assert.equal(e.failing, 1);
  assert.equal(e.recorded, 3);
  assert.equal(e.tests, 0);
  assert.ok(e.generated >= 0);
  assert.equal(e.recheck.total, e.failing + e.recorded + e.generated + e.tests, 'the re-check ran every case');
  assert.equal(e.recheck.passed, e.recheck.total);
  assert.equal(patches[0].evidenceWarning, undefined, 'recorded calls vouched for it');
  const job = await (await h.call(`/v1/admin/jobs/${jobId}`, { token: ADMIN_TOKEN })).json();
  assert.equal(job.report.recheck.total, e.recheck.total);
  assert.equal(job.report.recheck.refused, false);
  const one = (await (await h.call(`/v1/admin/patches/${patches[0].id}`, { token: ADMIN_TOKEN })).json()) as PatchView;
  assert.deepEqual(one.evidence, e);

  // What an SDK gets (manifest and long poll) has the evidence, and it is covered by the signature.
  const { publicKey } = await (await h.call('/v1/public-key', { token: null })).json();
  const manifest = (await (await h.call('/v1/manifest?app=shop')).json()) as Manifest;
  for (const p of [manifest.patches[0], polled]) {
    assert.deepEqual(p.evidence, e);
    assert.equal(verifyPatchSignature(p, publicKey), true);
    assert.equal(verifyPatchSignature({ ...p, evidence: { ...e, recorded: 99 } }, publicKey), false, 'inflated evidence');
    assert.equal(verifyPatchSignature({ ...p, evidence: { ...e, recheck: { passed: 9, total: 9 } } }, publicKey), false, 'another re-check verdict');
    assert.equal(verifyPatchSignature({ ...p, evidence: undefined }, publicKey), false, 'evidence dropped');
  }
});

test('signatures without evidence keep their old bytes and still verify; evidence counts by case kind', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const fields = { id: 'p-1', app: 'shop', blockId: 'b', sourceHash: 'a'.repeat(64), version: 1, source: '(x) => x', fingerprint: 'f'.repeat(32) };
  // The payload as every patch before evidence was signed: these seven keys in this order.
  assert.equal(canonicalPatchPayload(fields).toString('utf8'), JSON.stringify(fields));
  const legacy = { ...fields, signature: sign(null, Buffer.from(JSON.stringify(fields)), privateKey).toString('base64') };
  assert.equal(verifyPatchSignature(legacy, publicKey), true);
  assert.equal(verifyPatchSignature({ ...legacy, evidence: { failing: 1, recorded: 0, generated: 0, tests: 0, recheck: { passed: 1, total: 1 } } }, publicKey), false, 'evidence added after signing');
  assert.equal(verifyPatchSignature({ ...legacy, evidence: 'junk' as unknown as PatchEvidence }, publicKey), false);

  const kinds = ['failure', 'failure', 'recorded', 'generated', 'generated', 'generated', 'test'];
  const e = evidenceFromCases(kinds.map((kind, i) => ({ id: `c${i}`, kind: kind as 'failure', check: 'no-throw' })), { passed: 7, total: 7 });
  assert.deepEqual(e, { failing: 2, recorded: 1, generated: 3, tests: 1, recheck: { passed: 7, total: 7 } });
  assert.equal(evidenceWarning(e), undefined);
  assert.equal(evidenceWarning({ ...e, recorded: 0 }), undefined, 'generated inputs vouch too');
  assert.equal(evidenceWarning({ ...e, recorded: 0, generated: 0 }), FAILING_INPUTS_ONLY);
  assert.equal(describeEvidence(e), '2 failing, 1 recorded, 3 generated, 1 tests; re-check 7/7');
  assert.match(describeEvidence(undefined), /no evidence/);
});

test('a patch checked against failing inputs only is flagged by the admin API and `suture patches`', { timeout: 60_000 }, async (t) => {
  const h = await startHarness({ policy: 'manual' });
  t.after(() => h.close());
  const { fingerprint } = await (await h.call('/v1/failures', { body: failureReport() })).json();
  const store = h.daemon.context.store;
  const winner: CandidateReport = {
    rank: 1, generator: 'template:null-safety', description: 'default `order.items` to []', prior: 0.5, suspect: false,
    source: 'function (order) {\n  let total = 0;\n  for (const item of order.items ?? []) total += item.price * item.qty;\n  return total;\n}',
    diff: '', editSize: 6, status: 'plausible', passed: 1, total: 1, trials: [], ms: 1, score: 1,
  };
  const evidence = { failing: 1, recorded: 0, generated: 0, tests: 0, recheck: { passed: 1, total: 1 } };
  const published = await publishPatch({ store, keys: h.daemon.context.keys, config: h.config, bug: (await store.getBug(fingerprint))!, round: 1, winner, evidence });

  const view = await until(async () => {
    const r = (await (await h.call(`/v1/admin/patches/${published.patchId}`, { token: ADMIN_TOKEN })).json()) as PatchView;
    return r.evidence ? r : undefined;
  });
  assert.deepEqual(view.evidence, evidence);
  assert.equal(view.evidenceWarning, FAILING_INPUTS_ONLY);
  const list = (await (await h.call('/v1/admin/patches?app=shop', { token: ADMIN_TOKEN })).json()) as { patches: PatchView[] };
  assert.equal(list.patches[0].evidenceWarning, FAILING_INPUTS_ONLY);

  const cli = await suture(['patches', '--app', 'shop', '--url', h.url, '--token', ADMIN_TOKEN]);
  assert.equal(cli.code, 0, cli.stderr);
  assert.match(cli.stdout, /CHECKED AGAINST\s+RE-CHECK/);
  assert.match(cli.stdout, /⚠ 1 failing, 0 recorded, 0 generated, 0 tests\s+1\/1/);
  assert.ok(cli.stdout.includes(`⚠ ${published.patchId}: checked against failing inputs only (no recorded call, no generated input)`), cli.stdout);
});
