import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Policy } from '../../config/config-settings.ts';
import type { Manifest, PatchStatus } from '../../core/wire.ts';
import {
  DECISION_NAMES, INITIAL_MODE, MANIFEST_STATUSES, PATCH_DECISIONS, PATCH_STATUSES, POLICY_START,
  applyOutcomeRules, canaryStep, decisionAllowed, initialPlacement, offeredDecisions, type OutcomeRules, type OutcomeState,
} from '../../service/patch-lifecycle.ts';
import type { PatchDoc, ServiceStore } from '../../service/store/service-store.ts';
import { publishPatch } from '../../worker/patch-publisher.ts';
import { ADMIN_TOKEN, failureReport, startHarness, type Harness } from '../../testkit/service-harness.ts';

const STEPS = [0.1, 0.5, 1];
const RULES: OutcomeRules = { steps: STEPS, cleanCalls: 10, threshold: 0.2, minCalls: 20 };

/** Stores a patch directly in the given state (the store's own script, then the counters). */
async function seedPatch(store: ServiceStore, app: string, s: OutcomeState): Promise<string> {
  const fingerprint = randomBytes(16).toString('hex');
  const id = `${fingerprint.slice(0, 16)}-v1`;
  const doc: PatchDoc = {
    id, app, blockId: 'order-total', sourceHash: 'a'.repeat(64), version: 1, source: 'function (o) { return 0; }', fingerprint,
    signature: 'unsigned', score: { generator: 'test', description: 'seeded', passed: 1, total: 1, editSize: 1 },
  };
  const r = await store.storePatch(doc, s.status, s.rollout);
  assert.ok(r.stored);
  await store.redis.hset(store.keys.patch(id), { step: s.step, passed: s.passed, threw: s.threw, stepPassed: s.stepPassed, stepThrew: s.stepThrew });
  return id;
}

/** Starting points: each status at a canary step or at its end, with counters near the thresholds. */
const STATES: OutcomeState[] = PATCH_STATUSES.flatMap((status) => [
  { status, rollout: status === 'canary' ? 0.1 : status === 'active' ? 1 : 0, step: 0, passed: 0, threw: 0, stepPassed: 0, stepThrew: 0 },
  { status, rollout: status === 'canary' ? 0.5 : status === 'active' ? 1 : 0, step: 1, passed: 15, threw: 3, stepPassed: 8, stepThrew: 1 },
]);

/** Outcome reports: nothing decisive, enough clean calls, clean shadow runs, a disagreement, many throws, throws below the minimum. */
const OUTCOMES = [
  { passed: 1, threw: 0 },
  { passed: 10, threw: 0 },
  { passed: 0, threw: 0, agreed: 12 },
  { passed: 5, threw: 0, agreed: 3, disagreed: 1 },
  { passed: 2, threw: 10 },
  { passed: 0, threw: 3 },
  { passed: 9, threw: 1 },
  // From 15 passed / 3 threw: exactly the threshold share of throws at the minimum of calls.
  { passed: 1, threw: 1 },
];

test('apply-outcome-3.lua does what the lifecycle table says for every status × outcome report', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { store } = h.daemon.context;
  const seen = new Set<string>();
  for (const state of STATES) {
    for (const counts of OUTCOMES) {
      const id = await seedPatch(store, 'shop', state);
      const expected = applyOutcomeRules(state, counts, RULES);
      const got = await store.applyOutcome((await store.getPatch(id))!, counts, RULES);
      const label = `${JSON.stringify(state)} + ${JSON.stringify(counts)}`;
      assert.equal(got.decision, expected.decision, label);
      assert.equal(got.status, expected.status, label);
      assert.equal(got.rollout, expected.rollout, label);
      assert.equal(got.reason, expected.reason, label);
      const after = (await store.getPatch(id))!;
      assert.equal(after.status, expected.status, label);
      assert.equal(after.rollout, expected.rollout, label);
      assert.equal(after.step, expected.step, label);
      assert.equal(after.passed, state.passed + counts.passed, label);
      if (expected.decision === 'rolled-back') assert.equal((await store.redis.hget(store.keys.bug(after.fingerprint), 'status')), 'rolled-back', label);
      seen.add(`${expected.decision}:${expected.reason ?? ''}`);
    }
  }
  // The scenarios reach every rule of the table.
  assert.deepEqual([...seen].sort(), ['counted:', 'ignored:', 'promoted:', 'rolled-back:shadow', 'rolled-back:threw']);
});

