/**
 * A held call (waitForFix) whose failure report cannot be delivered rethrows the block's own error
 * at once: no fix can come for a failure the daemon never saw. The report itself stays queued and
 * reaches the daemon once it answers again.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { FailureReport } from '../../core/wire.ts';
import { createRepairClient, type SdkError } from '../../sdk/index.ts';
import { held } from './held-call.ts';
import { makeKeys, seedBlock } from './signed-patch.ts';
import { json, startStubDaemon } from './stub-daemon.ts';

const keys = makeKeys();
/** Far longer than a held call may wait below. */
const WAIT_MS = 20_000;


test('daemon down: a held call rethrows its own error at once', { timeout: 30_000 }, async (t) => {
  // A port that was just free: nothing listens there, connections are refused.
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  const client = createRepairClient({ url: `http://127.0.0.1:${port}`, app: 'game', publicKey: keys.publicKey, sync: 'off', waitForFix: WAIT_MS, record: { sampleRate: 0 } });
  const errors: SdkError[] = [];
  client.on('error', (e) => errors.push(e));
  t.after(() => client.close());
  const r = await held(() => client.run('dmg', 'damage', seedBlock, { stats: { strength: 10 } }, { health: 5 } as never));
  assert.ok(r.error instanceof TypeError, String(r.error));
  assert.ok(r.ms < 2_000, `held ${r.ms} ms (waitForFix ${WAIT_MS} ms)`);
  assert.ok(errors.some((e) => e.code === 'SUTURE_DELIVERY_FAILED'), 'the failed delivery is an error event');
  t.diagnostic(`daemon down: held ${r.ms} ms of ${WAIT_MS} ms`);
});

test('daemon answering 503: the held call rethrows at once, the report is delivered later', { timeout: 30_000 }, async (t) => {
  let up = false;
  const stub = await startStubDaemon((r, res) => {
    if (r.path === '/v1/failures') return up ? json(res, 202, { fingerprint: 'fp', jobId: 'fp' }) : json(res, 503, { error: { code: 'SUTURE_CLOSING' } });
    json(res, 404, {});
  });
  const client = createRepairClient({ url: stub.url, app: 'game', publicKey: keys.publicKey, sync: 'off', waitForFix: WAIT_MS, flushInterval: 20, maxBackoff: 50, record: { sampleRate: 0 } });
  client.on('error', () => undefined);
  t.after(async () => {
    await client.close();
    await stub.close();
  });
  const r = await held(() => client.run('dmg', 'damage', seedBlock, { stats: { strength: 10 } }, { health: 5 } as never));
  assert.ok(r.error instanceof TypeError, String(r.error));
  assert.ok(r.ms < 2_000, `held ${r.ms} ms (waitForFix ${WAIT_MS} ms)`);
  up = true;
  const end = Date.now() + 5_000;
  const delivered = () => stub.requests.filter((q) => q.path === '/v1/failures' && q.method === 'POST');
  while (client.stats().failuresDelivered === 0 && Date.now() < end) await new Promise((res) => setTimeout(res, 20));
  assert.equal(client.stats().failuresDelivered, 1, 'the report was retried and delivered');
  const last = delivered().at(-1)?.body as FailureReport;
  assert.equal(last.block.id, 'dmg');
  t.diagnostic(`503: held ${r.ms} ms of ${WAIT_MS} ms; report delivered after ${delivered().length} tries`);
});
