/**
 * Blocks that read outside names: the options-object form of run/wrap, the cannot-see error event,
 * and the world (uses values, dependency calls, receiver) sent with failures and recorded calls.
 */
import assert from 'node:assert/strict';
import { after, describe, it, test } from 'node:test';
import type { FailureReport, RecordedCasesBatch } from '../../core/wire.ts';
import type { CallWorld } from '../../core/world.ts';
import { createRepairClient, type SdkError } from '../../sdk/index.ts';
import { json, startStubDaemon } from './stub-daemon.ts';

const stub = await startStubDaemon((req, res) => json(res, 202, req.path === '/v1/failures' ? { fingerprint: 'f', jobId: 'j' } : {}));
after(() => stub.close());

function client(extra: Record<string, unknown> = {}) {
  return createRepairClient({ url: stub.url, app: 'shop', sync: 'off', snapshot: 'on-failure', record: { sampleRate: 0, first: 0 }, flushInterval: 10, ...extra });
}

function failures(blockId: string): FailureReport[] {
  return stub.requests.filter((r) => r.path === '/v1/failures').map((r) => r.body as FailureReport).filter((r) => r.block.id === blockId);
}

const RATES: Record<string, number> = { DE: 0.19, FR: 0.2 };

describe('run and wrap with an options object', () => {
  it('runs like the string form; wrap keeps the call\'s this; receiver sets it; bad options are named', async () => {
    const repair = client();
    const price = (net: number, country: string) => Math.round(net * (1 + RATES[country]) * 100) / 100;
    assert.equal(repair.run({ id: 'price', description: 'gross price', uses: { RATES } }, price, 100, 'DE'), 119);
    assert.equal(repair.run('price', 'gross price', price, 100, 'FR'), 120);
    const wrapped = repair.wrap({ id: 'price', description: 'gross price', uses: { RATES } }, price);
    assert.equal(wrapped(10, 'FR'), 12);

    const hero = { hp: 10, heal(this: { hp: number }, n: number) { this.hp += n; return this.hp; } };
    const heal = repair.wrap({ id: 'heal', description: 'heal', uses: {} }, function (this: typeof hero, n: number) { return this.heal(n); });
    assert.equal(heal.call(hero, 5), 15);
    assert.equal(hero.hp, 15);
    assert.equal(repair.run({ id: 'heal2', description: 'heal', receiver: hero }, function (this: typeof hero) { return this.hp; }), 15);
    const fixed = repair.wrap({ id: 'heal3', description: 'heal', receiver: hero }, function (this: typeof hero) { return this.hp; });
    assert.equal(fixed.call({ hp: 0 } as typeof hero), 15);

    assert.throws(() => repair.run({ id: '', description: 'x' }, () => 1), /options\.id must be a non-empty string/);
    assert.throws(() => repair.run({ id: 'a', description: 'x', uses: [] as never }, () => 1), /options\.uses must be an object/);
    assert.throws(() => repair.run({ id: 'a', description: 'x', uses: { 'not a name': 1 } }, () => 1), /uses\.not a name is not a name/);
    await repair.close();
  });

  it('a method reached through uses runs on the real object (private fields work) and the answer is the real object', async () => {
    class Enemy {
      #x = 1;
      pos() {
        return { x: this.#x };
      }
      step() {
        this.#x += 1;
        return this;
      }
    }
    const self = new Enemy();
    const repair = client();
    const got = repair.run({ id: 'step', description: 'step', uses: { self } }, () => self.step());
    assert.equal(got, self);
    assert.deepEqual(self.pos(), { x: 2 });
    await repair.close();
  });
});

describe('what suture cannot see', () => {
  it('a failing block that reads a module constant not in uses makes one SUTURE_CANNOT_SEE error event', async () => {
    const repair = client();
    const errors: SdkError[] = [];
    repair.on('error', (e) => errors.push(e));
    const price = (net: number, country: string) => {
      const r = RATES[country];
      return net * (1 + r.toFixed(2).length);
    };
    const fail = (f: () => unknown) => assert.throws(f, TypeError);
    fail(() => repair.run('price-cs', 'gross price', price as (n: number, c: string) => number, 1, 'XX'));
    fail(() => repair.run('price-cs', 'gross price', price as (n: number, c: string) => number, 2, 'XX'));
    const seen = errors.filter((e) => e.code === 'SUTURE_CANNOT_SEE');
    assert.equal(seen.length, 1);
    assert.equal(seen[0].message, "block 'price-cs' reads RATES, which suture cannot see; pass it in uses");
    assert.deepEqual(seen[0].names, ['RATES']);
    // Passing it in uses: no such event.
    fail(() => repair.run({ id: 'price-ok', description: 'gross price', uses: { RATES } }, price, 1, 'XX'));
    assert.equal(errors.filter((e) => e.code === 'SUTURE_CANNOT_SEE').length, 1);
    await repair.close();
  });

  it('without an error listener, each distinct problem is written to stderr once', async () => {
    const repair = client();
    const written: string[] = [];
    const original = process.stderr.write;
    process.stderr.write = ((chunk: string) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      const block = () => (RATES.XX as number).toFixed(1);
      for (let i = 0; i < 3; i++) assert.throws(() => repair.run('quiet', 'q', block));
      const block2 = () => (RATES.YY as number).toFixed(1) + String(repair);
      assert.throws(() => repair.run('quiet2', 'q', block2));
    } finally {
      process.stderr.write = original;
    }
    const lines = written.filter((w) => w.includes('SUTURE_CANNOT_SEE'));
    assert.deepEqual(lines, [
      "suture: SUTURE_CANNOT_SEE: block 'quiet' reads RATES, which suture cannot see; pass it in uses\n",
      "suture: SUTURE_CANNOT_SEE: block 'quiet2' reads RATES and repair, which suture cannot see; pass them in uses\n",
    ]);
    await repair.close();
  });
});

describe('the world of a call', () => {
  interface User {
    id: number;
    tier: string;
  }
  const db = {
    calls: 0,
    async getUser(id: number): Promise<User> {
      this.calls++;
      return { id, tier: id === 7 ? 'gold' : 'basic' };
    },
    audit(msg: string): void {
      if (msg.includes('forbidden')) throw new RangeError(`audit refused ${msg}`);
    },
  };
  const discountOf = (tier: string) => (tier === 'gold' ? 0.1 : 0);

  it('a failure carries the uses values on entry, the sync and async calls in order, a thrown dependency error and this', async () => {
    const repair = client();
    const cart = { owner: 'ann', lines: 2 };
    const checkout = repair.wrap({ id: 'checkout', description: 'total of a cart', uses: { RATES, db, discountOf } }, async function (this: typeof cart, userId: number, net: number) {
      const user = await db.getUser(userId);
      const d = discountOf(user.tier);
      db.audit(`total for ${this.owner}`);
      db.audit(`forbidden ${user.id}`);
      return net * (1 - d) * (1 + RATES.DE);
    });
    await assert.rejects(checkout.call(cart, 7, 100), /audit refused forbidden 7/);
    await repair.flush();
    const [report] = failures('checkout');
    assert.ok(report, 'failure reported');
    assert.deepEqual(report.block.uses, ['RATES', 'db', 'discountOf']);
    const w = report.world as CallWorld;
    assert.deepEqual(w.uses.RATES, { DE: 0.19, FR: 0.2 });
    assert.equal((w.uses.db as Record<string, unknown>).calls, 1);
    assert.deepEqual(
      w.calls.map((c) => [c.path, c.async, c.args, c.result ?? null, c.error ?? null]),
      [
        ['db.getUser', true, [7], { id: 7, tier: 'gold' }, null],
        ['discountOf', false, ['gold'], 0.1, null],
        ['db.audit', false, ['total for ann'], { $t: 'undefined' }, null],
        ['db.audit', false, ['forbidden 7'], null, { name: 'RangeError', message: 'audit refused forbidden 7' }],
      ],
    );
    assert.deepEqual(w.this, { owner: 'ann', lines: 2 });
    assert.equal(w.usesAfter, undefined);
    assert.match(w.sources?.discountOf ?? '', /gold/);
    assert.match(w.sources?.['db.getUser'] ?? '', /getUser/);
    await repair.close();
  });

  it('a recorded call carries uses on entry and after, the calls and this', async () => {
    const repair = client({ record: { sampleRate: 1, first: 0 } });
    const counter = { n: 1 };
    const bump = repair.wrap({ id: 'bump', description: 'bump', uses: { counter, discountOf } }, function (this: { k: number }, by: number) {
      counter.n += by * this.k;
      this.k++;
      return discountOf(by > 1 ? 'gold' : 'basic');
    });
    assert.equal(bump.call({ k: 2 }, 3), 0.1);
    await repair.flush();
    const batch = stub.requests.filter((r) => r.path === '/v1/cases').map((r) => r.body as RecordedCasesBatch).flatMap((b) => b.blocks).find((b) => b.id === 'bump');
    assert.ok(batch);
    assert.deepEqual(batch.uses, ['counter', 'discountOf']);
    const w = batch.calls[0].world as CallWorld;
    assert.deepEqual(w.uses.counter, { n: 1 });
    assert.deepEqual(w.usesAfter?.counter, { n: 7 });
    assert.deepEqual(w.calls.map((c) => [c.path, c.args, c.result]), [['discountOf', ['gold'], 0.1]]);
    assert.deepEqual([w.this, w.thisAfter], [{ k: 2 }, { k: 3 }]);
    await repair.close();
  });
});

test('a block with uses that throws reports a stack whose top frame is the same on every machine (suture-block.js, not the SDK install path)', async () => {
  const repair = client();
  const RATES: Record<string, { rate: number }> = { EUR: { rate: 0.9 } };
  // Plain JavaScript source (as an app's own .js file gives): the SDK runs its copy bound to uses.
  const price = (0, eval)('(qty, cur) => qty * RATES[cur].rate') as (qty: number, cur: string) => number;
  assert.throws(() => repair.run({ id: 'frame', description: 'price in a currency', uses: { RATES } }, price, 2, 'XTS'), TypeError);
  await repair.flush();
  const [report] = failures('frame');
  const top = report.error.stack!.split('\n').find((l) => l.trim().startsWith('at '))!;
  assert.match(top, /suture-block\.js:\d+:\d+/);
  assert.doesNotMatch(top, /block-world|file:\/\//);
  await repair.close();
});
