/**
 * Patches of blocks with `uses` run on the live world: live sync and async dependencies, effects
 * on uses objects and `this` written back, and in fallback mode no second effect of a call the
 * block already made.
 *
 * In isolate mode the isolate is in this process when node runs with --no-node-snapshot (as the
 * test scripts run it), else in the patch helper process the SDK starts: patched-world-helper.test.ts
 * runs this file again without the flag, so every scenario here also runs through the helper.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { FailureReport } from '../../core/wire.ts';
import { processHostsIsolates } from '../../sdk/helper-executor.ts';
import { createRepairClient, type RepairClientOptions, type SdkError } from '../../sdk/index.ts';
import { makeKeys, manifestOf, signedPatch } from './signed-patch.ts';
import { json, startStubDaemon } from './stub-daemon.ts';

const keys = makeKeys();
const dir = mkdtempSync(join(tmpdir(), 'suture-sdk-world-'));
const stub = await startStubDaemon((r, res) => json(res, 202, r.path === '/v1/failures' ? { fingerprint: 'f', jobId: 'j' } : {}));
after(() => stub.close());
let n = 0;
/** Where isolate-mode patches run in this process. */
const route = processHostsIsolates() ? 'in process' : 'helper process';
/** The patch helper processes this process started. */
const helperProcesses = (): number[] => {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid), '-f', 'patch-helper'], { encoding: 'utf8' }).split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

function clientWith(patches: ReturnType<typeof signedPatch>[], extra: Partial<RepairClientOptions>) {
  const backupFile = join(dir, `manifest-${++n}.json`);
  writeFileSync(backupFile, JSON.stringify(manifestOf('game', patches)));
  const client = createRepairClient({ url: stub.url, app: 'game', publicKey: keys.publicKey, sync: 'off', backupFile, record: { sampleRate: 0, first: 0 }, shadow: { sampleRate: 0, first: 0 }, flushInterval: 20, ...extra });
  const errors: SdkError[] = [];
  client.on('error', (e) => errors.push(e));
  return { client, errors };
}

