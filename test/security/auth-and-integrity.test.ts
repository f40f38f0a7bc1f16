import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRepairClient, type SdkError } from '../../sdk/index.ts';
import { makeKeys, manifestOf, seedBlock, seedFix, signedPatch } from '../sdk/signed-patch.ts';
import { json, startStubDaemon } from '../sdk/stub-daemon.ts';
import { ADMIN_TOKEN, SHOP_TOKEN, failureReport, startHarness, until } from '../../testkit/service-harness.ts';

/**
 * Requests without a token, with a wrong one, and app tokens on admin routes are refused on every
 * route (test/service/hostile-requests.test.ts covers the ingest route's auth and validation in
 * depth); patches altered after signing and manifests replayed from an older revision are refused
 * by the SDK.
 */
describe('auth and integrity', () => {
  it('every admin route refuses no token (401), a wrong token (401) and an app token (403)', async (t) => {
    const h = await startHarness();
    t.after(() => h.close());
    const routes: [string, string, unknown?][] = [
      ['GET', '/v1/admin/apps'],
      ['GET', '/v1/admin/blocks?app=shop'],
      ['GET', '/v1/admin/bugs?app=shop'],
      ['GET', '/v1/admin/bugs/0123456789abcdef0123456789abcdef'],
      ['POST', '/v1/admin/bugs/0123456789abcdef0123456789abcdef/requeue', {}],
      ['GET', '/v1/admin/jobs'],
      ['GET', '/v1/admin/jobs/1'],
      ['GET', '/v1/admin/patches?app=shop'],
      ['GET', '/v1/admin/patches/p1'],
      ['POST', '/v1/admin/patches/p1/approve', {}],
      ['POST', '/v1/admin/patches/p1/rollback', {}],
      ['GET', '/v1/admin/policies'],
      ['PUT', '/v1/admin/policies', { app: 'shop', policy: 'auto' }],
      ['GET', '/v1/admin/audit'],
    ];
    for (const [method, path, body] of routes) {
      for (const [token, status] of [[null, 401], ['wrong-token-xyz', 401], [SHOP_TOKEN, 403]] as const) {
        const res = await h.call(path, { method, body, token });
        assert.equal(res.status, status, `${method} ${path} with ${token ?? 'no token'}`);
      }
      const admin = await h.call(path, { method, body, token: ADMIN_TOKEN });
      assert.notEqual(admin.status, 401, `${method} ${path} accepts the admin token`);
      assert.notEqual(admin.status, 403, `${method} ${path} accepts the admin token`);
    }
    // App routes: nothing without a valid app token, and nothing was stored by refused reports.
    for (const [method, path, body] of [
      ['POST', '/v1/failures', failureReport()],
      ['POST', '/v1/cases', { requestId: 'r', app: 'shop', instanceId: 'i', blocks: [] }],
      ['POST', '/v1/outcomes', { app: 'shop', instanceId: 'i', outcomes: [] }],
      ['GET', '/v1/manifest?app=shop'],
      ['GET', '/v1/manifest/stream?app=shop'],
      ['GET', '/v1/failures/0123456789abcdef0123456789abcdef/patch'],
    ] as const) {
      for (const token of [null, 'wrong-token-xyz']) {
        const res = await h.call(path, { method, body, token });
        assert.equal(res.status, 401, `${method} ${path} with ${token ?? 'no token'}`);
        await res.body?.cancel();
      }
    }
    const bugs = await (await h.call('/v1/admin/bugs?app=shop', { token: ADMIN_TOKEN })).json();
    assert.deepEqual(bugs.bugs, [], 'refused reports stored nothing');
  });

  it('a patch whose source or version changed after signing is refused; the call runs the block itself', async () => {
    const keys = makeKeys();
    const dir = mkdtempSync(join(tmpdir(), 'suture-integrity-'));
    const good = signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: seedFix });
    for (const [what, tampered] of [
      ['source', { ...good, source: seedFix.replace('?? 0', '?? -1000') }],
      ['version', { ...good, version: good.version + 1 }],
      ['block id', { ...good, blockId: 'other' }],
      ['source hash', { ...good, sourceHash: 'f'.repeat(good.sourceHash.length) }],
    ] as const) {
      const backupFile = join(dir, `${what.replace(' ', '-')}.json`);
      writeFileSync(backupFile, JSON.stringify(manifestOf('game', [tampered])));
      const client = createRepairClient({ url: 'http://127.0.0.1:9', app: 'game', publicKey: keys.publicKey, sync: 'off', backupFile, record: { sampleRate: 0 } });
      const errors: SdkError[] = [];
      client.on('error', (e) => errors.push(e));
      const enemy = { health: 50 };
      assert.throws(() => client.run(tampered.blockId, 'damage', seedBlock, { stats: { strength: 10 } }, enemy as never), TypeError, `${what}: the block's own error`);
      await new Promise((r) => setImmediate(r)); // error events are emitted asynchronously
      assert.ok(errors.some((e) => e.code === 'SUTURE_PATCH_SIGNATURE_INVALID'), `${what}: refused with an event`);
      assert.equal(enemy.health, 50, `${what}: the tampered patch did not run`);
      await client.close();
    }
  });

  it('a manifest replayed from an older revision is refused; the newer patch keeps running', async () => {
    const keys = makeKeys();
    const fix = signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: seedFix });
    const oldBad = signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: seedFix.replace('?? 0', '?? 1000'), version: 1 });
    let served = 0;
    const stub = await startStubDaemon((r, res) => {
      if (!r.path.startsWith('/v1/manifest')) return json(res, 202, {});
      served++;
      // Revision 5 first, then a replay of revision 3 (validly signed, since rolled back).
      return served === 1 ? json(res, 200, manifestOf('game', [fix], 5), { etag: '"5"' }) : json(res, 200, manifestOf('game', [oldBad], 3), { etag: '"3"' });
    });
    const client = createRepairClient({ url: stub.url, app: 'game', publicKey: keys.publicKey, sync: 'poll', pollInterval: 20, maxBackoff: 40, record: { sampleRate: 0 } });
    const errors: SdkError[] = [];
    client.on('error', (e) => errors.push(e));
    try {
      await until(async () => served >= 4, 5000, 10);
      assert.equal(client.stats().manifestRevision, 5);
      assert.ok(errors.some((e) => e.code === 'SUTURE_MANIFEST_INVALID' && /older than revision 5/.test(e.message)), 'the replay is reported');
      const enemy = { health: 50 };
      assert.equal(client.run('dmg', 'damage', seedBlock, { stats: { strength: 10 } }, enemy as never), 20, 'revision 5’s patch still runs');
    } finally {
      await client.close();
      await stub.close();
    }
  });
});
