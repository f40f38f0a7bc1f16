import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FailureReport, OutcomeReport, RecordedCasesBatch } from '../../core/wire.ts';
import { createRepairClient, type RepairClientOptions, type SdkError, type ShadowEvent } from '../../sdk/index.ts';
import { makeKeys, manifestOf, seedBlock, seedFix, signedPatch } from './signed-patch.ts';
import { json, startStubDaemon } from './stub-daemon.ts';

const keys = makeKeys();
const dir = mkdtempSync(join(tmpdir(), 'suture-sdk-fallback-'));
let n = 0;

/** A client on a stub daemon (which acknowledges everything), its manifest from a backup file. */
async function clientWith(patches: ReturnType<typeof signedPatch>[], extra: Partial<RepairClientOptions> = {}) {
  const stub = await startStubDaemon((r, res) => json(res, 202, r.path === '/v1/failures' ? { fingerprint: 'f', jobId: 'j' } : {}));
  const backupFile = join(dir, `manifest-${++n}.json`);
  writeFileSync(backupFile, JSON.stringify(manifestOf('game', patches)));
  const errors: SdkError[] = [];
  const shadows: ShadowEvent[] = [];
  const client = createRepairClient({ url: stub.url, app: 'game', publicKey: keys.publicKey, sync: 'off', backupFile, record: { sampleRate: 0, first: 0 }, flushInterval: 20, ...extra });
  client.on('error', (e) => errors.push(e));
  client.on('shadow', (e) => shadows.push(e));
  const outcomes = () => stub.requests.filter((r) => r.path === '/v1/outcomes').flatMap((r) => (r.body as OutcomeReport).outcomes);
  return { client, errors, shadows, stub, outcomes };
}

const player = () => ({ stats: { strength: 10 } });
/** A wrong "fix": right on stat-less enemies, but halves the damage of every other one. */
const halvingFix = seedFix.replace('return finalDamage;', 'return enemy.stats ? finalDamage / 2 : finalDamage;');
const waitFor = async (probe: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 10));
  }
};

for (const execution of ['isolate', 'trusted'] as const) {
  describe(`fallback mode (${execution})`, () => {
    it('healthy calls keep the block’s answer even when the patch would differ; a throwing call gets the patch’s answer on its entry inputs', async () => {
      const { client, stub } = await clientWith([signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: halvingFix, mode: 'fallback' })], {
        execution,
        shadow: { sampleRate: 0, first: 0 },
      });
      for (const armor of [0, 4, 9]) {
        const enemy = { health: 100, stats: { armor } };
        assert.equal(client.run('dmg', 'damage', seedBlock, player(), enemy), 20 - armor, 'the block answers, not the patch');
        assert.equal(enemy.health, 80 + armor);
      }
      // The block lowers health before it throws: the patch must start from the entry state.
      const lowersFirst = (p: { stats: { strength: number } }, e: { health: number; stats: { armor: number } }) => {
        e.health -= 1;
        return seedBlock(p, e);
      };
      const fix = signedPatch(keys.privateKey, { app: 'game', blockId: 'pre', original: lowersFirst, source: seedFix, mode: 'fallback' });
      const { client: c2, stub: s2 } = await clientWith([fix], { execution, shadow: { sampleRate: 0, first: 0 } });
      const ghost: { health: number; stats?: { armor: number } } = { health: 50 };
      assert.equal(c2.run('pre', 'damage', lowersFirst, player(), ghost as never), 20);
      assert.equal(ghost.health, 30, 'the patch ran on the entry inputs (50), not on what the block left (49)');
      const asyncBlock = async (e: { v?: { w: number } }) => (e.v as { w: number }).w * 2;
      const asyncFix = signedPatch(keys.privateKey, { app: 'game', blockId: 'async', original: asyncBlock, source: 'async (e) => (e.v?.w ?? 0) * 2', mode: 'fallback' });
      const { client: c3, stub: s3 } = await clientWith([asyncFix], { execution, shadow: { sampleRate: 0, first: 0 } });
      assert.equal(await c3.run('async', 'twice', asyncBlock, { v: { w: 4 } }), 8);
      assert.equal(await c3.run('async', 'twice', asyncBlock, {}), 0);
      for (const [c, s] of [[client, stub], [c2, s2], [c3, s3]] as const) {
        await c.close();
        await s.close();
      }
    });

    it('a patch that throws too leaves the block’s own error, reported with the patch id', async () => {
      const { client, stub } = await clientWith([signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: '() => { throw new RangeError("patch") }', mode: 'fallback' })], { execution });
      const ghost = { health: 50 };
      assert.throws(() => client.run('dmg', 'damage', seedBlock, player(), ghost as never), TypeError);
      assert.equal(ghost.health, 50);
      await client.close();
      const reports = stub.requests.filter((r) => r.path === '/v1/failures').map((r) => r.body as FailureReport);
      assert.ok(reports.some((r) => r.patchId === undefined ? false : /patch/.test(r.error.message)), 'the patch’s failure counts against it');
      assert.ok(reports.some((r) => !r.patchId && r.error.name === 'TypeError'));
      await stub.close();
    });

    it('shadow runs: a patch that changes a healthy answer is reported at once with the block’s answer and dropped here', async () => {
      const wrong = signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: halvingFix, mode: 'fallback' });
      const { client, stub, shadows, outcomes } = await clientWith([wrong], { execution, flushInterval: 60_000 });
      const enemy = { health: 100, stats: { armor: 4 } };
      assert.equal(client.run('dmg', 'damage', seedBlock, player(), enemy), 16);
      assert.equal(enemy.health, 84, 'the shadow run never touches the caller’s objects');
      await waitFor(() => outcomes().length > 0);
      assert.deepEqual(shadows.map((s) => s.agreed), [false]);
      const o = outcomes()[0];
      assert.equal(o.patchId, wrong.id);
      assert.equal(o.disagreed, 1);
      const d = o.disagreements?.[0];
      assert.ok(d, 'the disagreeing call is sent');
      assert.deepEqual(d.call.args, [{ stats: { strength: 10 } }, { health: 100, stats: { armor: 4 } }]);
      assert.equal(d.call.result, 16, 'the block’s answer is the expectation');
      assert.deepEqual(d.call.argsAfter[1], { health: 84, stats: { armor: 4 } });
      assert.ok('result' in d.patch && d.patch.result === 8, 'the patch’s own answer is shown');
      // Dropped: a failing call now gets the block's own error.
      assert.throws(() => client.run('dmg', 'damage', seedBlock, player(), { health: 5 } as never), TypeError);
      await client.close();
      await stub.close();
    });

    it('shadow runs: a right patch agrees on the first calls, and a sample afterwards', async () => {
      const fix = signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: seedFix, mode: 'fallback' });
      const { client, stub, shadows, outcomes } = await clientWith([fix], { execution, shadow: { first: 3, sampleRate: 0.5 } });
      for (let i = 0; i < 200; i++) {
        client.run('dmg', 'damage', seedBlock, player(), { health: 100, stats: { armor: i % 10 } });
        await new Promise((r) => setImmediate(r)); // an app between requests: shadow runs get their turn
      }
      await waitFor(() => shadows.length >= 3);
      await new Promise((r) => setTimeout(r, 50));
      await client.close();
      assert.ok(shadows.every((s) => s.agreed));
      assert.ok(shadows.length >= 3 + 60 && shadows.length <= 3 + 140, `3 first + about half of 197 (pending runs are bounded), got ${shadows.length}`);
      const agreed = outcomes().reduce((a, o) => a + (o.agreed ?? 0), 0);
      assert.equal(agreed, shadows.length);
      assert.equal(outcomes().reduce((a, o) => a + (o.disagreed ?? 0), 0), 0);
      await stub.close();
    });
  });
}

