/**
 * SDK figures: run() on the success path (no patch; recording off, then at 1 %) against a direct
 * call of the same block, and a patched call in isolate mode against a direct call of the patched
 * source inside a pre-made isolated-vm context. Best of several rounds, ns per call.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ivm from 'isolated-vm';
import { signModeGrant } from '../../core/mode-grant.ts';
import { canonicalPatchPayload } from '../../core/patch-signature.ts';
import type { ManifestPatch } from '../../core/wire.ts';
import { createPauseAdapter, createRepairClient } from '../../sdk/index.ts';
import { CallLog, Tracer } from '../../sdk/block-world.ts';
import { HelperExecutor } from '../../sdk/helper-executor.ts';
import { IsolateExecutor } from '../../sdk/isolate-executor.ts';
import type { PatchExecutor } from '../../sdk/patch-executor.ts';
import { createSnapshotEncoder } from '../../sdk/snapshot-encoder.ts';
import { sourceHash } from '../../core/source-hash.ts';
import { atMost, reportOnly, row, type PerfRow } from './perf-row.ts';

const ROUNDS = 5;

/** The design's seed block: small, mutates an argument, returns a number. */
const block = (player: { stats: { strength: number } }, enemy: { health: number; stats?: { armor: number } }) => {
  const attack = player.stats.strength * 2;
  const armor = (enemy.stats as { armor: number }).armor;
  const finalDamage = Math.max(1, attack - armor);
  enemy.health -= finalDamage;
  return finalDamage;
};
const fixSource = `(player, enemy) => {
  const attack = player.stats.strength * 2;
  const armor = enemy.stats?.armor ?? 0;
  const finalDamage = Math.max(1, attack - armor);
  enemy.health -= finalDamage;
  return finalDamage;
}`;

let sink = 0;

async function best(calls: number, f: (n: number) => void, after?: () => Promise<void>): Promise<number> {
  f(Math.min(calls, 100_000));
  await after?.();
  let ns = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.hrtime.bigint();
    f(calls);
    await after?.();
    ns = Math.min(ns, Number(process.hrtime.bigint() - t0) / calls);
  }
  return ns;
}

