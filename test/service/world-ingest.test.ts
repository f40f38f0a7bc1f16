import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallWorld } from '../../core/world.ts';
import { startHarness } from '../../testkit/service-harness.ts';
import { PRICE_SOURCE, priceReport } from './price-block.ts';

const WORLD: CallWorld = {
  uses: { RATES: { EUR: { rate: 0.9 } } },
  calls: [{ path: 'audit.log', args: ['price', 2], async: true, result: true }],
};

test('the world of a failing call and of recorded calls is stored with the case; the same args in another world are another case; oversized worlds are refused', { timeout: 60_000 }, async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { store } = h.daemon.context;

  const first = await h.call('/v1/failures', { body: { ...priceReport(['RATES', 'audit']), world: WORLD } });
  assert.equal(first.status, 202);
  const { fingerprint } = await first.json();
  const otherWorld: CallWorld = { ...WORLD, uses: { RATES: { EUR: { rate: 0.8 } } } };
  assert.equal((await h.call('/v1/failures', { body: { ...priceReport(['RATES', 'audit']), world: otherWorld } })).status, 202);
  const cases = await store.bugCases(fingerprint);
  assert.equal(cases.length, 2, 'same arguments, two worlds: two cases');
  assert.deepEqual(cases.map((c) => c.world).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))), [otherWorld, WORLD]);

  const batch = {
    requestId: 'cases-world-1', app: 'shop', instanceId: 'i-1',
    blocks: [{ id: 'price', description: 'price of an item in its currency', source: PRICE_SOURCE, uses: ['RATES', 'audit'], calls: [{ args: [{ qty: 1, currency: 'EUR' }], result: 0.9, argsAfter: [{ qty: 1, currency: 'EUR' }], at: new Date().toISOString(), world: { ...WORLD, usesAfter: WORLD.uses } }] }],
  };
  assert.equal((await h.call('/v1/cases', { body: batch })).status, 202);
  const bug = await store.getBug(fingerprint);
  const recorded = await store.recordedCalls('shop', 'price', bug!.sourceHash);
  assert.deepEqual(recorded.map((c) => c.world), [{ ...WORLD, usesAfter: WORLD.uses }]);

  // Hostile worlds: an unknown field, a call's async not a boolean, a call with the old `mode` field, a snapshot that does not decode.
  for (const world of [
    { ...WORLD, extra: 1 },
    { ...WORLD, calls: [{ path: 'x', args: [], async: 'later' }] },
    { ...WORLD, calls: [{ path: 'x', args: [], mode: 'sync' }] },
    { ...WORLD, uses: { RATES: { $t: 'no-such-tag' } } },
  ]) {
    const res = await h.call('/v1/failures', { body: { ...priceReport(['RATES', 'audit']), world } });
    assert.equal(res.status, 400, JSON.stringify(world));
  }
});