class Enemy {
  #x: number;
  moves = 0;
  constructor(x: number) {
    this.#x = x;
  }
  getCurrentPosition() {
    return { x: this.#x, y: 0 };
  }
  step(dx: number) {
    this.#x += dx;
    this.moves++;
  }
}

for (const execution of ['isolate', 'trusted'] as const) {
  describe(`patched blocks with uses (${execution === 'isolate' ? `isolate, ${route}` : execution})`, () => {
    it('a patch calls live sync functions and methods (private fields and all) and returns what they answered', async () => {
      let playerX = 10;
      const getPlayerCoordinates = () => ({ x: playerX, y: 0 });
      const self = new Enemy(3);
      const moveRight = () => self.step(1);
      // Bug: moves left of the player away from it; the patch moves right.
      const chase = () => {
        const playerPos = getPlayerCoordinates();
        const myPos = self.getCurrentPosition();
        if (myPos.x < playerPos.x) self.step(-1);
        return self.getCurrentPosition().x;
      };
      const fix = `() => {
        const playerPos = getPlayerCoordinates();
        const myPos = self.getCurrentPosition();
        if (myPos.x < playerPos.x) moveRight();
        return self.getCurrentPosition().x;
      }`;
      const { client, errors } = clientWith([signedPatch(keys.privateKey, { app: 'game', blockId: 'chase', original: chase, source: fix })], { execution });
      const uses = { getPlayerCoordinates, self, moveRight };
      assert.equal(client.run({ id: 'chase', description: 'move towards the player', uses }, chase), 4);
      assert.equal(client.run({ id: 'chase', description: 'move towards the player', uses }, chase), 5);
      playerX = 0;
      assert.equal(client.run({ id: 'chase', description: 'move towards the player', uses }, chase), 5);
      assert.deepEqual([self.getCurrentPosition().x, self.moves], [5, 2], 'the live enemy moved twice, and its moves count was not undone by a write-back');
      assert.deepEqual(errors.map((e) => e.message), []);
      assert.equal(helperProcesses().length, execution === 'isolate' && route === 'helper process' ? 1 : 0, 'the patch ran where the route says');
      await client.close();
    });

    it('an async patch awaits a live async client and calls a live helper; a rejected call is a rejection the patch sees', async () => {
      const seen: number[] = [];
      const db = {
        async getUser(id: number) {
          seen.push(id);
          await new Promise((r) => setTimeout(r, 5));
          if (id < 0) throw new RangeError(`no user ${id}`);
          return { id, tier: id === 7 ? 'gold' : 'basic' };
        },
      };
      const RATES = { gold: 0.1, basic: 0 };
      const discountOf = (tier: string) => RATES[tier as keyof typeof RATES];
      const total = async (id: number, net: number) => {
        const user = await db.getUser(id);
        return net * (1 - discountOf(user.tier.toUpperCase()));
      };
      const fix = `async (id, net) => {
        try {
          const user = await db.getUser(id);
          return net * (1 - discountOf(user.tier));
        } catch (e) {
          return 'refused: ' + e.name + ' ' + e.message;
        }
      }`;
      const { client } = clientWith([signedPatch(keys.privateKey, { app: 'game', blockId: 'total', original: total, source: fix })], { execution });
      const block = { id: 'total', description: 'total after discount', uses: { db, discountOf } };
      assert.equal(await client.run(block, total, 7, 200), 180);
      assert.equal(await client.run(block, total, 8, 200), 200);
      assert.equal(await client.run(block, total, -1, 200), 'refused: RangeError no user -1');
      assert.deepEqual(seen, [7, 8, -1]);
      await client.close();
    });

    it('effects on uses objects and on this are written back', async () => {
      const counter = { n: 1, log: [] as string[] };
      const hero = { hp: 10, name: 'ann' };
      const heal = function (this: typeof hero, by: number) {
        counter.n += by;
        counter.log.push(this.name);
        this.hp += by;
        throw new Error('bug after the effects');
      };
      const fix = `function (by) { counter.n += by; counter.log.push(this.name); this.hp += by; return this.hp; }`;
      const { client } = clientWith([signedPatch(keys.privateKey, { app: 'game', blockId: 'heal', original: heal, source: fix })], { execution });
      const wrapped = client.wrap({ id: 'heal', description: 'heal', uses: { counter } }, heal);
      assert.equal(wrapped.call(hero, 5), 15);
      assert.deepEqual(counter, { n: 6, log: ['ann'] });
      assert.equal(hero.hp, 15);
      await client.close();
    });

    it('fallback: a call the block already made is answered from its log (the live function runs once); a different call ends with the block\'s error', async () => {
      const charges: number[] = [];
      const ledger = {
        charge(amount: number) {
          charges.push(amount);
          return `receipt-${charges.length}`;
        },
      };
      const pay = (amount: number, item: { price?: number }) => {
        const receipt = ledger.charge(amount);
        return `${receipt}:${(item.price as number).toFixed(2)}`;
      };
      const sameCall = `(amount, item) => { const receipt = ledger.charge(amount); return receipt + ':' + (item.price ?? 0).toFixed(2); }`;
      const { client, errors } = clientWith([signedPatch(keys.privateKey, { app: 'game', blockId: 'pay', original: pay, source: sameCall, mode: 'fallback' })], { execution });
      const block = { id: 'pay', description: 'charge and describe', uses: { ledger } };
      assert.equal(client.run(block, pay, 10, { price: 3 }), 'receipt-1:3.00', 'healthy call: the block answers');
      assert.equal(client.run(block, pay, 10, {}), 'receipt-2:0.00', 'the patch got the receipt the block was given');
      assert.deepEqual(charges, [10, 10], 'one charge per call: the patch did not charge again');
      await client.close();

      const otherCall = `(amount, item) => { const receipt = ledger.charge(amount * 2); return receipt + ':' + (item.price ?? 0).toFixed(2); }`;
      const p2 = clientWith([signedPatch(keys.privateKey, { app: 'game', blockId: 'pay', original: pay, source: otherCall, mode: 'fallback' })], { execution });
      assert.throws(() => p2.client.run(block, pay, 10, {}), (e: Error) => e instanceof TypeError && /toFixed/.test(e.message), "the block's own error");
      assert.deepEqual(charges, [10, 10, 10], 'the patch never charged 20');
      await p2.client.flush();
      const reported = stub.requests.filter((r) => r.path === '/v1/failures').map((r) => r.body as FailureReport).filter((r) => r.block.id === 'pay' && r.patchId !== undefined);
      assert.ok(reported.some((r) => /called ledger.charge where the block had called ledger.charge with other arguments/.test(r.error.message)), JSON.stringify(reported.map((r) => r.error)));
      assert.deepEqual(p2.errors.filter((e) => e.code !== 'SUTURE_CANNOT_SEE').map((e) => e.message), []);
      await p2.client.close();
      assert.deepEqual(errors.map((e) => e.message), []);
    });
  });
}
