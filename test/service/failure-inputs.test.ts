/**
 * A failure report says which state its inputs are (FailureReport.inputs): the daemon keeps it with
 * the case, the admin API and the dashboard show it, and a value other than 'entry' or
 * 'after-throw' is refused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredFailureCase } from '../../service/store/service-store.ts';
import { createRepairClient } from '../../sdk/index.ts';
import { ADMIN_TOKEN, GAME_TOKEN, startHarness } from '../../testkit/service-harness.ts';

test('the inputs field of a failure report reaches the stored case; a bad one is refused', { timeout: 60_000 }, async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const client = createRepairClient({ url: h.url, app: 'game', token: GAME_TOKEN, sync: 'off', record: { sampleRate: 0, first: 0 } });
  let fingerprint = '';
  client.on('error', () => undefined);
  const bump = (c: { n: number; cap: number }) => {
    c.n += 1;
    if (c.n > c.cap) throw new RangeError(`counter over ${c.cap}`);
    return c.n;
  };
  assert.throws(() => client.run('bump', 'bump a counter up to its cap', bump, { n: 3, cap: 3 }), RangeError);
  await client.close();
  const bugs = (await (await h.call('/v1/admin/bugs?app=game', { token: ADMIN_TOKEN })).json()) as { bugs: { fingerprint: string; blockId: string }[] };
  fingerprint = bugs.bugs.find((b) => b.blockId === 'bump')?.fingerprint ?? '';
  assert.ok(fingerprint, JSON.stringify(bugs));
  const detail = (await (await h.call(`/v1/admin/bugs/${fingerprint}`, { token: ADMIN_TOKEN })).json()) as { cases: StoredFailureCase[] };
  assert.equal(detail.cases[0].inputs, 'after-throw');
  assert.deepEqual(detail.cases[0].args, [{ n: 4, cap: 3 }], 'as the failed call left them');

  const bad = await h.call('/v1/failures', {
    token: GAME_TOKEN,
    body: { requestId: 'r-bad-inputs-1', app: 'game', instanceId: 'i', block: { id: 'x', source: '() => 1' }, error: { name: 'Error', message: 'm' }, args: [], inputs: 'later', at: new Date().toISOString() },
  });
  assert.equal(bad.status, 400);
});
