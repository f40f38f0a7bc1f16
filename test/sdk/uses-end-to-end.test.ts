/**
 * End to end with the real daemon, worker (offline engine) and Redis: a block that reads a module
 * constant, a helper, an async injected client and an object's method, passed in `uses`, is
 * repaired; the patch answers inputs the engine never saw and healthy calls keep their answers.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createRepairClient, type RepairClient, type SdkError } from '../../sdk/index.ts';
import { ADMIN_TOKEN, GAME_TOKEN, startHarness, until, type Harness } from '../../testkit/service-harness.ts';

const RATES: Record<string, { vat: number }> = { DE: { vat: 0.19 }, FR: { vat: 0.2 }, NL: { vat: 0.21 } };
const roundCents = (n: number) => Math.round(n * 100) / 100;
class Shop {
  #feeRate = 0.02;
  fee(net: number) {
    return net * this.#feeRate;
  }
}
const shop = new Shop();
const COUNTRY: Record<number, string> = { 1: 'DE', 2: 'FR', 3: 'US', 4: 'NL', 5: 'JP', 6: 'BR' };
const lookups: number[] = [];
const db = {
  async getUser(id: number) {
    lookups.push(id);
    await new Promise((r) => setTimeout(r, 1));
    return { id, country: COUNTRY[id] };
  },
};
/**
 * Bug: a country without VAT in the table throws (reading 'vat' of undefined) where the `?? 0` was
 * meant to make it pay none. The dependencies are called before the throw: a trial can answer a
 * call only from the failing call's own log (or run a pure helper such as roundCents as code).
 */
const gross = async (userId: number, net: number) => {
  const user = await db.getUser(userId);
  const fee = shop.fee(net);
  const rate = RATES[user.country].vat ?? 0;
  return roundCents(net * (1 + rate) + fee);
};
const expected = (userId: number, net: number) => roundCents(net * (1 + (RATES[COUNTRY[userId]]?.vat ?? 0)) + net * 0.02);
const block = { id: 'gross-price', description: 'Gross price for a user: net plus the VAT of their country (none when the country has no VAT) plus the shop fee', uses: { RATES, roundCents, db, shop } };

let h: Harness;
let client: RepairClient;
before(async () => {
  h = await startHarness();
  await h.startWorker();
  const publicKey = ((await (await h.call('/v1/public-key')).json()) as { publicKey: string }).publicKey;
  client = createRepairClient({ url: h.url, app: 'game', token: GAME_TOKEN, publicKey, instanceId: 'uses-e2e', record: { sampleRate: 1 }, flushInterval: 50, waitForFix: 40_000, sync: 'poll', pollInterval: 100 });
});
after(async () => {
  await client.close();
  await h.close();
});

test('a block reading a constant, a helper, an async client and a method is repaired with its world', { timeout: 90_000 }, async (t) => {
  const errors: SdkError[] = [];
  client.on('error', (e) => errors.push(e));
  const healthy: [number, number][] = [[1, 100], [2, 50], [1, 10], [4, 80], [2, 7]];
  for (const [u, net] of healthy) assert.equal(await client.run(block, gross, u, net), expected(u, net));
  await client.flush();
  const started = Date.now();
  let rescued: unknown;
  try {
    rescued = await client.run(block, gross, 3, 100); // US: not in RATES
  } catch (err) {
    const bugs = await (await h.call('/v1/admin/bugs?app=game', { token: ADMIN_TOKEN })).json();
    const list = (await (await h.call('/v1/admin/jobs', { token: ADMIN_TOKEN })).json()) as { jobs: { id: string }[] };
    const jobs = await Promise.all(list.jobs.map(async (j) => (await h.call(`/v1/admin/jobs/${j.id}`, { token: ADMIN_TOKEN })).json()));
    throw new Error(`not rescued after ${Date.now() - started} ms: ${String(err)}; bugs ${JSON.stringify(bugs).slice(0, 1500)}; jobs ${JSON.stringify(jobs).slice(0, 2500)}`);
  }
  t.diagnostic(`failing call answered by the patch after ${Date.now() - started} ms`);
  assert.equal(rescued, expected(3, 100));
  // The patched block, on inputs the engine never saw, and healthy calls unchanged.
  await until(async () => (client.stats().manifestRevision > 0 ? true : undefined));
  for (const [u, net] of [[5, 33], [6, 1000], [3, 0.5]] as [number, number][]) assert.equal(await client.run(block, gross, u, net), expected(u, net), `user ${u}`);
  for (const [u, net] of [...healthy, [4, 12]] as [number, number][]) assert.equal(await client.run(block, gross, u, net), expected(u, net), `healthy user ${u}`);
  const lookupsOf3 = lookups.filter((id) => id === 3).length;
  assert.equal(lookupsOf3, 2, 'each failing call looked its user up once: the patch got the lookup from the block\'s log');
  assert.deepEqual(errors.filter((e) => e.code !== 'SUTURE_DELIVERY_FAILED').map((e) => `${e.code}: ${e.message}`), []);
});
