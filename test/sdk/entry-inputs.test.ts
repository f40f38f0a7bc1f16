/**
 * A healthy call costs the same whatever the size of its arguments: the default `snapshot:
 * 'entry'` copies inputs on entry only for recorded calls and for blocks that failed lately. A
 * failure report says which state it carries (`inputs`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FailureReport } from '../../core/wire.ts';
import { createRepairClient } from '../../sdk/index.ts';
import { json, startStubDaemon } from './stub-daemon.ts';

async function withClient(f: (client: ReturnType<typeof createRepairClient>, reports: () => FailureReport[]) => Promise<void>): Promise<void> {
  const stub = await startStubDaemon((r, res) => json(res, 202, { fingerprint: 'fp', jobId: 'j' }));
  // No recording at all: no call is copied because it is recorded.
  const client = createRepairClient({ url: stub.url, app: 'game', sync: 'off', record: { sampleRate: 0, first: 0 } });
  try {
    await f(client, () => stub.requests.filter((r) => r.path === '/v1/failures').map((r) => r.body as FailureReport));
  } finally {
    await client.close();
    await stub.close();
  }
}

test('a healthy call reads no more of its arguments than the block does (no entry copy)', async () => {
  await withClient(async (client) => {
    let listed = 0;
    const big = new Proxy({ first: 1 } as Record<string, number>, {
      ownKeys(t) {
        listed++;
        return Reflect.ownKeys(t);
      },
    });
    for (let i = 0; i < 100; i++) assert.equal(client.run('read', 'reads one field', (o: Record<string, number>) => o.first + 1, big), 2);
    assert.equal(listed, 0, 'the arguments were walked (copied) on a healthy call');
  });
});

test('first failure of a block that writes its inputs: after-throw; later failures of it: entry', async () => {
  await withClient(async (client, reports) => {
    const bump = (c: { n: number; fail: boolean }) => {
      c.n += 1;
      if (c.fail) throw new Error('bad counter');
      return c.n;
    };
    assert.throws(() => client.run('bump', 'bump a counter', bump, { n: 1, fail: true }), /bad counter/);
    // The block failed: its next calls copy their inputs on entry.
    assert.equal(client.run('bump', 'bump a counter', bump, { n: 1, fail: false }), 2);
    assert.throws(() => client.run('bump', 'bump a counter', bump, { n: 10, fail: true }), /bad counter/);
    await client.flush();
    const [first, second] = reports();
    assert.equal(first.inputs, 'after-throw');
    assert.deepEqual(first.args, [{ n: 2, fail: true }]);
    assert.equal(second.inputs, 'entry');
    assert.deepEqual(second.args, [{ n: 10, fail: true }]);
  });
});

test('a block that writes to no object reports its entry state without any copy', async () => {
  await withClient(async (client, reports) => {
    const price = (item: { qty: number; unit?: { cents: number } }) => item.qty * (item.unit as { cents: number }).cents;
    assert.throws(() => client.run('price', 'price of an item', price, { qty: 2 }), TypeError);
    await client.flush();
    assert.equal(reports()[0].inputs, 'entry');
    assert.deepEqual(reports()[0].args, [{ qty: 2 }]);
  });
});

test('healthy-call cost does not grow with the argument: 10,000 objects within 3x of one small object', async () => {
  await withClient(async (client) => {
    const small = [{ v: 1 }];
    const large = Array.from({ length: 10_000 }, (_, i) => ({ v: i, name: `item ${i}` }));
    const pick = (list: { v: number }[], i: number) => list[i % list.length].v;
    const best = (list: { v: number }[]) => {
      let ns = Infinity;
      for (let r = 0; r < 5; r++) {
        const t0 = process.hrtime.bigint();
        let s = 0;
        for (let i = 0; i < 20_000; i++) s += client.run('pick', 'pick an item', pick, list, i) as number;
        ns = Math.min(ns, Number(process.hrtime.bigint() - t0) / 20_000);
        if (s < 0) throw new Error('unreachable');
      }
      return ns;
    };
    best(small);
    const a = best(small);
    const b = best(large);
    assert.ok(b < 3 * a + 50, `small ${a.toFixed(0)} ns, 10,000 objects ${b.toFixed(0)} ns per call`);
  });
});
