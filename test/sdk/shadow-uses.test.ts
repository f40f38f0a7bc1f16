/**
 * Shadow runs of blocks with `uses`, replay-only (see sdk/shadow-runs.ts): the patch's dependency
 * calls are answered only from the block's own log of the compared call; a call the log cannot
 * answer makes the run inconclusive and is never made live. Live functions count their calls, so
 * every test checks the shadow runs reached none of them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { OutcomeReport } from '../../core/wire.ts';
import { createRepairClient, type RepairClientOptions, type SdkError, type ShadowEvent, type ShadowInconclusiveEvent } from '../../sdk/index.ts';
import { makeKeys, manifestOf, signedPatch } from './signed-patch.ts';
import { json, startStubDaemon } from './stub-daemon.ts';

const keys = makeKeys();
const dir = mkdtempSync(join(tmpdir(), 'suture-sdk-shadow-uses-'));
let n = 0;
const FIRST = 3;

async function clientWith(patch: ReturnType<typeof signedPatch>, extra: Partial<RepairClientOptions> = {}) {
  const stub = await startStubDaemon((r, res) => json(res, 202, r.path === '/v1/failures' ? { fingerprint: 'f', jobId: 'j' } : {}));
  const backupFile = join(dir, `manifest-${++n}.json`);
  writeFileSync(backupFile, JSON.stringify(manifestOf('game', [patch])));
  const client = createRepairClient({ url: stub.url, app: 'game', publicKey: keys.publicKey, sync: 'off', backupFile, record: { sampleRate: 0, first: 0 }, shadow: { sampleRate: 0, first: FIRST }, flushInterval: 20, execution: 'isolate', ...extra });
  const errors: SdkError[] = [];
  const shadows: ShadowEvent[] = [];
  const inconclusive: ShadowInconclusiveEvent[] = [];
  client.on('error', (e) => errors.push(e));
  client.on('shadow', (e) => shadows.push(e));
  client.on('shadowInconclusive', (e) => inconclusive.push(e));
  const outcomes = () => stub.requests.filter((r) => r.path === '/v1/outcomes').flatMap((r) => (r.body as OutcomeReport).outcomes);
  const close = async () => {
    await client.close();
    await stub.close();
  };
  return { client, errors, shadows, inconclusive, outcomes, close };
}

const waitFor = async (probe: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 10));
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Live calls of the price book; kept outside the uses values, so a live call changes no state the comparison sees. */
let liveGets = 0;
class PriceBook {
  readonly #prices: Record<string, number> = { tea: 3, jam: 5 };
  get(sku: string): number {
    liveGets++;
    const p = this.#prices[sku];
    if (p === undefined) throw new RangeError(`no price for ${sku}`);
    return p;
  }
}
const fee = (x: number) => x + 1; // a pure helper: may run live in a shadow run
type Order = { sku: string; qty: number; total?: number };
// Bug: a negative quantity throws; healthy calls are answered by the block.
const price = (order: Order) => {
  if (order.qty < 0) throw new RangeError('negative quantity');
  order.total = fee(book.get(order.sku) * order.qty);
  return order.total;
};
const book = new PriceBook();
const block = { id: 'price', description: 'order total with fee', uses: { book, fee } };
const orders = (): Order[] => [
  { sku: 'tea', qty: 2 },
  { sku: 'jam', qty: 1 },
  { sku: 'tea', qty: 4 },
];

const patchOf = (source: string) => signedPatch(keys.privateKey, { app: 'game', blockId: 'price', original: price, source, mode: 'fallback' });

