/**
 * The live-world scenarios of patched-world.test.ts (live sync methods with private fields, an
 * async client, effects on uses and this written back, a repeated charge answered from the
 * block's log, a different charge ending with the block's error) through the patch helper
 * process: that file run by a node WITHOUT --no-node-snapshot, as people run their apps, where
 * isolate mode runs patches in the helper and every dependency call crosses back to the app.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('patched blocks with uses, isolate mode through the helper process: every scenario passes', { timeout: 180_000 }, async (t) => {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^NODE_OPTIONS$|^NODE_TEST_CONTEXT$/.test(k)) env[k] = v;
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter', 'tap', join('test', 'sdk', 'patched-world.test.ts')], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, out);
  const suite = out.split('\n').find((l) => /^ok \d+ - patched blocks with uses \(isolate, helper process\)$/.test(l));
  assert.ok(suite !== undefined, `the isolate suite ran through the helper process:\n${out}`);
  const passed = out.match(/^# pass (\d+)$/m)?.[1];
  assert.equal(passed, '8', out);
  t.diagnostic(out.split('\n').filter((l) => /^\s+ok \d+ - |duration_ms/.test(l)).slice(0, 5).join('\n'));
});
