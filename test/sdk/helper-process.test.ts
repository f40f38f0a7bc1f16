/**
 * An app whose node runs WITHOUT --no-node-snapshot (a plain `node --import tsx app.mjs`, as
 * people run their apps) still gets its failing calls patched in isolate mode: the SDK runs the
 * patch in a helper process it starts itself. The patch does not run in the app's realm, a killed
 * helper is replaced, and the app exits by itself without closing the client.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeKeys, manifestOf, seedBlock, seedFix, signedPatch } from './signed-patch.ts';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SDK = pathToFileURL(join(REPO, 'sdk', 'index.ts')).href;
/** An async block, as the app's source has it (the patch is signed for this exact text). */
const LOOKUP = 'async (table, key) => { await null; return table.rows[key].value; }';

/** The app: sync block in fallback mode, async block in replace mode, the helper killed in between. */
const APP = `
import { execFileSync } from 'node:child_process';
import { createRepairClient } from ${JSON.stringify(SDK)};
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
const seedBlock = ${seedBlock.toString()};
const lookup = ${LOOKUP};
const repair = createRepairClient({ url: 'http://127.0.0.1:9', app: 'game', sync: 'off', publicKey: process.env.KEY, backupFile: process.env.BACKUP, record: { sampleRate: 0, first: 0 } });
const errors = [];
repair.on('error', (e) => errors.push(e.code + ': ' + e.message));
const patched = [];
repair.on('patched', (e) => patched.push(e.patchId));
out({ flags: process.execArgv, nodeOptions: process.env.NODE_OPTIONS ?? '' });
// A sync block that throws: the patch answers synchronously, on the inputs as they were on entry.
const enemy = { health: 50 };
const t0 = performance.now();
const damage = repair.run('dmg', 'damage', seedBlock, { stats: { strength: 10 } }, enemy);
out({ step: 'sync', damage, health: enemy.health, ms: performance.now() - t0 });
const helpers = () => { try { return execFileSync('pgrep', ['-P', String(process.pid), '-f', 'patch-helper'], { encoding: 'utf8' }).split(/\\s+/).filter(Boolean).map(Number); } catch { return []; } };
const before = helpers();
for (const pid of before) process.kill(pid, 'SIGKILL');
await new Promise((r) => setTimeout(r, 200));
const again = repair.run('dmg', 'damage', seedBlock, { stats: { strength: 3 } }, { health: 10 });
const after = helpers();
// An async block replaced by its patch; the patch reports what it can see of the app's realm.
const seen = await repair.run('lookup', 'read a row', lookup, { rows: {} }, 'k');
out({ step: 'after-kill', before, after, again, seen, patched, errors });
`;

function runApp(env: Record<string, string>): Promise<{ code: number | null; lines: Record<string, unknown>[]; stderr: string; ms: number }> {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^NODE_OPTIONS$|^NODE_TEST_CONTEXT$/.test(k)) clean[k] = v;
  const dir = mkdtempSync(join(tmpdir(), 'suture-noflag-app-'));
  const app = join(dir, 'app.mjs');
  writeFileSync(app, APP);
  const t0 = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', app], { cwd: REPO, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(killer);
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, lines: stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>), stderr, ms: Date.now() - t0 });
    });
  });
}

test('node without --no-node-snapshot: failing calls are patched in isolate mode by a helper process', { timeout: 90_000 }, async (t) => {
  const keys = makeKeys();
  const fix = signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: seedFix, mode: 'fallback', id: 'fix-dmg' });
  const probe = signedPatch(keys.privateKey, {
    app: 'game', blockId: 'lookup', original: LOOKUP, id: 'probe-lookup',
    source: `async (table, key) => [typeof process, typeof require, typeof globalThis.fetch, table.rows[key]?.value ?? -1].join(' ')`,
  });
  const dir = mkdtempSync(join(tmpdir(), 'suture-noflag-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const backup = join(dir, 'manifest.json');
  writeFileSync(backup, JSON.stringify(manifestOf('game', [fix, probe])));

  const r = await runApp({ KEY: keys.publicKey, BACKUP: backup });
  assert.equal(r.code, 0, r.stderr);
  const [flags, sync, after] = r.lines as [{ flags: string[]; nodeOptions: string }, Record<string, number>, Record<string, unknown>];
  assert.ok(!flags.flags.includes('--no-node-snapshot') && !flags.nodeOptions.includes('--no-node-snapshot'), JSON.stringify(flags));
  // seedFix: an enemy without stats has armour 0; the block's own decrement is undone (entry state).
  assert.equal(sync.damage, 20);
  assert.equal(sync.health, 30);
  assert.deepEqual(after.errors, []);
  assert.equal((after.before as number[]).length, 1, 'one helper process per client');
  assert.equal(after.again, 6, 'a killed helper is replaced on the next call');
  assert.equal((after.after as number[]).length, 1);
  assert.notDeepEqual(after.after, after.before);
  assert.equal(after.seen, 'undefined undefined undefined -1', 'the patch ran in the hardened isolate, not the app realm');
  assert.deepEqual([...new Set(after.patched as string[])].sort(), ['fix-dmg', 'probe-lookup']);
  t.diagnostic(`first sync patched call (helper start included) ${sync.ms.toFixed(0)} ms; app ran and exited by itself in ${r.ms} ms without close()`);
});