describe('replace mode', () => {
  it('runs instead of the block only with a grant that verifies; a bare mode field runs in fallback mode', async () => {
    const granted = signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: halvingFix, mode: 'replace' });
    const { client, stub } = await clientWith([granted], { shadow: { first: 0, sampleRate: 0 } });
    assert.equal(client.run('dmg', 'damage', seedBlock, player(), { health: 100, stats: { armor: 4 } }), 8, 'replace: the patch answers every call');
    await client.close();
    await stub.close();

    const bare = { ...signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: halvingFix, mode: 'fallback' }), mode: 'replace' as const };
    const other = makeKeys();
    const forged = { ...signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: halvingFix }), modeSignature: signedPatch(other.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: halvingFix }).modeSignature };
    const stolen = { ...signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: halvingFix, version: 2 }), modeSignature: granted.modeSignature };
    for (const p of [bare, forged, stolen]) {
      const c = await clientWith([p], { shadow: { first: 0, sampleRate: 0 } });
      assert.equal(c.client.run('dmg', 'damage', seedBlock, player(), { health: 100, stats: { armor: 4 } }), 16, 'no valid grant: fallback, the block answers');
      await new Promise((r) => setTimeout(r, 20)); // error events raised while the client starts arrive a tick later
      assert.equal(await c.client.run('dmg', 'damage', seedBlock, player(), { health: 100 } as never), 20, 'the patch still answers a throwing call');
      assert.ok(c.errors.some((e) => e.code === 'SUTURE_PATCH_SIGNATURE_INVALID' && /without a grant/.test(e.message)));
      await c.client.close();
      await c.stub.close();
    }
  });
});

describe('known-good calls before failures', () => {
  it('the first calls of a block reach the daemon before a failure report of that block, even right after', async () => {
    const stub = await startStubDaemon((r, res) => setTimeout(() => json(res, 202, r.path === '/v1/failures' ? { fingerprint: 'f', jobId: 'j' } : {}), r.path === '/v1/cases' ? 100 : 0));
    const client = createRepairClient({ url: stub.url, app: 'game', sync: 'off' }); // default options: 1 % sampling, 3 first calls
    for (const armor of [1, 2, 3]) client.run('dmg', 'damage', seedBlock, player(), { health: 100, stats: { armor } });
    assert.throws(() => client.run('dmg', 'damage', seedBlock, player(), { health: 100 } as never));
    await new Promise((r) => setTimeout(r, 900)); // failures go within 500 ms, recorded calls only every 2 s
    const paths = stub.requests.map((r) => r.path);
    assert.deepEqual(paths, ['/v1/cases', '/v1/failures']);
    assert.equal((stub.requests[0].body as RecordedCasesBatch).blocks[0].calls.length, 3);
    await client.close();
    await stub.close();
  });
});
