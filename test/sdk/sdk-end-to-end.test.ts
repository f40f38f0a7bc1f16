import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Manifest } from '../../core/wire.ts';
import { createRepairClient, type RepairClient, type SdkError } from '../../sdk/index.ts';
import { createDaemon } from '../../daemon/daemon-server.ts';
import { GAME_TOKEN, quietLogger, startHarness, until, type Harness } from '../../testkit/service-harness.ts';
import { seedBlock } from './signed-patch.ts';

const DESCRIPTION = 'Calculate damage dealt by player to enemy based on strength and armor stats';
const dir = mkdtempSync(join(tmpdir(), 'suture-sdk-e2e-'));

describe('SDK with the real daemon, worker and Redis', () => {
  let h: Harness;
  let publicKey: string;
  const clients: RepairClient[] = [];
  const client = (instanceId: string, extra: Parameters<typeof createRepairClient>[0] extends infer O ? Partial<O> : never = {}) => {
    const c = createRepairClient({ url: h.url, app: 'game', token: GAME_TOKEN, publicKey, instanceId, record: { sampleRate: 1 }, flushInterval: 50, ...extra });
    clients.push(c);
    return c;
  };

  before(async () => {
    h = await startHarness();
    await h.startWorker();
    publicKey = ((await (await h.call('/v1/public-key')).json()) as { publicKey: string }).publicKey;
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await h.close();
  });

  it('repairs the seed scenario: the failing call itself returns a number, then every instance uses the patch', { timeout: 60_000 }, async () => {
    const a = client('instance-a', { waitForFix: 40_000 });
    const errors: SdkError[] = [];
    a.on('error', (e) => errors.push(e));
    const player = { name: 'hero', stats: { strength: 10 } };
    for (const armor of [0, 4, 9, 30]) {
      const enemy = { name: 'orc', health: 100, stats: { armor } };
      assert.equal(await a.run('player-damage-calc', DESCRIPTION, seedBlock, player, enemy), Math.max(1, 20 - armor));
    }
    await a.flush(); // recorded calls reach the daemon before the failure
    const ghost: { name: string; health: number; stats?: { armor: number } } = { name: 'ghost', health: 100 };
    const patched: string[] = [];
    a.on('patched', (e) => patched.push(e.via));
    const damage = await a.run('player-damage-calc', DESCRIPTION, seedBlock, player, ghost as never);
    assert.equal(typeof damage, 'number');
    assert.ok(ghost.health < 100, `enemy.health changed (now ${ghost.health})`);
    assert.deepEqual(patched, ['wait']);

    // Other instances (and this one) pick the patch up from the registry and use it on every call.
    const others = ['instance-b', 'instance-c', 'instance-d'].map((id) => client(id, { sync: id === 'instance-c' ? 'poll' : 'stream', pollInterval: 100 }));
    for (const c of [a, ...others]) {
      const e = { name: 'wisp', health: 50 };
      const d = await until(async () => {
        try {
          return { d: await c.run('player-damage-calc', DESCRIPTION, seedBlock, player, e as never) };
        } catch {
          return null;
        }
      }, 10_000, 50);
      assert.equal(typeof d.d, 'number');
      assert.equal(e.health, 50 - (d.d as number));
      // Known-good inputs keep their behaviour under the patch.
      assert.equal(await c.run('player-damage-calc', DESCRIPTION, seedBlock, player, { health: 10, stats: { armor: 4 } }), 16);
    }
    assert.equal(errors.filter((e) => e.code === 'SUTURE_PATCH_SIGNATURE_INVALID').length, 0);
  });

  it('refuses a tampered manifest entry and places 10 % canaries within statistical bounds', { timeout: 30_000 }, async () => {
    const res = await h.call('/v1/manifest?app=game', { token: GAME_TOKEN });
    const manifest = (await res.json()) as Manifest;
    const patch = manifest.patches.find((p) => p.blockId === 'player-damage-calc');
    assert.ok(patch, 'the daemon published a patch for the seed block');

    const tamperedFile = join(dir, 'tampered.json');
    writeFileSync(tamperedFile, JSON.stringify({ ...manifest, patches: [{ ...patch, source: patch.source.replace('health', 'mana') }] }));
    const offline = createRepairClient({ url: 'http://127.0.0.1:9', app: 'game', publicKey, sync: 'off', backupFile: tamperedFile, record: { sampleRate: 0 } });
    clients.push(offline);
    const errors: SdkError[] = [];
    offline.on('error', (e) => errors.push(e));
    assert.throws(() => offline.run('player-damage-calc', DESCRIPTION, seedBlock, { stats: { strength: 1 } }, { health: 1 } as never), TypeError);
    await new Promise((r) => setImmediate(r));
    assert.ok(errors.some((e) => e.code === 'SUTURE_PATCH_SIGNATURE_INVALID'));

    // The rollout share is not signed (the daemon moves it); a 10 % step over 100 instances.
    const canaryFile = join(dir, 'canary.json');
    writeFileSync(canaryFile, JSON.stringify({ ...manifest, patches: [{ ...patch, status: 'canary', rollout: 0.1 }] }));
    let patchedInstances = 0;
    for (let i = 0; i < 100; i++) {
      const c = createRepairClient({ url: 'http://127.0.0.1:9', app: 'game', publicKey, instanceId: `sim-${i}`, sync: 'off', backupFile: canaryFile, execution: 'trusted', record: { sampleRate: 0 } });
      try {
        c.run('player-damage-calc', DESCRIPTION, seedBlock, { stats: { strength: 1 } }, { health: 1 } as never);
        patchedInstances++;
      } catch {
        /* not in the canary: the original block threw */
      }
      await c.close();
    }
    // Binomial(100, 0.1): mean 10, sd 3; [2, 20] is beyond ±2.6 sd on each side.
    assert.ok(patchedInstances >= 2 && patchedInstances <= 20, `${patchedInstances} of 100 instances in a 10 % canary`);
  });

  it('loses no report when the daemon is stopped and restarted mid-run', { timeout: 30_000 }, async () => {
    // The daemon's close() waits for open SSE streams; the earlier clients are done, and this one polls.
    await Promise.all(clients.splice(0).map((x) => x.close()));
    const c = client('instance-restart', { record: { sampleRate: 0 }, maxBackoff: 200, flushInterval: 20, sync: 'poll', pollInterval: 100 });
    const port = Number(new URL(h.url).port);
    const failing = (n: number) => {
      throw new RangeError(`bad level ${n}`);
    };
    for (let i = 0; i < 5; i++) assert.throws(() => c.run('level-check', 'validate a level', failing, i), RangeError);
    await until(async () => c.stats().failuresDelivered === 5, 5000, 20);
    await h.daemon.close();
    for (let i = 5; i < 15; i++) assert.throws(() => c.run('level-check', 'validate a level', failing, i), RangeError);
    await new Promise((r) => setTimeout(r, 400)); // deliveries fail and back off meanwhile
    assert.ok(c.stats().failuresDelivered < 15);
    const restarted = await createDaemon({ ...h.config, port }, { logger: quietLogger });
    await restarted.listen();
    after(() => restarted.close()); // the harness closes only the daemon it started
    await until(async () => c.stats().failuresDelivered === 15, 10_000, 20);
    assert.equal(c.stats().failuresDropped, 0);
    // Every report is stored: the daemon knows the bug with all 15 distinct inputs.
    const bugs = (await (await h.call('/v1/admin/bugs?app=game', { token: 'admin-token-0123456789' })).json()) as { bugs: { fingerprint: string; blockId?: string }[] };
    assert.ok(bugs.bugs.length >= 1);
  });
});
