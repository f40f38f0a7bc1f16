import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createPauseAdapter, createRepairClient, type RepairClientOptions, type SdkError } from '../../sdk/index.ts';
import { makeKeys, manifestOf, seedBlock, seedFix, signedPatch } from './signed-patch.ts';

const keys = makeKeys();
const dir = mkdtempSync(join(tmpdir(), 'suture-sdk-'));
let n = 0;

/** A client that starts offline from a backup manifest holding `patches` (no daemon at that URL). */
function offlineClient(patches: ReturnType<typeof signedPatch>[], extra: Partial<RepairClientOptions> = {}) {
  const backupFile = join(dir, `manifest-${++n}.json`);
  writeFileSync(backupFile, JSON.stringify(manifestOf('game', patches)));
  const errors: SdkError[] = [];
  const client = createRepairClient({
    url: 'http://127.0.0.1:9', // nothing listens: the daemon is down
    app: 'game',
    publicKey: keys.publicKey,
    sync: 'off',
    backupFile,
    record: { sampleRate: 0 },
    ...extra,
  });
  client.on('error', (e) => errors.push(e));
  return { client, errors };
}

const player = () => ({ name: 'hero', stats: { strength: 10 } });

describe('patched execution (isolate)', () => {
  it('runs a verified patch from the backup manifest and applies argument state back', async () => {
    const { client } = offlineClient([signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: seedFix })]);
    const patchedEvents: string[] = [];
    client.on('patched', (e) => patchedEvents.push(e.patchId));
    const enemy: { name: string; health: number; stats?: { armor: number } } = { name: 'ghost', health: 50 };
    const damage = await client.run('dmg', 'damage', seedBlock, player(), enemy as never);
    assert.equal(damage, 20);
    assert.equal(enemy.health, 30, 'the patched block still lowers the caller’s enemy.health');
    assert.equal(patchedEvents.length, 1);
    // An enemy with stats goes through the patch too, same as the original would.
    const armoured = { health: 100, stats: { armor: 5 } };
    assert.equal(client.run('dmg', 'damage', seedBlock, player(), armoured), 15);
    assert.equal(armoured.health, 85);
    await client.close();
  });

  it('writes back nested changes, deleted keys, array changes and shared references', async () => {
    const original = (state: { items: number[]; meta: { a?: number; b: number }; log: string[] }, other: { ref?: unknown }) => {
      return state.items.length + other.toString().length;
    };
    const fix = `(state, other) => {
      state.items.push(4); state.items[0] = 9;
      delete state.meta.a; state.meta.b += 1; state.meta.c = { deep: true };
      state.log.length = 0;
      other.ref = state.meta;
      return { sum: state.items.reduce((x, y) => x + y, 0), same: state };
    }`;
    const { client } = offlineClient([signedPatch(keys.privateKey, { app: 'game', blockId: 'wb', original, source: fix })]);
    const items = [1, 2, 3];
    const meta: { a?: number; b: number; c?: unknown } = { a: 1, b: 2 };
    const state = { items, meta, log: ['x', 'y'] };
    const other: { ref?: unknown } = {};
    const out = client.run('wb', 'write back', original, state, other) as unknown as { sum: number; same: unknown };
    assert.deepEqual(items, [9, 2, 3, 4]);
    assert.equal(state.items, items, 'arrays are updated in place');
    assert.equal(state.meta, meta);
    assert.deepEqual(meta, { b: 3, c: { deep: true } });
    assert.equal('a' in meta, false);
    assert.deepEqual(state.log, []);
    assert.equal(other.ref, meta, 'a reference to another argument’s object maps to the caller’s object');
    assert.equal(out.sum, 18);
    assert.equal(out.same, state, 'a result that is an argument is the caller’s own object');
    await client.close();
  });

  it('async blocks run their patch in the isolate and resolve with its result', async () => {
    const original = async (order: { total: number; lines: { price: number }[] }) => {
      order.total = order.lines.reduce((s, l) => s + (l.price as unknown as { amount: number }).amount, 0);
      return order.total;
    };
    const fix = `async (order) => { order.total = order.lines.reduce((s, l) => s + l.price, 0); return order.total; }`;
    const { client } = offlineClient([signedPatch(keys.privateKey, { app: 'game', blockId: 'total', original, source: fix })]);
    const order = { total: 0, lines: [{ price: 2 }, { price: 3 }] };
    assert.equal(await client.run('total', 'order total', original as never, order), 5);
    assert.equal(order.total, 5);
    await client.close();
  });

  it('an endless loop in a patch is stopped; the call gets the block’s own behaviour and the app keeps running', async () => {
    const original = (x: { v: number }) => {
      if (x.v < 0) throw new RangeError('negative');
      return x.v * 2;
    };
    const { client } = offlineClient([signedPatch(keys.privateKey, { app: 'game', blockId: 'loop', original, source: '(x) => { while (true) {} }' })], {
      limits: { cpuMs: 50 },
    });
    const failures: { patchId?: string }[] = [];
    client.on('failure', (f) => failures.push(f));
    const t0 = Date.now();
    assert.equal(client.run('loop', 'loop', original, { v: 21 }), 42, 'falls back to the original block');
    const boom = new RangeError('x');
    assert.throws(() => client.run('loop', 'loop', original, { v: -1 }), (e: unknown) => e instanceof RangeError && e.message === 'negative' && e !== boom);
    assert.ok(Date.now() - t0 < 2000, 'each call is cut at the CPU limit');
    assert.ok(failures.some((f) => f.patchId !== undefined), 'the patch failure is reported with its patch id');
    // Still working afterwards (a fresh context replaces the one that hit the limit).
    assert.equal(client.run('loop', 'loop', original, { v: 1 }), 2);
    await client.close();
  });

  it('a patch that exhausts the heap is stopped and the isolate replaced', async () => {
    const original = (n: number) => n + 1;
    const { client } = offlineClient(
      [signedPatch(keys.privateKey, { app: 'game', blockId: 'mem', original, source: '(n) => { const a = []; while (true) a.push(new Array(1e5).fill(n)); }' })],
      { limits: { memoryMb: 16, cpuMs: 5000 } },
    );
    assert.equal(client.run('mem', 'mem', original, 1), 2);
    assert.equal(client.run('mem', 'mem', original, 2), 3);
    await client.close();
  });

  it('refuses a patch whose signature does not verify, with an error event', async () => {
    const good = signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: seedFix });
    const tampered = { ...good, source: seedFix.replace('?? 0', '?? -1000') };
    const { client, errors } = offlineClient([tampered]);
    await new Promise((r) => setImmediate(r));
    assert.ok(errors.some((e) => e.code === 'SUTURE_PATCH_SIGNATURE_INVALID'));
    const enemy = { health: 50 };
    assert.throws(() => client.run('dmg', 'damage', seedBlock, player(), enemy as never), TypeError);
    assert.equal(enemy.health, 50);
    await client.close();
  });

  it('a patch signed by another key is refused too', async () => {
    const other = makeKeys();
    const { client, errors } = offlineClient([signedPatch(other.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: seedFix })]);
    assert.throws(() => client.run('dmg', 'damage', seedBlock, player(), { health: 1 } as never), TypeError);
    await new Promise((r) => setImmediate(r));
    assert.ok(errors.some((e) => e.code === 'SUTURE_PATCH_SIGNATURE_INVALID'));
    await client.close();
  });

  it('a patch for another version of the block (source hash) does not apply', async () => {
    const { client } = offlineClient([signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: '(a) => a', source: seedFix })]);
    assert.throws(() => client.run('dmg', 'damage', seedBlock, player(), { health: 1 } as never), TypeError);
    await client.close();
  });

  it('pending and out-of-share patches do not run', async () => {
    const pending = signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: seedFix, status: 'pending-approval' });
    const zero = signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg2', original: seedBlock, source: seedFix, rollout: 0 });
    const { client } = offlineClient([pending, zero]);
    assert.throws(() => client.run('dmg', 'damage', seedBlock, player(), { health: 1 } as never), TypeError);
    assert.throws(() => client.run('dmg2', 'damage', seedBlock, player(), { health: 1 } as never), TypeError);
    await client.close();
  });

  it('wrap and the Pause adapter (scope as this) run the patch too', async () => {
    const original = function (this: { bonus: number }, enemy: { health: number; stats?: { armor: number } }) {
      const d = 10 + this.bonus - enemy.stats!.armor;
      enemy.health -= d;
      this.bonus += 1;
      return d;
    };
    const fix = `function (enemy) { const d = 10 + this.bonus - (enemy.stats?.armor ?? 0); enemy.health -= d; this.bonus += 1; return d; }`;
    const { client } = offlineClient([signedPatch(keys.privateKey, { app: 'game', blockId: 'scoped', original, source: fix })]);
    const scope = { bonus: 2 };
    const enemy = { health: 40 };
    const pause = createPauseAdapter(client);
    assert.equal(await pause.run('scoped', 'scoped damage', original, scope, enemy), 12);
    assert.equal(enemy.health, 28);
    assert.equal(scope.bonus, 3, 'state of the scope is applied back like the arguments’');
    const wrapped = client.wrap('scoped', 'scoped damage', original);
    assert.equal(wrapped.call(scope, enemy), 13);
    assert.equal(enemy.health, 15);
    await client.close();
  });
});

