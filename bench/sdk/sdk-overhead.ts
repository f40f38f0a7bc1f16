/**
 * SDK success-path overhead: ns per call of a small block called directly and through `run()`,
 * without recording and with recording at 1 %, in both snapshot modes. Recording's deferred
 * work (encoding, batching) is included: each timed round ends with a flush into a local
 * HTTP sink, so the figure is what the app pays in total, not just on the call.
 *
 *   npm run bench:sdk
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRepairClient, type RepairClient } from '../../sdk/index.ts';
import { benchArgs } from '../bench-args.ts';

benchArgs(
  `Usage: npm run bench:sdk

SDK success-path overhead: ns per call of a small block called directly and through run(), with
recording off and at 1 %, in both snapshot modes (best of 5 rounds; each round flushes into a local
HTTP sink, so deferred encoding and sending are included).`,
  {},
);

const ROUNDS = 5;
const CALLS = 2_000_000;

const block = (player: { stats: { strength: number } }, enemy: { health: number; stats: { armor: number } }) => {
  const attack = player.stats.strength * 2;
  const armor = enemy.stats.armor;
  const finalDamage = Math.max(1, attack - armor);
  enemy.health -= finalDamage;
  return finalDamage;
};

const player = { name: 'hero', stats: { strength: 10 } };
const enemy = { name: 'orc', health: 1e12, stats: { armor: 4 } };
let sink = 0;

function time(label: string, calls: number, f: (n: number) => void): number {
  f(Math.min(calls, 200_000)); // warm-up
  let best = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.hrtime.bigint();
    f(calls);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / calls);
  }
  return best;
}

async function timeAsync(calls: number, f: (n: number) => void, after: () => Promise<void>): Promise<number> {
  f(Math.min(calls, 200_000));
  await after();
  let best = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.hrtime.bigint();
    f(calls);
    await after();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / calls);
  }
  return best;
}

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(202, { 'content-type': 'application/json' }).end('{}'));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

function client(sampleRate: number, snapshot: 'entry' | 'on-failure'): RepairClient {
  return createRepairClient({ url, app: 'bench', sync: 'off', snapshot, record: { sampleRate, maxQueued: 1_000_000 }, flushInterval: 60_000 });
}

const direct = time('direct', CALLS, (n) => {
  for (let i = 0; i < n; i++) sink += block(player, enemy);
});

const rows: { mode: string; ns: number }[] = [{ mode: 'direct call', ns: direct }];
for (const snapshot of ['on-failure', 'entry'] as const) {
  for (const rate of [0, 0.01]) {
    const c = client(rate, snapshot);
    const calls = snapshot === 'entry' || rate > 0 ? CALLS / 10 : CALLS;
    const ns = await timeAsync(
      calls,
      (n) => {
        for (let i = 0; i < n; i++) sink += c.run('dmg', 'damage', block, player, enemy) as number;
      },
      () => c.flush(),
    );
    await c.close();
    rows.push({ mode: `run(), snapshot '${snapshot}', recording ${rate === 0 ? 'off' : `${rate * 100}%`}`, ns });
  }
}

server.close();
console.log(`SDK overhead, ${block.name} block, best of ${ROUNDS} rounds (ns per call; ratio to the direct call)\n`);
for (const r of rows) console.log(`${r.mode.padEnd(50)} ${r.ns.toFixed(1).padStart(10)} ns  ${(r.ns / direct).toFixed(2).padStart(8)}×`);
console.log('\ntargets: run() without recording ≤ 1.2×, with recording at 1 % ≤ 1.5×');
if (sink === 42) console.log(''); // keep the calls observable
