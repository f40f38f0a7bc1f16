import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { copyArgs } from '../../sdk/entry-copy.ts';
import { createRepairClient } from '../../sdk/index.ts';

describe('entry copy', () => {
  it('deep-copies plain objects and arrays, keeping shared references and cycles', () => {
    const shared = { k: 1 };
    const a: Record<string, unknown> = { n: 1, s: 'x', nested: { shared, list: [1, 2, { deep: true }] }, shared };
    a.self = a;
    const prims = [1, 'two', null, undefined];
    const [ca, cp, cn] = copyArgs([a, prims, 7]) as [Record<string, any>, unknown[], number];
    assert.notEqual(ca, a);
    assert.deepEqual(cp, prims);
    assert.notEqual(cp, prims);
    assert.equal(cn, 7);
    assert.equal(ca.self, ca);
    assert.equal(ca.shared, ca.nested.shared);
    assert.notEqual(ca.shared, shared);
    (a.nested as any).list[2].deep = false;
    shared.k = 2;
    assert.equal(ca.nested.list[2].deep, true);
    assert.equal(ca.shared.k, 1);
  });

  it('keeps prototypes, Dates and holes, and survives a throwing getter', () => {
    class P {
      x = 1;
    }
    const holey = [1, , 3];
    const d = new Date(5);
    const hostile = {
      get boom(): number {
        throw new Error('no');
      },
      ok: 2,
    };
    const [cp, ch, cd, cx] = copyArgs([new P(), holey, d, hostile]) as [P, unknown[], Date, Record<string, unknown>];
    assert.ok(cp instanceof P);
    assert.equal(1 in ch, false);
    assert.equal(ch.length, 3);
    assert.notEqual(cd, d);
    assert.equal(cd.getTime(), 5);
    assert.equal(cx.ok, 2);
    assert.ok(cx.boom instanceof Error);
  });

  it('a getter that copies again (re-entry) gets a correct copy, and the outer copy too', () => {
    let inner: unknown[] = [];
    const arg = {
      a: { v: 1 },
      get g(): number {
        inner = copyArgs([{ w: 2 }]);
        return 3;
      },
    };
    const [c] = copyArgs([arg]) as [Record<string, any>];
    assert.deepEqual(inner, [{ w: 2 }]);
    assert.deepEqual(c, { a: { v: 1 }, g: 3 });
    assert.notEqual(c.a, arg.a);
  });
});

describe('run/wrap success path', () => {
  it('passes the exact argument count through for 0 to 6 arguments, with and without this', () => {
    const repair = createRepairClient({ url: 'http://127.0.0.1:9', app: 't', sync: 'off', snapshot: 'on-failure', record: { sampleRate: 0 } });
    function count(this: unknown, ...xs: unknown[]): string {
      return `${xs.length}:${xs.join(',')}:${this === undefined ? 'u' : (this as { n: string }).n}`;
    }
    const args = [1, 2, 3, 4, 5, 6];
    for (let n = 0; n <= 6; n++) {
      const xs = args.slice(0, n);
      assert.equal((repair.run as Function)('c', 'count', count, ...xs), `${n}:${xs.join(',')}:u`);
      const w = repair.wrap('c', 'count', count);
      assert.equal((w as Function).apply({ n: 'me' }, xs), `${n}:${xs.join(',')}:me`);
    }
    // Default parameters still see undefined as "missing".
    assert.equal(repair.run('d', 'default', (a = 5) => a), 5);
    void repair.close();
  });

  it('records about sampleRate of the calls (geometric countdown), and every call at rate 1', async () => {
    for (const [rate, calls, lo, hi] of [
      [0.1, 20_000, 1700, 2300],
      [1, 50, 50, 50],
      [0, 20_000, 0, 0],
    ] as const) {
      const repair = createRepairClient({ url: 'http://127.0.0.1:9', app: 't', sync: 'off', snapshot: 'on-failure', record: { sampleRate: rate, maxQueued: 1_000_000, first: 0 }, flushInterval: 60_000 });
      repair.on('error', () => undefined);
      for (let i = 0; i < calls; i++) repair.run('s', 'sum', (a: { v: number }) => a.v + 1, { v: i });
      const queued = repair.stats().callsQueued;
      assert.ok(queued >= lo && queued <= hi, `rate ${rate}: ${queued} recorded of ${calls}`);
      await repair.close();
    }
  });

  it('records the first 3 distinct successful calls of every block whatever the sample rate, in both snapshot modes', async () => {
    for (const snapshot of ['entry', 'on-failure'] as const) {
      const repair = createRepairClient({ url: 'http://127.0.0.1:9', app: 't', sync: 'off', snapshot, record: { sampleRate: 0 }, flushInterval: 60_000 });
      repair.on('error', () => undefined);
      const inc = (a: { v: number }) => a.v + 1;
      for (const v of [1, 1, 2, 1, 2, 3, 4, 5]) repair.run('a', 'inc', inc, { v }); // 1, 2, 3 are new; repeats are not
      assert.throws(() => repair.run('b', 'throws', (a: { v: number }) => (a as never as { w: { x: number } }).w.x, { v: 0 }));
      repair.run('b', 'throws', (a: { v: number }) => a.v, { v: 9 });
      for (let i = 0; i < 1000; i++) repair.run('a', 'inc', inc, { v: i });
      assert.equal(repair.stats().callsQueued, 4, `${snapshot}: three of block a, the one success of block b`);
      await repair.close();
    }
    const off = createRepairClient({ url: 'http://127.0.0.1:9', app: 't', sync: 'off', record: { sampleRate: 0, first: 0 }, flushInterval: 60_000 });
    off.on('error', () => undefined);
    for (let i = 0; i < 10; i++) off.run('a', 'inc', (a: { v: number }) => a.v + 1, { v: i });
    assert.equal(off.stats().callsQueued, 0, 'record.first 0 turns it off');
    await off.close();
  });
});
