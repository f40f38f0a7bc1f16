import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import type { CallWorld } from '../../core/world.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { repairBlock } from '../../engine/repair-engine.ts';
import { buildJobCases } from '../../worker/job-cases.ts';
import { recheckWinner } from '../../worker/patch-recheck.ts';

const FN = { $t: 'function', name: 'f' };

// A checkout block reading a module constant and an injected async client.
const CHECKOUT = `async function checkout(cart) {
  const eurPer = await fx.rate(cart.currency);
  const vat = VAT[cart.country];
  const net = cart.lines.reduce((s, l) => s + l.cents * l.qty, 0);
  return { id: cart.id, grossEur: Math.round(net * eurPer * (1 + vat.standard)) };
}`;
const VAT = { DE: { standard: 0.19 }, FR: { standard: 0.2 }, CH: { standard: 0.081 } };

function world(currency: string, rate: number): CallWorld {
  return { uses: { fx: { rate: FN }, VAT }, calls: [{ path: 'fx.rate', args: [currency], async: true, result: rate }] };
}

function cart(id: string, country: string, currency: string, cents: number) {
  return { id, country, currency, lines: [{ sku: 'A-1', cents, qty: 2 }] };
}

function jobCases(): Case[] {
  const ok = (id: string, country: string, currency: string, rate: number, cents: number, grossEur: number): Case => ({
    id, kind: 'recorded', check: 'value', args: [cart(id, country, currency, cents)], expect: { id, grossEur },
    world: { ...world(currency, rate), usesAfter: { fx: { rate: FN }, VAT } },
  });
  return [
    // A cart whose country code came in lower case: the original reads `standard` of undefined.
    { id: 'failure-1', kind: 'failure', check: 'no-throw', args: [cart('c-9', 'de', 'EUR', 1000)], world: world('EUR', 1) },
    ok('c-1', 'DE', 'EUR', 1, 1000, 2380),
    ok('c-2', 'FR', 'EUR', 1, 500, 1200),
    ok('c-3', 'CH', 'CHF', 1.05, 200, 454),
  ];
}

describe('repairing a block that reads outside names', () => {
  let pool: SandboxPool;
  before(() => {
    pool = new SandboxPool({ size: 2 });
  });
  after(async () => {
    await pool.close();
  });

  test('a block reading a name that is not declared, not a global and not in uses is not searched', async () => {
    const cases = jobCases().map(({ world: _w, ...c }) => c);
    const result = await repairBlock({ source: CHECKOUT, entry: 'checkout', uses: ['fx'] }, cases, { pool, budgetMs: 5000 });
    assert.equal(result.stoppedBy, 'cannot-see');
    assert.deepEqual(result.cannotSee, ['VAT']);
    assert.equal(result.tried, 0);
    assert.equal(result.trials, 0);
    assert.equal(result.plausible, false);
    assert.match(result.warnings[0], /reads VAT/);
  });

  test('with its uses and worlds, the original is the oracle in the job\'s worlds and a fix keeps the calls', async () => {
    const block = { source: CHECKOUT, entry: 'checkout', uses: ['fx', 'VAT'] };
    const result = await repairBlock(block, jobCases(), { pool, budgetMs: 8000 });
    assert.notEqual(result.stoppedBy, 'cannot-see');
    // The original answers the recorded calls in their worlds (no ReferenceError): they are known-good.
    assert.equal(result.knownGood, 3);
    assert.ok(result.oracle?.applied, JSON.stringify(result.oracle));
    const generated = result.cases.filter((c) => c.kind === 'generated');
    assert.ok(generated.length > 0, JSON.stringify(result.oracle));
    for (const c of generated) {
      assert.ok(c.world, `${c.id} has a world`);
      // The original made its rate call in every generated case: the calls are part of the expectation.
      assert.equal(c.world.calls.length, 1);
    }
    // Inputs in another currency ask the client for a rate no log has: dropped, not guessed.
    assert.ok((result.oracle?.replayMisses ?? 0) > 0, JSON.stringify(result.oracle));
    assert.ok(result.winner, 'a plausible fix');
    // The winner still asks for the rate: a candidate that skipped the call would fail every recorded case.
    assert.match(result.winner.source, /await fx\.rate\(cart\.currency\)/);

    // The re-check before signing passes the worlds through: the winner passes it, a candidate that
    // no longer loads the cart is refused there.
    const recheck = await recheckWinner({ block, winner: result.winner, cases: result.cases, limits: {}, synchronous: result.synchronous });
    assert.equal(recheck.refused, false, JSON.stringify(recheck.differing));
    const lazy = result.winner.source.replace('await fx.rate(cart.currency)', '1');
    const refused = await recheckWinner({ block, winner: { source: lazy, trials: result.winner.trials }, cases: result.cases, limits: {}, synchronous: result.synchronous });
    assert.equal(refused.refused, true);
    assert.ok(refused.differing.some((d) => /did not call fx\.rate/.test(d.message ?? '')), JSON.stringify(refused.differing));
  });
});

test('job cases carry the world of stored failures and recorded calls', () => {
  const w = world('EUR', 1);
  const cases = buildJobCases(
    [{ args: ['c-1'], at: '2026-01-01T00:00:00Z', instanceId: 'i', error: { name: 'TypeError', message: 'x' }, world: w }],
    [{ args: ['c-2'], result: 1, argsAfter: ['c-2'], at: '2026-01-01T00:00:01Z', world: w }],
  );
  assert.deepEqual(cases.map((c) => c.world), [w, w]);
});
