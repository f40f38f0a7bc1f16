import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { RepairJobReport } from '../../worker/repair-job-report.ts';
import { createRepairClient } from '../../sdk/index.ts';
import { SHOP_TOKEN, startHarness, until, type Harness } from '../../testkit/service-harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
  await h.startWorker();
});
after(async () => h.close());

const cartTotal = (cart: { items: { price: number; qty: number }[] }) => cart.items.reduce((t, i) => t + i.price * i.qty, 0);

test('a block with 3 successful calls at default options, then a failure right away: the repair job has the 3 calls as recorded cases', { timeout: 60_000 }, async () => {
  // Default options: 1 % sampling, the first 3 distinct calls recorded, failures flushed within 500 ms and recorded calls every 2 s.
  const client = createRepairClient({ url: h.url, app: 'shop', token: SHOP_TOKEN, sync: 'off' });
  const carts = [[{ price: 2, qty: 3 }], [], [{ price: 1.5, qty: 2 }, { price: 1, qty: 1 }]];
  for (const items of carts) assert.equal(client.run('cart-total', 'sum of price × qty', cartTotal, { items }), cartTotal({ items }));
  assert.throws(() => client.run('cart-total', 'sum of price × qty', cartTotal, {} as never), TypeError);

  const bug = await until(async () => (await h.daemon.context.store.listBugs('shop')).find((b) => b.blockId === 'cart-total'), 10_000);
  const report = await until(async () => (await h.daemon.context.store.getReport(bug.fingerprint, bug.round)) as RepairJobReport | null, 40_000);
  assert.ok(report.winner, 'the job found a patch');
  const recorded = report.winner.trials.filter((t) => t.caseId.startsWith('recorded'));
  assert.equal(recorded.length, 3, `the job's cases: ${report.winner.trials.map((t) => t.caseId).join(', ')}`);
  assert.ok(recorded.every((t) => t.verdict === 'pass'));
  await client.close();
});
