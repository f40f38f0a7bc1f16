/**
 * Configuration as the SDKs people know it: `createRepairClient()` with options left out reads
 * SUTURE_URL, SUTURE_APP, SUTURE_TOKEN, SUTURE_PUBLIC_KEY or SUTURE_PUBLIC_KEY_FILE and SUTURE_DEBUG;
 * `debug` logs what the SDK does to stderr.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FailureReport } from '../../core/wire.ts';
import { resolveOptions } from '../../sdk/client-options.ts';
import { RepairConfigError } from '../../sdk/index.ts';
import { makeKeys, manifestOf, seedBlock, seedFix, signedPatch } from './signed-patch.ts';
import { json, startStubDaemon } from './stub-daemon.ts';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const keys = makeKeys();

test('options left out come from SUTURE_* variables; given options win', () => {
  const env = { SUTURE_URL: 'http://daemon.internal:7070/', SUTURE_APP: 'game', SUTURE_TOKEN: 'tok-123456', SUTURE_PUBLIC_KEY: keys.publicKey.replace(/\n/g, '\\n'), SUTURE_DEBUG: 'true' };
  const o = resolveOptions(undefined, env);
  assert.equal(o.url, 'http://daemon.internal:7070');
  assert.equal(o.app, 'game');
  assert.equal(o.token, 'tok-123456');
  assert.equal(o.publicKey, keys.publicKey, 'a PEM with \\n escapes (as env files hold it) is read as PEM');
  assert.equal(o.debug, true);
  const given = resolveOptions({ url: 'http://127.0.0.1:9999', app: 'other', debug: false }, env);
  assert.deepEqual([given.url, given.app, given.debug], ['http://127.0.0.1:9999', 'other', false]);
  assert.equal(resolveOptions({ url: 'http://x', app: 'a' }, {}).debug, false);
  assert.equal(resolveOptions({ url: 'http://x', app: 'a' }, {}).publicKey, undefined);

  const dir = mkdtempSync(join(tmpdir(), 'suture-env-'));
  try {
    const file = join(dir, 'public.pem');
    writeFileSync(file, keys.publicKey);
    assert.equal(resolveOptions({ url: 'http://x', app: 'a' }, { SUTURE_PUBLIC_KEY_FILE: file }).publicKey, keys.publicKey);
    assert.throws(() => resolveOptions({ url: 'http://x', app: 'a' }, { SUTURE_PUBLIC_KEY_FILE: join(dir, 'missing.pem') }), /SUTURE_PUBLIC_KEY_FILE .*cannot be read/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.throws(() => resolveOptions({}, {}), (e: unknown) => e instanceof RepairConfigError && e.key === 'url' && /SUTURE_URL/.test(e.message));
  assert.throws(() => resolveOptions({}, { SUTURE_URL: 'http://x' }), (e: unknown) => e instanceof RepairConfigError && e.key === 'app' && /SUTURE_APP/.test(e.message));
  assert.throws(() => resolveOptions({}, { SUTURE_URL: 'http://x', SUTURE_APP: 'a', SUTURE_PUBLIC_KEY: 'not a key' }), /SUTURE_PUBLIC_KEY is not a PEM public key/);
});

test('an app configured only by environment reports with its token, runs patches verified with the key file, and logs with SUTURE_DEBUG', { timeout: 60_000 }, async (t) => {
  const stub = await startStubDaemon((r, res) => json(res, 202, { fingerprint: 'fp', jobId: 'j' }));
  const dir = mkdtempSync(join(tmpdir(), 'suture-env-app-'));
  t.after(async () => {
    await stub.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const keyFile = join(dir, 'public.pem');
  writeFileSync(keyFile, keys.publicKey);
  const backup = join(dir, 'manifest.json');
  writeFileSync(backup, JSON.stringify(manifestOf('game', [signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: seedFix, mode: 'fallback' })])));
  const app = join(dir, 'app.mjs');
  writeFileSync(app, `
import { createRepairClient } from ${JSON.stringify(pathToFileURL(join(REPO, 'sdk', 'index.ts')).href)};
const seedBlock = ${seedBlock.toString()};
const repair = createRepairClient({ sync: 'off', backupFile: ${JSON.stringify(backup)}, record: { sampleRate: 0, first: 0 } });
const damage = repair.run('dmg', 'damage', seedBlock, { stats: { strength: 10 } }, { health: 50 });
const other = () => { throw new RangeError('no such item'); };
try { repair.run('other', 'fails', other); } catch (e) { process.stdout.write('threw ' + e.name + '\\n'); }
await repair.close();
process.stdout.write('damage ' + damage + '\\n');
`);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^NODE_OPTIONS$|^NODE_TEST_CONTEXT$|^SUTURE_/.test(k)) env[k] = v;
  Object.assign(env, { SUTURE_URL: stub.url, SUTURE_APP: 'game', SUTURE_TOKEN: 'env-token-42', SUTURE_PUBLIC_KEY_FILE: keyFile, SUTURE_DEBUG: '1' });
  const child = spawn(process.execPath, ['--import', 'tsx', app], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, stderr);
  assert.match(stdout, /damage 20/, 'the patch ran: its signature verified with the key from SUTURE_PUBLIC_KEY_FILE');
  assert.match(stdout, /threw RangeError/);
  // The rescued call is not reported (its patch answered); the other failure is.
  const reports = stub.requests.filter((r) => r.path === '/v1/failures');
  assert.equal(reports.length, 1);
  for (const r of reports) {
    assert.equal(r.headers.authorization, 'Bearer env-token-42');
    assert.equal((r.body as FailureReport).app, 'game');
  }
  const lines = stderr.split('\n').filter((l) => l.startsWith('suture debug: '));
  assert.ok(lines.some((l) => l.includes(`client for app 'game' at ${stub.url}: token set, public key set`)), stderr);
  assert.ok(lines.some((l) => /manifest revision 1 applied \(backup\): 1 patched block/.test(l)), stderr);
  assert.ok(lines.some((l) => /patch \S+ v1 answered block 'dmg'/.test(l)), stderr);
  assert.ok(lines.some((l) => /failure of block 'other' reported, request \S+: RangeError: no such item/.test(l)), stderr);
  t.diagnostic(`${lines.length} debug lines, e.g. ${lines[0]}`);
});
