/**
 * Fallback mode without entry copies: a block with a fallback-mode patch that provably writes to no
 * object does not copy (walk) its arguments on healthy calls, yet a throwing call still gets the
 * patch's answer on its entry inputs. A block that may write keeps the copy; shadow runs copy only
 * the calls they compare.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FailureReport } from '../../core/wire.ts';
import { createRepairClient, type RepairClientOptions, type ShadowEvent } from '../../sdk/index.ts';
import { makeKeys, manifestOf, signedPatch } from './signed-patch.ts';
import { json, startStubDaemon } from './stub-daemon.ts';

const keys = makeKeys();
const dir = mkdtempSync(join(tmpdir(), 'suture-sdk-fallback-copy-'));
let n = 0;

type Item = { qty: number; unit?: { cents: number } };
/** Writes to no object: reads two fields, throws on an item without a unit. */
const price = (item: Item) => item.qty * (item.unit as { cents: number }).cents;
const priceFix = '(item) => item.qty * (item.unit?.cents ?? 100)';
/** Writes its argument before it may throw. */
const bump = (c: { n: number; unit?: { cents: number } }) => {
  c.n += 1;
  return c.n * (c.unit as { cents: number }).cents;
};
const bumpFix = '(c) => { c.n += 1; return c.n * (c.unit?.cents ?? 100); }';

type Setup = { client: ReturnType<typeof createRepairClient>; shadows: ShadowEvent[]; reports: () => FailureReport[] };

/** A client on a stub daemon with one fallback-mode patch (from a backup file); closed after `body`, whatever happens. */
async function withPatch(blockId: string, original: Function, source: string, extra: Partial<RepairClientOptions>, body: (c: Setup) => Promise<void>): Promise<void> {
  const stub = await startStubDaemon((r, res) => json(res, 202, r.path === '/v1/failures' ? { fingerprint: 'f', jobId: 'j' } : {}));
  const backupFile = join(dir, `manifest-${++n}.json`);
  writeFileSync(backupFile, JSON.stringify(manifestOf('shop', [signedPatch(keys.privateKey, { app: 'shop', blockId, original, source, mode: 'fallback' })])));
  const client = createRepairClient({ url: stub.url, app: 'shop', publicKey: keys.publicKey, sync: 'off', backupFile, record: { sampleRate: 0, first: 0 }, flushInterval: 20, ...extra });
  const shadows: ShadowEvent[] = [];
  client.on('shadow', (e) => shadows.push(e));
  const reports = () => stub.requests.filter((r) => r.path === '/v1/failures').map((r) => r.body as FailureReport);
  try {
    await body({ client, shadows, reports });
  } finally {
    await client.close();
    await stub.close();
  }
}

/** `target` behind a proxy that logs every trap (nested objects too): what was read of it. */
function watched<T extends object>(target: T, log: string[], path = ''): T {
  return new Proxy(target, {
    get(t, k, r) {
      log.push(`get ${path}${String(k)}`);
      const v = Reflect.get(t, k, r) as unknown;
      return v !== null && typeof v === 'object' ? watched(v, log, `${path}${String(k)}.`) : v;
    },
    ownKeys(t) {
      log.push(`keys ${path}`);
      return Reflect.ownKeys(t);
    },
    getOwnPropertyDescriptor(t, k) {
      log.push(`describe ${path}${String(k)}`);
      return Reflect.getOwnPropertyDescriptor(t, k);
    },
  });
}

for (const execution of ['isolate', 'trusted'] as const) {
  describe(`fallback mode without entry copies (${execution})`, () => {
    it('healthy calls of a block that writes nothing read only what the block reads; a throwing call gets the patch’s answer', async () => {
      await withPatch('price', price, priceFix, { execution, shadow: { first: 0, sampleRate: 0 } }, async (c) => {
        const log: string[] = [];
        const item = watched({ qty: 3, unit: { cents: 250 } }, log);
        for (let i = 0; i < 50; i++) assert.equal(c.client.run('price', 'price', price, item), 750);
        assert.deepEqual(new Set(log), new Set(['get qty', 'get unit', 'get unit.cents']), 'the arguments were walked (copied) on a healthy call');
        assert.equal(log.length, 150);

        const bare: Item = { qty: 2 };
        assert.equal(c.client.run('price', 'price', price, bare), 200, 'the patch answers the throwing call');
        assert.deepEqual(bare, { qty: 2 });
      });
    });

    it('a block that may write its inputs still copies them on entry: the patch starts from the entry state', async () => {
      await withPatch('bump', bump, bumpFix, { execution, shadow: { first: 0, sampleRate: 0 } }, async (c) => {
        const log: string[] = [];
        const counter = watched({ n: 1, unit: { cents: 10 } }, log);
        assert.equal(c.client.run('bump', 'bump', bump, counter), 20);
        assert.ok(log.includes('keys '), `the entry copy walks the argument (${log.join(', ')})`);

        const bare: { n: number; unit?: { cents: number } } = { n: 1 };
        // The block makes n 2 and throws; the patch must see n = 1: 2 × 100, not 3 × 100.
        assert.equal(c.client.run('bump', 'bump', bump, bare), 200);
        assert.equal(bare.n, 2);
      });
    });

    it('a patch that throws too on a block that writes nothing: the block’s error stands, reported with its inputs', async () => {
      await withPatch('price', price, '(item) => { item.qty = 0; throw new RangeError("patch") }', { execution, shadow: { first: 0, sampleRate: 0 } }, async (c) => {
        const bare: Item = { qty: 2 };
        assert.throws(() => c.client.run('price', 'price', price, bare), TypeError);
        assert.deepEqual(bare, { qty: 2 }, 'the patch’s writes are undone');
        await c.client.flush();
        const reports = c.reports();
        assert.equal(reports.length, 2);
        for (const r of reports) assert.deepEqual(r.args, [{ qty: 2 }], 'the reports carry the entry inputs');
        assert.equal(reports.find((r) => r.patchId === undefined)?.inputs, 'entry');
      });
    });

    it('shadow runs copy only the calls they compare', async () => {
      await withPatch('price', price, priceFix, { execution, shadow: { first: 2, sampleRate: 0 } }, async (c) => {
        const log: string[] = [];
        const item = watched({ qty: 3, unit: { cents: 250 } }, log);
        const walks: number[] = [];
        for (let i = 0; i < 6; i++) {
          log.length = 0;
          assert.equal(c.client.run('price', 'price', price, item), 750);
          walks.push(log.filter((l) => l.startsWith('keys')).length);
          await new Promise((r) => setTimeout(r, 5)); // the shadow run of a compared call happens off the call
        }
        assert.ok(walks[0] > 0 && walks[1] > 0, `the first two calls are compared, so copied (${walks.join(', ')})`);
        assert.deepEqual(walks.slice(2), [0, 0, 0, 0], 'the calls not compared are not copied');
        const end = Date.now() + 5000;
        while (c.shadows.length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
        assert.deepEqual(c.shadows.map((s) => s.agreed), [true, true]);
      });
    });
  });
}
