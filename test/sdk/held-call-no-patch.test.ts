import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRepairClient, type SdkError } from '../../sdk/index.ts';
import { SHOP_TOKEN, startHarness, type Harness } from '../../testkit/service-harness.ts';
import { held } from './held-call.ts';

/** Far longer than a held call may wait below. */
const WAIT_MS = 20_000;
// A module-level name the block reads: the daemon cannot see it (the block passes no uses).
const RATES: Record<string, { rate: number }> = { EUR: { rate: 1.1 } };

async function heldClient(h: Harness) {
  const publicKey = ((await (await h.call('/v1/public-key')).json()) as { publicKey: string }).publicKey;
  const client = createRepairClient({ url: h.url, app: 'shop', token: SHOP_TOKEN, publicKey, instanceId: 'held-1', flushInterval: 50, waitForFix: WAIT_MS });
  const errors: SdkError[] = [];
  client.on('error', (e) => errors.push(e));
  return { client, errors };
}

test('a held call of a block that reads a name suture cannot see rethrows its own error at once', { timeout: 60_000 }, async (t) => {
  const h = await startHarness({ longPollMaxMs: WAIT_MS });
  const { client, errors } = await heldClient(h);
  t.after(async () => {
    await client.close();
    await h.close();
  });
  const price = (item: { qty: number; currency: string }) => item.qty * RATES[item.currency].rate;
  assert.equal(client.run('price', 'price of an item', price, { qty: 2, currency: 'EUR' }), 2.2);
  const r = await held(() => client.run('price', 'price of an item', price, { qty: 2, currency: 'XTS' }));
  assert.ok(r.error instanceof TypeError, String(r.error));
  assert.match((r.error as Error).message, /reading 'rate'/);
  assert.ok(r.ms < 3_000, `held ${r.ms} ms (waitForFix ${WAIT_MS} ms)`);
  // The SDK says what it cannot see as well (once per block), and nothing else went wrong.
  assert.deepEqual(errors.map((e) => e.code), ['SUTURE_CANNOT_SEE'], 'only the cannot-see event');
  t.diagnostic(`cannot-see: held ${r.ms} ms of ${WAIT_MS} ms`);
});

test('a held call rethrows its own error as soon as the repair job ends without a plausible candidate', { timeout: 60_000 }, async (t) => {
  const h = await startHarness({ longPollMaxMs: WAIT_MS });
  await h.startWorker({ budgetMs: 1 });
  const { client, errors } = await heldClient(h);
  t.after(async () => {
    await client.close();
    await h.close();
  });
  const total = (order: { items: { price: number; qty: number }[] }) => order.items.reduce((s, i) => s + i.price * i.qty, 0);
  const r = await held(() => client.run('order-total', 'sum of price × qty', total, { id: 7 } as never));
  assert.ok(r.error instanceof TypeError, String(r.error));
  assert.ok(r.ms < WAIT_MS / 2, `held ${r.ms} ms (waitForFix ${WAIT_MS} ms)`);
  assert.deepEqual(errors.map((e) => e.code), [], 'the no-patch answer is not taken for a bad patch');
  t.diagnostic(`unpatched: held ${r.ms} ms of ${WAIT_MS} ms`);
});
