import assert from 'node:assert/strict';
import { sign } from 'node:crypto';
import { after, before, test } from 'node:test';
import { canonicalPatchPayload } from '../../core/patch-signature.ts';
import type { SignedPatchFields } from '../../core/wire.ts';
import { createRepairClient, type RepairClient, type ShadowEvent, type SyncEvent } from '../../sdk/index.ts';
import { ADMIN_TOKEN, GAME_TOKEN, startHarness, until, type Harness } from '../../testkit/service-harness.ts';

/**
 * Fallback mode and shadow runs with the real SDK (default options), daemon, worker and Redis:
 * healthy answers never change, a throwing call gets the patch's answer, and a wrong patch that
 * slipped through is rolled back by shadow disagreement within a bounded number of healthy calls.
 */
type User = { name: string; address?: { city: string; zip: string } };
const label = (user: User) => `${user.name.toUpperCase()}, ${(user.address as { city: string }).city} ${(user.address as { zip: string }).zip}`;
const labelSource = label.toString();
const DESCRIPTION = 'Label line for a parcel: name in capitals, city and zip';
const users: User[] = [
  { name: 'ann', address: { city: 'Lyon', zip: '69001' } },
  { name: 'bo', address: { city: 'Oslo', zip: '0150' } },
  { name: 'cy', address: { city: 'Kyiv', zip: '01001' } },
  { name: 'di', address: { city: 'Rome', zip: '00118' } },
];
const homeless: User = { name: 'eve' };
/** The deliberately wrong patch: right on nothing but the user without an address. */
const WRONG = '(user) => `${user.name.toUpperCase()}, ${user.address}`';
const SHADOW_FIRST = 5; // the SDK's default shadow.first

let h: Harness;
let client: RepairClient;
const shadows: ShadowEvent[] = [];
const syncs: SyncEvent[] = [];
before(async () => {
  h = await startHarness();
  await h.startWorker();
  const publicKey = ((await (await h.call('/v1/public-key')).json()) as { publicKey: string }).publicKey;
  client = createRepairClient({ url: h.url, app: 'game', token: GAME_TOKEN, publicKey, instanceId: 'labels-1' });
  client.on('shadow', (e) => shadows.push(e));
  client.on('sync', (e) => syncs.push(e));
});
after(async () => {
  await client.close();
  await h.close();
});