export async function sdkFigures(log: (s: string) => void): Promise<PerfRow[]> {
  const player = { name: 'hero', stats: { strength: 10 } };
  const enemy = { name: 'orc', health: 1e12, stats: { armor: 4 } };
  const sinkServer = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(202, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((r) => sinkServer.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(sinkServer.address() as AddressInfo).port}`;
  const rows: PerfRow[] = [];
  try {
    const direct = await best(2_000_000, (n) => {
      for (let i = 0; i < n; i++) sink += block(player, enemy);
    });

    // Default options (snapshot: 'entry': entry copies only for recorded calls and blocks that failed lately); recording off.
    const plain = createRepairClient({ url, app: 'bench', sync: 'off', record: { sampleRate: 0 } });
    const overhead = await best(1_000_000, (n) => {
      for (let i = 0; i < n; i++) sink += plain.run('dmg', 'damage', block, player, enemy) as number;
    });
    await plain.close();
    // The other snapshot mode, for the note: no entry copy even after a failure.
    const light = createRepairClient({ url, app: 'bench', sync: 'off', snapshot: 'on-failure', record: { sampleRate: 0 } });
    const onFailure = await best(2_000_000, (n) => {
      for (let i = 0; i < n; i++) sink += light.run('dmg', 'damage', block, player, enemy) as number;
    });
    await light.close();
    rows.push(
      row('sdk_overhead', overhead, direct, 'ns/call', '≤ 1.2×', atMost(1.2),
        `default snapshot 'entry' (no copy on a healthy call of a block that has not failed lately); snapshot 'on-failure': ${onFailure.toFixed(1)} ns = ${(onFailure / direct).toFixed(2)}×`),
    );
    log(`sdk_overhead ${overhead.toFixed(1)} ns ('on-failure' ${onFailure.toFixed(1)} ns) vs direct ${direct.toFixed(1)} ns`);

    const recording = createRepairClient({ url, app: 'bench', sync: 'off', record: { sampleRate: 0.01, maxQueued: 1_000_000 }, flushInterval: 60_000 });
    const recorded = await best(200_000, (n) => {
      for (let i = 0; i < n; i++) sink += recording.run('dmg', 'damage', block, player, enemy) as number;
    }, () => recording.flush());
    await recording.close();
    rows.push(row('sdk_recording', recorded, direct, 'ns/call', '≤ 1.5×', atMost(1.5), 'includes encoding and sending the sampled calls (flush per round)'));
    log(`sdk_recording ${recorded.toFixed(1)} ns`);

    rows.push(...(await usesFigures(url, log)));
    rows.push(...(await argumentSizeFigures(url, log)));
    rows.push(await patchedFigure(url, log));
    rows.push(...(await fallbackFigures(url, log)));
    rows.push(...(await helperFigures(log)));
  } finally {
    sinkServer.close();
  }
  if (sink === 42) log('');
  return rows;
}

/** A block reading a table, a helper and an object's method (the names it passes in `uses`). */
let RATES: Record<string, number> = { DE: 0.19, FR: 0.2, IT: 0.22 };
const roundCents = (n: number) => Math.round(n * 100) / 100;
const shop = {
  feeRate: 0.01,
  fee(net: number) {
    return net * this.feeRate;
  },
};
const price = (net: number, country: string) => roundCents(net * (1 + RATES[country]) + shop.fee(net));

/**
 * run() with `uses` on the success path (snapshot 'on-failure', recording off): the block runs as
 * its copy bound to the uses values, the method-holding one through a per-call tracer. Small and
 * large uses (a 3-entry table and a 100 000-entry one): the cost must not grow with their size.
 */
async function usesFigures(url: string, log: (s: string) => void): Promise<PerfRow[]> {
  const small = RATES;
  const large: Record<string, number> = { ...small };
  for (let i = 0; i < 100_000; i++) large[`C${i}`] = (i % 30) / 100;
  const calls = 1_000_000;
  const direct = await best(calls, (n) => {
    for (let i = 0; i < n; i++) sink += price(100 + (i & 7), 'DE');
  });
  const client = createRepairClient({ url, app: 'bench', sync: 'off', snapshot: 'on-failure', record: { sampleRate: 0, first: 0 } });
  const measure = (table: Record<string, number>) => {
    const block = { id: 'price', description: 'gross price with fee', uses: { RATES: table, roundCents, shop } };
    return best(calls, (n) => {
      for (let i = 0; i < n; i++) sink += client.run(block, price, 100 + (i & 7), 'DE') as number;
    });
  };
  const withSmall = await measure(small);
  RATES = large;
  const withLarge = await measure(large);
  RATES = small;
  await client.close();
  log(`sdk_uses small ${withSmall.toFixed(1)} ns, large ${withLarge.toFixed(1)} ns vs direct ${direct.toFixed(1)} ns`);
  return [
    row('sdk_uses_small', withSmall, direct, 'ns/call', 'reported', reportOnly, 'run({ id, description, uses: { RATES (3 entries), roundCents, shop } }): copy bound to uses, shop traced per call'),
    row('sdk_uses_large', withLarge, withSmall, 'ns/call', '≤ 1.2× small', atMost(1.2), 'the same with RATES of 100 003 entries; baseline: the small-uses figure'),
  ];
}

/** The argument-size figures' block: reads one element, whatever the size of the list. */
const pick = (list: { v: number }[], i: number) => list[i % list.length].v;
/** A direct call of `pick`, ns. */
const directPick = (list: { v: number }[]) =>
  best(2_000_000, (n) => {
    for (let i = 0; i < n; i++) sink += pick(list, i);
  });

/**
 * A healthy call with a small argument and with one of 10,000 objects, each as a direct call,
 * `run` and the Pause Framework pattern (`await pause.run(id, desc, fn, scope, ...args)`, against
 * an awaited direct call). The block reads one element, so its own cost does not grow with the
 * argument; the SDK's must not either (the 10,000-object rows are held to ≤ 2× of the small ones).
 */
async function argumentSizeFigures(url: string, log: (s: string) => void): Promise<PerfRow[]> {
  const small = [{ v: 1 }];
  const large = Array.from({ length: 10_000 }, (_, i) => ({ v: i, name: `item ${i}`, tags: ['a', 'b'] }));
  const client = createRepairClient({ url, app: 'bench', sync: 'off', record: { sampleRate: 0 } });
  const pause = createPauseAdapter(client);
  // The first calls of a block are recorded (known-good calls): measure past them.
  for (let i = 0; i < 200; i++) {
    const list = i % 2 ? small : large;
    sink += (client.run('pick', 'pick', pick, list, i) as number) + ((await pause.run('pick-p', 'pick', pick, null, list, i)) as number);
  }
  const f: Record<string, number> = {};
  for (const [name, list] of [['small', small], ['10k', large]] as const) {
    f[`direct_${name}`] = await directPick(list);
    f[`run_${name}`] = await best(1_000_000, (n) => {
      for (let i = 0; i < n; i++) sink += client.run('pick', 'pick', pick, list, i) as number;
    });
    f[`await_${name}`] = await bestAsync(200_000, async (n) => {
      for (let i = 0; i < n; i++) sink += await pick(list, i);
    });
    f[`pause_${name}`] = await bestAsync(200_000, async (n) => {
      for (let i = 0; i < n; i++) sink += (await pause.run('pick-p', 'pick', pick, null, list, i)) as number;
    });
  }
  await client.close();
  log(`healthy call, small / 10,000-object argument: direct ${f.direct_small.toFixed(1)} / ${f.direct_10k.toFixed(1)} ns, run ${f.run_small.toFixed(1)} / ${f.run_10k.toFixed(1)} ns, await direct ${f.await_small.toFixed(1)} / ${f.await_10k.toFixed(1)} ns, await pause.run ${f.pause_small.toFixed(1)} / ${f.pause_10k.toFixed(1)} ns`);
  return [
    row('sdk_run_small_arg', f.run_small, f.direct_small, 'ns/call', 'reported', reportOnly, 'run(), argument [{ v }]; baseline: the direct call'),
    row('sdk_run_10k_arg', f.run_10k, f.run_small, 'ns/call', '≤ 2× small', atMost(2), `run(), argument of 10,000 objects; baseline: run() with the small argument (direct call ${f.direct_10k.toFixed(1)} ns)`),
    row('pause_run_small_arg', f.pause_small, f.await_small, 'ns/call', 'reported', reportOnly, 'await pause.run(); baseline: an awaited direct call'),
    row('pause_run_10k_arg', f.pause_10k, f.pause_small, 'ns/call', '≤ 2× small', atMost(2), `await pause.run(), argument of 10,000 objects; baseline: the same with the small argument (awaited direct call ${f.await_10k.toFixed(1)} ns)`),
  ];
}

async function bestAsync(calls: number, f: (n: number) => Promise<void>): Promise<number> {
  await f(Math.min(calls, 50_000));
  let ns = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.hrtime.bigint();
    await f(calls);
    ns = Math.min(ns, Number(process.hrtime.bigint() - t0) / calls);
  }
  return ns;
}

/**
 * A sync patched call in an isolate of this process against the same call through the helper
 * process (what an app whose node runs without --no-node-snapshot gets): the two executors
 * directly, same patch, same arguments. Then the same for a block with `uses` whose patch calls
 * one live sync method (a dependency callback: to the app thread and back, through the relay
 * from the helper).
 */
async function helperFigures(log: (s: string) => void): Promise<PerfRow[]> {
  const limits = { cpuMs: 1000, wallMs: 2000, memoryMb: 64 };
  const encoder = createSnapshotEncoder(undefined);
  const patch = { id: 'perf-helper', source: fixSource } as ManifestPatch;
  const player = { name: 'hero', stats: { strength: 10 } };
  const enemy = { name: 'ghost', health: 1e12 };
  const inProcess = new IsolateExecutor(ivm, limits, encoder);
  const helper = new HelperExecutor(limits, encoder, { unavailable: (m) => log(`helper unavailable: ${m}`) });
  helper.release(new Set([patch.id])); // starts the helper, as a manifest with patches does
  const measure = (ex: PatchExecutor, calls: number) =>
    best(calls, (n) => {
      for (let i = 0; i < n; i++) {
        const run = ex.runSync(patch, [undefined, player, enemy]);
        if (!run.ok) throw run.error as Error;
        sink += run.value as number;
      }
    });
  const local = await measure(inProcess, 5_000);
  const remote = await measure(helper, 2_000);

  // A block with uses: the patch reads the player's armour through a live method (private field).
  class Armoury {
    #armor = 4;
    armorOf(name: string) {
      return name === 'ghost' ? 0 : this.#armor;
    }
  }
  const armoury = new Armoury();
  const worldPatch = { id: 'perf-helper-world', source: '(player, enemy) => { const d = Math.max(1, player.stats.strength * 2 - armoury.armorOf(enemy.name)); enemy.health -= d; return d; }' } as ManifestPatch;
  helper.release(new Set([patch.id, worldPatch.id]));
  const measureWorld = (ex: PatchExecutor, calls: number) =>
    best(calls, (n) => {
      for (let i = 0; i < n; i++) {
        // A world per call, as the SDK makes one (its tracer logs that call's dependency calls).
        const world = { names: ['armoury'], values: [armoury], self: undefined, tracer: new Tracer(new CallLog()), replay: null };
        const run = ex.runSync(worldPatch, [undefined, player, enemy], undefined, world);
        if (!run.ok) throw run.error as Error;
        sink += run.value as number;
      }
    });
  const localWorld = await measureWorld(inProcess, 3_000);
  const remoteWorld = await measureWorld(helper, 1_000);
  inProcess.dispose();
  helper.dispose();
  log(`sdk_patched_helper ${(remote / 1000).toFixed(1)} µs vs in-process isolate ${(local / 1000).toFixed(1)} µs`);
  log(`sdk_patched_helper_world ${(remoteWorld / 1000).toFixed(1)} µs vs in-process isolate ${(localWorld / 1000).toFixed(1)} µs`);
  return [
    row('sdk_patched_helper', remote / 1000, local / 1000, 'µs/call', 'reported', reportOnly, 'sync patched call through the helper process (app node without --no-node-snapshot); baseline: the same call in an isolate of this process'),
    row('sdk_patched_helper_world', remoteWorld / 1000, localWorld / 1000, 'µs/call', 'reported', reportOnly, 'sync patched call of a block with uses whose patch calls one live sync method, through the helper process (the call answered on the app thread); baseline: the same call in an isolate of this process'),
  ];
}

async function patchedFigure(url: string, log: (s: string) => void): Promise<PerfRow> {
  const unarmored = (): { name: string; health: number; stats?: { armor: number } } => ({ name: 'ghost', health: 1e12 });
  const player = { name: 'hero', stats: { strength: 10 } };

  // Baseline: the patched source already compiled in a context; JSON in, JSON out.
  const isolate = new ivm.Isolate({ memoryLimit: 64 });
  const context = isolate.createContextSync();
  isolate.compileScriptSync(`const __fix = (${fixSource}\n); globalThis.__call = (json) => { const a = JSON.parse(json); const r = __fix(...a); return JSON.stringify([r, ...a]); };`).runSync(context);
  const call = context.global.getSync('__call', { reference: true }) as ivm.Reference<(json: string) => string>;
  const enemyA = unarmored();
  const direct = await best(5_000, (n) => {
    for (let i = 0; i < n; i++) {
      const out = JSON.parse(call.applySync(undefined, [JSON.stringify([player, enemyA])], { result: { copy: true } }) as string) as unknown[];
      sink += out[0] as number;
    }
  });
  call.release();
  context.release();
  isolate.dispose();

  // Replace mode (with the operator's grant): the figure is the cost of running the patch instead of the block.
  const { client, close } = patchedClient(url, [{ id: 'perf-patch', blockId: 'dmg', block, source: fixSource, mode: 'replace' }]);
  const enemyB = unarmored();
  let errors = 0;
  client.on('error', () => errors++);
  sink += client.run('dmg', 'damage', block, player, enemyB) as number;
  const before = enemyB.health;
  const patched = await best(3_000, (n) => {
    for (let i = 0; i < n; i++) sink += client.run('dmg', 'damage', block, player, enemyB) as number;
  });
  if (enemyB.health >= before || errors > 0) throw new Error(`patched calls did not run the patch (errors: ${errors})`);
  await close();
  log(`sdk_patched ${(patched / 1000).toFixed(1)} µs vs in-context call ${(direct / 1000).toFixed(1)} µs`);
  return row('sdk_patched', patched / 1000, direct / 1000, 'µs/call', '≤ 1.5×', atMost(1.5));
}

/**
 * A client whose manifest (a backup file, signed with a key made here) holds these patches; replace
 * mode comes with the operator's grant. `close` closes the client and removes the file.
 */
function patchedClient(url: string, patches: { id: string; blockId: string; block: Function; source: string; mode: 'replace' | 'fallback' }[]) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const manifest = patches.map((p): ManifestPatch => {
    const fields = { id: p.id, app: 'bench', blockId: p.blockId, sourceHash: sourceHash(p.block.toString()), version: 1, source: p.source, fingerprint: `fp-${p.id}` };
    return {
      ...fields,
      mode: p.mode,
      ...(p.mode === 'replace' ? { modeSignature: signModeGrant({ ...fields, mode: 'replace' }, privateKey) } : {}),
      status: 'active',
      rollout: 1,
      signature: sign(null, canonicalPatchPayload(fields), privateKey).toString('base64'),
      score: { generator: 'perf', description: 'perf patch', passed: 1, total: 1, editSize: 1 },
    };
  });
  const dir = mkdtempSync(join(tmpdir(), 'suture-perf-'));
  const backupFile = join(dir, 'manifest.json');
  writeFileSync(backupFile, JSON.stringify({ app: 'bench', revision: 1, patches: manifest }));
  const client = createRepairClient({ url, app: 'bench', sync: 'off', backupFile, publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(), record: { sampleRate: 0 }, shadow: { sampleRate: 0 } });
  return {
    client,
    close: async () => {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Healthy calls of blocks with a fallback-mode patch (the default for a published patch), with a
 * small argument and one of 10,000 objects. A block that provably writes to no object takes no
 * entry copy, so its cost must not grow with the argument (≤ 2× small); a block that writes (one
 * counter) copies its inputs on every call so that its patch could start from the entry state:
 * reported for comparison. Shadow sampling off past the first compared calls (the figure is the
 * call's own cost; a compared call copies its inputs whatever the block).
 */
async function fallbackFigures(url: string, log: (s: string) => void): Promise<PerfRow[]> {
  const pickCounted = (box: { n: number }, list: { v: number }[], i: number) => {
    box.n += 1;
    return list[i % list.length].v;
  };
  const fix = '(list, i) => list.length === 0 ? 0 : list[i % list.length].v';
  const countedFix = '(box, list, i) => { box.n += 1; return list.length === 0 ? 0 : list[i % list.length].v; }';
  const { client, close } = patchedClient(url, [
    { id: 'perf-fallback', blockId: 'pick', block: pick, source: fix, mode: 'fallback' },
    { id: 'perf-fallback-writing', blockId: 'pick-counted', block: pickCounted, source: countedFix, mode: 'fallback' },
  ]);
  let errors = 0;
  client.on('error', () => errors++);
  const small = [{ v: 1 }];
  const large = Array.from({ length: 10_000 }, (_, i) => ({ v: i, name: `item ${i}`, tags: ['a', 'b'] }));
  const box = { n: 0 };
  // Past the first recorded (known-good) and compared (shadow) calls of each block.
  for (let i = 0; i < 20; i++) {
    sink += (client.run('pick', 'pick', pick, i % 2 ? small : large, i) as number) + (client.run('pick-counted', 'pick', pickCounted, box, i % 2 ? small : large, i) as number);
    await new Promise((r) => setImmediate(r));
  }
  // A throwing call gets the patch's answer: the patch is in place (and in fallback mode).
  if (client.run('pick', 'pick', pick, [], 0) !== 0 || client.run('pick-counted', 'pick', pickCounted, box, [], 0) !== 0 || errors > 0) {
    throw new Error(`the fallback patches did not answer (errors: ${errors})`);
  }
  const f: Record<string, number> = {};
  for (const [name, list] of [['small', small], ['10k', large]] as const) {
    f[`direct_${name}`] = await directPick(list);
    f[`pure_${name}`] = await best(1_000_000, (n) => {
      for (let i = 0; i < n; i++) sink += client.run('pick', 'pick', pick, list, i) as number;
    });
    f[`writing_${name}`] = await best(name === 'small' ? 1_000_000 : 200, (n) => {
      for (let i = 0; i < n; i++) sink += client.run('pick-counted', 'pick', pickCounted, box, list, i) as number;
    });
  }
  await close();
  log(`fallback-patched healthy call, small / 10,000-object argument: direct ${f.direct_small.toFixed(1)} / ${f.direct_10k.toFixed(1)} ns, writes nothing ${f.pure_small.toFixed(1)} / ${f.pure_10k.toFixed(1)} ns, writes a counter ${f.writing_small.toFixed(1)} / ${f.writing_10k.toFixed(1)} ns`);
  return [
    row('sdk_fallback_small_arg', f.pure_small, f.direct_small, 'ns/call', 'reported', reportOnly, 'run() of a block with a fallback-mode patch that writes no object, argument [{ v }]; baseline: the direct call'),
    row('sdk_fallback_10k_arg', f.pure_10k, f.pure_small, 'ns/call', '≤ 2× small', atMost(2), `the same with an argument of 10,000 objects (no entry copy); baseline: the small argument (direct call ${f.direct_10k.toFixed(1)} ns)`),
    row('sdk_fallback_writing_small_arg', f.writing_small, f.direct_small, 'ns/call', 'reported', reportOnly, 'run() of a block with a fallback-mode patch that writes (a counter): entry copy on every call; baseline: the direct call of the block that writes nothing'),
    row('sdk_fallback_writing_10k_arg', f.writing_10k, f.writing_small, 'ns/call', 'reported', reportOnly, 'the writing block with an argument of 10,000 objects: the entry copy grows with the argument; baseline: the writing block with the small argument'),
  ];
}
