import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FailureReport } from '../../core/wire.ts';
import { createRepairClient } from '../../sdk/index.ts';
import { makeKeys, manifestOf, signedPatch } from './signed-patch.ts';
import { json, startStubDaemon } from './stub-daemon.ts';

for (const execution of ['isolate', 'trusted'] as const) {
  test(`replace mode (${execution}): a patch that throws on a block without a receiver is reported with the call's own arguments, no receiver slot in front`, async (t) => {
    const keys = makeKeys();
    const stub = await startStubDaemon((r, res) => json(res, 202, r.path === '/v1/failures' ? { fingerprint: 'f', jobId: 'j' } : {}));
    const half = (order: { qty: number }) => order.qty / 2;
    const patch = signedPatch(keys.privateKey, { app: 'shop', blockId: 'half', original: half, source: '(order) => order.missing.qty' });
    const backupFile = join(mkdtempSync(join(tmpdir(), 'suture-replace-report-')), 'manifest.json');
    writeFileSync(backupFile, JSON.stringify(manifestOf('shop', [patch])));
    const client = createRepairClient({ url: stub.url, app: 'shop', publicKey: keys.publicKey, sync: 'off', backupFile, record: { sampleRate: 0, first: 0 }, execution });
    client.on('error', () => {});
    t.after(async () => {
      await client.close();
      await stub.close();
    });
    assert.equal(client.run('half', 'half the quantity', half, { qty: 4 }), 2, 'the block answers when its patch throws');
    await client.flush();
    const reports = stub.requests.filter((r) => r.path === '/v1/failures').map((r) => r.body as FailureReport);
    assert.equal(reports.length, 1);
    assert.equal(reports[0].patchId, patch.id);
    assert.deepEqual(reports[0].args, [{ qty: 4 }]);
  });
}