test('the admin API allows a decision exactly from the statuses the table lists, with the table\'s effect; the manifest lists the table\'s statuses', async (t) => {
  const h = await startHarness({ canarySteps: STEPS });
  t.after(() => h.close());
  const { store } = h.daemon.context;
  const admin = (path: string, body: unknown = {}) => h.call(path, { token: ADMIN_TOKEN, body });
  let allowed = 0;
  for (const status of PATCH_STATUSES) {
    for (const decision of DECISION_NAMES) {
      const state: OutcomeState = { status, rollout: status === 'canary' ? 0.5 : status === 'active' ? 1 : 0, step: status === 'canary' ? 1 : 0, passed: 0, threw: 0, stepPassed: 0, stepThrew: 0 };
      const id = await seedPatch(store, 'shop', state);
      const view = await (await h.call(`/v1/admin/patches/${id}`, { token: ADMIN_TOKEN })).json();
      assert.deepEqual(view.decisions, offeredDecisions({ status, mode: INITIAL_MODE }), `${status}: offered decisions`);
      const res = await admin(`/v1/admin/patches/${id}/${decision}`);
      const label = `${decision} from ${status}`;
      const row = PATCH_DECISIONS[decision];
      if (!decisionAllowed(decision, status)) {
        assert.equal(res.status, 409, label);
        assert.equal((await res.json()).code, 'SUTURE_CONFLICT', label);
        assert.equal((await store.getPatch(id))!.status, status, `${label}: unchanged`);
        continue;
      }
      allowed++;
      assert.equal(res.status, 200, label);
      const { patch } = await res.json();
      if (row.kind === 'mode') {
        assert.equal(patch.status, status, label);
        assert.equal(patch.mode, row.mode, label);
        assert.equal(Boolean(patch.modeSignature), row.mode === 'replace', label);
      } else {
        const to = row.to(state, STEPS);
        assert.deepEqual([patch.status, patch.rollout, patch.step], [to.status, to.rollout, to.step], label);
        if (row.bugStatus) assert.equal(await store.redis.hget(store.keys.bug(patch.fingerprint), 'status'), row.bugStatus, label);
      }
    }
  }
  assert.equal(allowed, DECISION_NAMES.reduce((n, d) => n + PATCH_DECISIONS[d].from.length, 0));

  // Every stored status, and only the manifest's, reaches the SDKs.
  const manifest = (await (await h.call('/v1/manifest?app=shop')).json()) as Manifest;
  const listed = new Set(manifest.patches.map((p) => p.status));
  assert.deepEqual([...listed].sort(), [...MANIFEST_STATUSES].sort());
});

test('the publisher places a new patch where the table says for each policy', async (t) => {
  const h: Harness = await startHarness({ canarySteps: STEPS });
  t.after(() => h.close());
  const { store, keys } = h.daemon.context;
  for (const policy of Object.keys(POLICY_START) as Policy[]) {
    const blockId = `block-${policy}`;
    await store.setPolicy(`shop/${blockId}`, policy);
    const ack = await (await h.call('/v1/failures', { body: failureReport({ block: { id: blockId, description: policy, source: 'function (o) {\n  return o.x.y;\n}' } }) })).json();
    const bug = (await store.getBug(ack.fingerprint))!;
    const r = await publishPatch({
      store, keys, config: h.config, bug, round: 1,
      winner: { rank: 1, generator: 'test', description: 'guard', prior: 0.5, suspect: false, source: 'function (o) {\n  return o.x?.y;\n}', diff: '', editSize: 1, status: 'plausible', passed: 1, total: 1, trials: [], ms: 1, score: 1 },
      evidence: { failing: 1, recorded: 0, generated: 0, tests: 0, recheck: { passed: 1, total: 1 } },
    });
    const want = initialPlacement(policy, STEPS);
    const stored = (await store.getPatch(r.patchId))!;
    assert.deepEqual([stored.status, stored.rollout, stored.step, stored.mode], [want.status, want.rollout, want.step, INITIAL_MODE], policy);
  }
  // A canary policy whose first step is the whole fleet starts active.
  assert.deepEqual(initialPlacement('canary', [1]), { status: 'active', rollout: 1, step: 0 });
  assert.deepEqual(canaryStep(STEPS, 5), { status: 'active', rollout: 1, step: 5 });
});

test('every status has a row and every decision names only known statuses', () => {
  const statuses: PatchStatus[] = ['pending-approval', 'canary', 'active', 'rolled-back', 'rejected', 'superseded'];
  assert.deepEqual([...PATCH_STATUSES].sort(), [...statuses].sort());
  for (const d of DECISION_NAMES) for (const s of PATCH_DECISIONS[d].from) assert.ok(PATCH_STATUSES.includes(s), `${d} from ${s}`);
});