const run = (u: User) => client.run('parcel-label', DESCRIPTION, label, structuredClone(u));
/** A healthy call: its answer must be the block's own, whatever patch is live. */
const healthy = (u: User) => assert.equal(run(u), label(u), `healthy answer for ${u.name} changed`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A patch the engine is not sure of waits for approval whatever the policy (for this block every
 * plausible fix prints something in place of the missing address, so it often is); the operator
 * approves it here, since what is under test is what happens after publication.
 */
async function approveHeld(): Promise<void> {
  const held = (await h.daemon.context.store.readPatches('game')).patches.filter((p) => p.status === 'pending-approval');
  for (const p of held) await h.call(`/v1/admin/patches/${p.id}/approve`, { body: { reason: 'reviewed in the test' }, token: ADMIN_TOKEN });
}

test('fallback: healthy answers never change, the failing user gets the patch’s answer; a wrong patch is rolled back by shadow disagreement and the bug re-queued with those calls', { timeout: 120_000 }, async () => {
  const store = h.daemon.context.store;
  for (const u of users) healthy(u);
  assert.throws(() => run(homeless), TypeError);

  // The worker repairs it; the SDK picks the patch up from the stream. Meanwhile healthy calls go on.
  const started = Date.now();
  const rescued = await until(async () => {
    await approveHeld();
    for (const u of users) healthy(u);
    try {
      return { answer: run(homeless) as string };
    } catch {
      return null;
    }
  }, 60_000, 50);
  const bug = (await store.listBugs('game')).find((b) => b.blockId === 'parcel-label');
  assert.ok(bug?.patchId, 'the bug has a patch');
  const good = await store.getPatch(bug.patchId);
  assert.ok(good);
  assert.equal(good.mode, 'fallback', 'a new patch starts in fallback mode');
  const patchAnswer = (new Function(`return (${good.source})`)() as (u: User) => string)(structuredClone(homeless));
  assert.equal(rescued.answer, patchAnswer, 'the failing user gets the patch’s answer');
  console.log(`figure: first patch answered the failing user ${Date.now() - started} ms after the failure`);

  // A wrong patch slips through (signed with the fleet key, stored as a worker stores one): the next round's version.
  const round = await store.requeueBug(bug.fingerprint);
  const reserved = await store.reservePatchVersion({ ...bug, round }, round);
  assert.ok('id' in reserved);
  const fields: SignedPatchFields = { id: reserved.id, app: 'game', blockId: 'parcel-label', sourceHash: bug.sourceHash, version: reserved.version, source: WRONG, fingerprint: bug.fingerprint };
  const signature = sign(null, canonicalPatchPayload(fields), h.daemon.context.keys.privateKey).toString('base64');
  const stored = await store.storePatch({ ...fields, signature, score: { generator: 'stub', description: 'wrong on purpose', passed: 1, total: 1, editSize: 1 } }, 'active', 1);
  await until(async () => syncs.some((s) => s.revision >= stored.revision), 10_000, 10);

  // Healthy calls of new users, paced like requests, until the daemon has rolled the wrong patch back.
  const fresh: User[] = Array.from({ length: 40 }, (_, i) => ({ name: `user${i}`, address: { city: `City${i}`, zip: String(10_000 + i) } }));
  const t0 = Date.now();
  let calls = 0;
  let rolledBackAt = 0;
  for (const u of fresh) {
    healthy(u);
    calls++;
    await sleep(20);
    if ((await store.getPatch(reserved.id))?.status === 'rolled-back') {
      rolledBackAt = Date.now();
      break;
    }
  }
  assert.ok(rolledBackAt, `rolled back within ${fresh.length} healthy calls`);
  console.log(`figure: wrong patch rolled back after ${calls} healthy calls, ${rolledBackAt - t0} ms after it reached the SDK`);
  assert.ok(calls <= SHADOW_FIRST, `rolled back within the always-compared first ${SHADOW_FIRST} healthy calls (took ${calls})`);
  const wrongShadows = shadows.filter((s) => s.patchId === reserved.id);
  assert.equal(wrongShadows[0]?.agreed, false, 'the first shadow run of the wrong patch disagreed');
  assert.ok(shadows.filter((s) => s.patchId === good.id).every((s) => s.agreed), 'the right patch never disagreed');

  // Audited with actor 'shadow'; the bug re-queued; the disagreeing calls are recorded calls with the block's answers.
  const audit = (await store.readAudit(50)).filter((e) => e.actor === 'shadow');
  assert.ok(audit.some((e) => e.action === 'auto-rollback' && e.target === reserved.id));
  assert.ok(audit.some((e) => e.action === 'requeue' && e.target === bug.fingerprint));
  const recorded = await store.recordedCalls('game', 'parcel-label', bug.sourceHash);
  const disagreeing = recorded.filter((r) => fresh.some((u) => JSON.stringify(r.args) === JSON.stringify([u])));
  assert.ok(disagreeing.length >= 1, 'a disagreeing call was added as a recorded case');
  for (const r of disagreeing) assert.equal(r.result, label(r.args[0] as User), 'its expectation is the block’s own answer');
  const requeued = await until(async () => {
    const b = await store.getBug(bug.fingerprint);
    return b && b.round > round ? b : null;
  }, 10_000);
  const report = await until(async () => (await store.getReport(bug.fingerprint, requeued.round)) as { winner?: { trials: { caseId: string }[] } } | null, 60_000);
  assert.ok(report.winner, 'the re-queued round found a patch again');
  // The first 3 users are the block's known-good calls; the disagreeing calls come on top.
  assert.ok(report.winner.trials.filter((t) => t.caseId.startsWith('recorded')).length >= 3 + disagreeing.length, 'the next round checks the disagreeing calls too');

  // Healthy answers after all of it are still the block's own; the failing user still gets a patch's answer.
  for (const u of [...users, ...fresh]) healthy(u);
  const last = await until(async () => {
    await approveHeld();
    try {
      return { v: run(homeless) as string };
    } catch {
      return null;
    }
  }, 10_000, 50);
  assert.notEqual(last.v, 'EVE, undefined', 'the wrong patch answers nothing any more');

  // Replace mode is the operator's decision (admin API, audited, signed grant in the manifest).
  const live = (await store.readPatches('game')).patches.filter((p) => p.status === 'active').sort((a, b) => b.version - a.version)[0];
  const res = await h.call(`/v1/admin/patches/${live.id}/replace`, { body: { reason: 'verified by hand' }, token: ADMIN_TOKEN, headers: { 'x-suture-actor': 'ops' } });
  assert.equal(res.status, 200);
  const manifest = (await (await h.call('/v1/manifest?app=game', { token: GAME_TOKEN })).json()) as { patches: { id: string; mode: string; modeSignature?: string }[] };
  const entry = manifest.patches.find((p) => p.id === live.id);
  assert.equal(entry?.mode, 'replace');
  assert.ok(entry?.modeSignature);
  assert.ok((await store.readAudit(10)).some((e) => e.action === 'replace' && e.actor === 'ops' && e.target === live.id));
});