describe('shadow runs of a block with uses (replay only)', () => {
  it('a right patch agrees and no shadow run calls a live dependency', async () => {
    const right = `(order) => { order.total = fee(book.get(order.sku) * Math.max(order.qty, 0)); return order.total; }`;
    const c = await clientWith(patchOf(right));
    liveGets = 0;
    for (const o of orders()) assert.equal(c.client.run(block, price, o), o.total);
    await waitFor(() => c.shadows.length === FIRST);
    assert.deepEqual(c.shadows.map((e) => e.agreed), [true, true, true]);
    assert.equal(liveGets, 3, 'only the block called the live price book');
    await waitFor(() => c.outcomes().reduce((a, o) => a + (o.agreed ?? 0), 0) === FIRST);
    assert.equal(c.outcomes().reduce((a, o) => a + (o.disagreed ?? 0), 0), 0);
    assert.deepEqual(c.inconclusive, []);
    assert.deepEqual(c.errors.map((e) => e.message), []);
    await c.close();
  });

  it('a wrong patch (same calls, another answer) disagrees, is reported and rolled back', async () => {
    const wrong = `(order) => { order.total = fee(book.get(order.sku) * Math.max(order.qty, 0)) * 2; return order.total; }`;
    const c = await clientWith(patchOf(wrong));
    liveGets = 0;
    const o: Order = { sku: 'tea', qty: 2 };
    assert.equal(c.client.run(block, price, o), 7, 'the block answers a healthy call');
    await waitFor(() => c.shadows.length === 1);
    assert.equal(c.shadows[0].agreed, false);
    await waitFor(() => c.outcomes().some((x) => x.disagreed === 1));
    const reported = c.outcomes().find((x) => x.disagreed === 1);
    assert.ok(reported?.disagreements?.[0], 'the disagreement is sent with the call');
    assert.equal(liveGets, 1, 'the shadow run made no live call');
    // Rolled back here: the failing call is no longer rescued by the patch.
    assert.throws(() => c.client.run(block, price, { sku: 'tea', qty: -1 }), RangeError);
    await c.close();
  });

  it('a patch that calls a dependency differently is inconclusive: neither counted, the live function not called', async () => {
    const other = `(order) => { order.total = fee(book.get(order.sku.toUpperCase()) * order.qty); return order.total; }`;
    const twice = `(order) => { book.get(order.sku); order.total = fee(book.get(order.sku) * order.qty); return order.total; }`;
    const none = `(order) => { order.total = fee((order.sku === 'tea' ? 3 : 5) * order.qty); return order.total; }`;
    for (const [source, reason] of [
      [other, /called book\.get where the block had called book\.get with other arguments/],
      [twice, /called book\.get after the block's last call/],
      [none, /did not call book\.get/],
    ] as const) {
      const c = await clientWith(patchOf(source));
      liveGets = 0;
      for (const o of orders()) c.client.run(block, price, o);
      await waitFor(() => c.inconclusive.length === FIRST);
      assert.match(c.inconclusive[0].reason, reason);
      assert.equal(liveGets, 3, 'the shadow runs reached no live dependency');
      await sleep(100); // counts would have been flushed by now (flushInterval 20 ms)
      assert.deepEqual(c.shadows, []);
      assert.equal(c.outcomes().reduce((a, x) => a + (x.agreed ?? 0) + (x.disagreed ?? 0), 0), 0);
      await c.close();
    }
  });

  it('state changed by a replayed effectful call cannot be laid on the patch: inconclusive, and no second charge', async () => {
    let liveCharges = 0;
    const ledger = {
      charged: 0,
      charge(amount: number) {
        liveCharges++;
        this.charged += amount;
        return `receipt-${amount}`;
      },
    };
    const pay = (amount: number) => {
      if (amount < 0) throw new RangeError('negative');
      return ledger.charge(amount);
    };
    const right = `(amount) => ledger.charge(Math.max(amount, 0))`;
    const c = await clientWith(signedPatch(keys.privateKey, { app: 'game', blockId: 'pay', original: pay, source: right, mode: 'fallback' }));
    const payBlock = { id: 'pay', description: 'charge the amount', uses: { ledger } };
    for (const a of [1, 2, 3]) assert.equal(c.client.run(payBlock, pay, a), `receipt-${a}`);
    await waitFor(() => c.inconclusive.length === FIRST);
    assert.match(c.inconclusive[0].reason, /state differs/);
    assert.deepEqual([liveCharges, ledger.charged], [3, 6], 'one charge per call: the shadow runs charged nothing');
    assert.deepEqual(c.shadows, []);
    await c.close();
  });

  it('trusted mode: a block with uses is not shadow-compared', async () => {
    const right = `(order) => { order.total = fee(book.get(order.sku) * Math.max(order.qty, 0)); return order.total; }`;
    const c = await clientWith(patchOf(right), { execution: 'trusted' });
    liveGets = 0;
    for (const o of orders()) c.client.run(block, price, o);
    await sleep(100);
    assert.deepEqual([c.shadows, c.inconclusive, liveGets], [[], [], 3]);
    await c.close();
  });
});

describe('shadow runs of a block with uses: a dependency that changed what the block reads next', () => {
  it('a right patch whose answer reads state a replayed call would have changed is inconclusive, not a disagreement (no false roll-back)', async () => {
    let liveIncs = 0;
    const counter = {
      n: 0,
      inc() {
        liveIncs++;
        this.n++;
      },
    };
    const ticket = (who: string) => {
      if (who === '') throw new RangeError('no name');
      counter.inc();
      return `${who}#${counter.n}`;
    };
    // Right: the same answer on every healthy call; in a replay-only run counter.n stays as on entry.
    const right = `(who) => { counter.inc(); return \`\${who || 'guest'}#\${counter.n}\`; }`;
    const c = await clientWith(signedPatch(keys.privateKey, { app: 'game', blockId: 'ticket', original: ticket, source: right, mode: 'fallback' }));
    const ticketBlock = { id: 'ticket', description: 'a numbered ticket', uses: { counter } };
    for (const who of ['ann', 'bo', 'cy']) c.client.run(ticketBlock, ticket, who);
    await waitFor(() => c.inconclusive.length === FIRST);
    assert.match(c.inconclusive[0].reason, /answers differ after effectful dependency calls changed the state/);
    assert.deepEqual(c.shadows, [], 'no agreement or disagreement counted');
    assert.deepEqual(c.outcomes().filter((o) => (o.disagreed ?? 0) > 0), [], 'nothing reported against the patch');
    assert.equal(liveIncs, 3, 'the shadow runs made no live call');
    await c.close();
  });
});
