import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTINGS } from '../../config/config-settings.ts';
import { loadConfig } from '../../config/load-config.ts';
import { failureFingerprint, normaliseMessage, topFrame } from '../../daemon/failure-fingerprint.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

test('defaults, environment variables and the config file, in that order of precedence', () => {
  const c = loadConfig({ env: {} });
  assert.equal(c.port, 7070);
  assert.equal(c.redisUrl, 'redis://127.0.0.1:6379');
  assert.equal(c.prefix, 'suture');
  assert.equal(c.policy, 'auto');
  assert.deepEqual(c.generators, ['template']);
  assert.deepEqual(c.canarySteps, [0.1, 0.5, 1]);

  const dir = mkdtempSync(join(tmpdir(), 'suture-cfg-'));
  const file = join(dir, 'suture.json');
  writeFileSync(file, JSON.stringify({ port: 8080, prefix: 'from-file', policy: 'manual' }));
  const e = loadConfig({
    env: { SUTURE_CONFIG: file, SUTURE_PORT: '9090', SUTURE_APP_TOKENS: 'shop:abcdefgh,game:12345678', SUTURE_POLICIES: 'shop=canary,shop/checkout=manual', SUTURE_GENERATORS: 'template,llm', SUTURE_LLM_MODEL: 'm', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', SUTURE_REQUEUE_ON_ROLLBACK: 'false' },
  });
  assert.equal(e.port, 9090, 'environment wins over the file');
  assert.equal(e.prefix, 'from-file');
  assert.equal(e.policy, 'manual');
  assert.deepEqual(e.appTokens, { shop: 'abcdefgh', game: '12345678' });
  assert.deepEqual(e.policies, { shop: 'canary', 'shop/checkout': 'manual' });
  assert.deepEqual(e.generators, ['template', 'llm']);
  assert.equal(e.llmBaseUrl, 'http://127.0.0.1:1/v1');
  assert.equal(e.requeueOnRollback, false);
});

test('a bad value stops start-up with a message naming the key', () => {
  const bad: [Record<string, string>, RegExp][] = [
    [{ SUTURE_PORT: 'seventy' }, /port \(SUTURE_PORT\)/],
    [{ SUTURE_PORT: '70000' }, /port \(SUTURE_PORT\)/],
    [{ SUTURE_POLICY: 'yolo' }, /policy \(SUTURE_POLICY\).*auto/],
    [{ SUTURE_APP_TOKENS: 'shop' }, /appTokens \(SUTURE_APP_TOKENS\): expected app:token/],
    [{ SUTURE_APP_TOKENS: 'shop:short' }, /appTokens\.shop .*at least 8/],
    [{ SUTURE_REDIS_URL: 'http://x' }, /redisUrl \(SUTURE_REDIS_URL\)/],
    [{ SUTURE_CANARY_STEPS: '0.5,0.2,1' }, /canarySteps \(SUTURE_CANARY_STEPS\): must increase/],
    [{ SUTURE_GENERATORS: 'llm' }, /llmModel \(SUTURE_LLM_MODEL\): required/],
    [{ SUTURE_ROLLBACK_THRESHOLD: '2' }, /rollbackThreshold/],
    [{ SUTURE_ADMIN_TOKEN: 'short' }, /adminToken \(SUTURE_ADMIN_TOKEN\)/],
  ];
  for (const [env, message] of bad) assert.throws(() => loadConfig({ env }), (e: Error & { code?: string }) => e.code === 'SUTURE_CONFIG_INVALID' && message.test(e.message), JSON.stringify(env));
  const dir = mkdtempSync(join(tmpdir(), 'suture-cfg-'));
  writeFileSync(join(dir, 'c.json'), JSON.stringify({ prot: 1 }));
  assert.throws(() => loadConfig({ env: { SUTURE_CONFIG: join(dir, 'c.json') } }), /prot.*unknown setting/);

  const run = spawnSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'cli/main.ts', 'daemon'], { cwd: ROOT, env: { ...process.env, SUTURE_POLICY: 'sometimes' }, encoding: 'utf8' });
  assert.equal(run.status, 2);
  assert.match(run.stderr, /invalid configuration: policy \(SUTURE_POLICY\)/);
});

test('`suture daemon --help` lists every setting with its environment variable and default', () => {
  const help = execFileSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'cli/main.ts', 'daemon', '--help'], { cwd: ROOT, encoding: 'utf8' });
  for (const s of SETTINGS) {
    const line = help.split('\n').find((l) => l.trim().startsWith(`${s.env} `));
    assert.ok(line, `${s.env} listed`);
    assert.ok(line.includes(s.key), `${s.env} shows its key`);
    if ('shownDefault' in s && s.shownDefault) assert.ok(line.includes(s.shownDefault), `${s.env} shows its default`);
  }
  for (const env of ['SUTURE_PORT', 'SUTURE_REDIS_URL', 'SUTURE_PREFIX', 'SUTURE_ADMIN_TOKEN', 'SUTURE_APP_TOKENS', 'SUTURE_DATA_DIR', 'SUTURE_POLICY', 'SUTURE_GENERATORS', 'OPENAI_BASE_URL', 'OPENAI_API_KEY', 'SUTURE_LLM_MODEL']) {
    assert.match(help, new RegExp(`^\\s+${env}\\s`, 'm'));
  }
});

test('fingerprint: quoted values and numbers masked, paths dropped from the top frame', () => {
  assert.equal(normaliseMessage("Cannot read properties of undefined (reading 'hp')"), 'Cannot read properties of undefined (reading <v>)');
  assert.equal(normaliseMessage('index 12 out of range 0..7'), 'index <n> out of range <n>..<n>');
  assert.equal(topFrame('TypeError: x\n    at applyAttack (/srv/a/game.js:10:5)\n    at main (/srv/a/m.js:1:1)'), 'applyAttack:10:5');
  assert.equal(topFrame('TypeError: x\n    at /srv/b/game.js:10:5'), '<anonymous>:10:5');
  const base = { app: 'shop', blockId: 'b', source: 'x => x.a', error: { name: 'TypeError', message: "reading 'a'", stack: 'E\n    at f (/one/x.js:1:2)' } };
  const fp = failureFingerprint(base).fingerprint;
  assert.equal(failureFingerprint({ ...base, error: { ...base.error, message: "reading 'b'", stack: 'E\n    at f (/two/x.js:1:2)' } }).fingerprint, fp, 'same bug on another machine and key');
  assert.notEqual(failureFingerprint({ ...base, source: 'x => x.b' }).fingerprint, fp, 'another source is another bug');
  assert.notEqual(failureFingerprint({ ...base, error: { ...base.error, name: 'RangeError' } }).fingerprint, fp);
  assert.notEqual(failureFingerprint({ ...base, app: 'game' }).fingerprint, fp);
});