describe('patched execution (trusted)', () => {
  it('compiles the verified patch in-process and runs it on the live arguments', async () => {
    const { client } = offlineClient([signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: seedFix })], {
      execution: 'trusted',
    });
    const enemy = { health: 50, onHit: () => 'kept' };
    assert.equal(client.run('dmg', 'damage', seedBlock, player(), enemy as never), 20);
    assert.equal(enemy.health, 30);
    assert.equal(enemy.onHit(), 'kept');
    await client.close();
  });

  it('without a public key nothing runs, even a validly signed patch', async () => {
    const { client, errors } = offlineClient([signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: seedFix })], {
      publicKey: undefined,
      execution: 'trusted',
    });
    assert.throws(() => client.run('dmg', 'damage', seedBlock, player(), { health: 1 } as never), TypeError);
    await new Promise((r) => setImmediate(r));
    assert.ok(errors.length > 0);
    await client.close();
  });
});

describe('the success path', () => {
  it('returns what the block returns, sync and async, and rethrows its error unchanged', async () => {
    const { client } = offlineClient([]);
    assert.equal(client.run('id', 'd', (a: number, b: number) => a + b, 1, 2), 3);
    assert.equal(await client.run('id2', 'd', async (a: number) => a * 2, 4), 8);
    const err = new SyntaxError('mine');
    assert.throws(() => client.run('id3', 'd', () => { throw err; }), (e) => e === err);
    await assert.rejects(client.run('id4', 'd', async () => { throw err; }), (e) => e === err);
    const thrown = 'a string';
    assert.throws(() => client.run('id5', 'd', () => { throw thrown; }), (e) => e === thrown);
    await client.close();
  });
});
