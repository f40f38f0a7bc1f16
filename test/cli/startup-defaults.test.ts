/**
 * Defaults an operator meets first: a Redis that does not answer stops the daemon and the worker
 * with `cannot reach Redis at …`; the CLI finds the daemon on SUTURE_PORT; the daemon keeps its
 * private key outside the working directory; one access line per request, at debug level only.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { defaultDataDir } from '../../config/config-settings.ts';
import { loadConfig } from '../../config/load-config.ts';
import { createDaemon } from '../../daemon/daemon-server.ts';
import { deleteKeysUnder } from '../../service/store/key-scan.ts';
import { ROOT, suture } from './cli-process.ts';

/** A port nothing listens on (just freed). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

test('daemon and worker stop with "cannot reach Redis at <url>" when Redis does not answer', { timeout: 60_000 }, async () => {
  const port = await closedPort();
  const dataDir = mkdtempSync(join(tmpdir(), 'suture-noredis-'));
  try {
    const env = { SUTURE_REDIS_URL: `redis://user:secret@127.0.0.1:${port}`, SUTURE_DATA_DIR: dataDir, SUTURE_PORT: '0', SUTURE_LOG_LEVEL: 'silent' };
    const [daemon, worker] = await Promise.all([suture(['daemon'], env, 30_000), suture(['worker'], env, 30_000)]);
    for (const run of [daemon, worker]) {
      assert.notEqual(run.code, 0);
      assert.match(run.stderr, new RegExp(`cannot reach Redis at redis://user:\\*\\*\\*@127\\.0\\.0\\.1:${port} \\(connect ECONNREFUSED`));
      assert.doesNotMatch(run.stderr, /secret/, 'the password is not shown');
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the CLI looks for the daemon on SUTURE_PORT when no URL is given', { timeout: 60_000 }, async () => {
  const port = await closedPort();
  const run = await suture(['status'], { SUTURE_PORT: String(port), SUTURE_ADMIN_TOKEN: 'admin-token-0123456789' });
  assert.equal(run.code, 3, run.stderr);
  assert.match(run.stderr, new RegExp(`no suture daemon answers at http://127\\.0\\.0\\.1:${port}`));
});

test('the default data directory (private signing key) is a per-user state folder, never the working directory', () => {
  const dir = defaultDataDir({}, '/home/ann');
  assert.equal(dir, join('/home/ann', '.local', 'state', 'suture'));
  assert.equal(defaultDataDir({ XDG_STATE_HOME: '/var/state' }, '/home/ann'), join('/var/state', 'suture'));
  const used = resolve(loadConfig({ env: {} }).dataDir);
  for (const tree of [ROOT, process.cwd()]) assert.ok(relative(tree, used).startsWith('..'), `default dataDir ${used} is inside ${tree}`);
});

test('access lines are written at debug level only', { timeout: 60_000 }, async () => {
  const lines = async (level: 'info' | 'debug') => {
    const out: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n')) if (l) out.push(JSON.parse(l) as Record<string, unknown>);
        done();
      },
    });
    const prefix = `suture-test-${randomBytes(6).toString('hex')}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'suture-access-'));
    const config = loadConfig({ env: {}, overrides: { port: 0, host: '127.0.0.1', prefix, dataDir, logLevel: level } });
    const daemon = await createDaemon(config, { logger: pino({ level }, sink) });
    try {
      const url = await daemon.listen();
      for (let i = 0; i < 3; i++) assert.equal((await fetch(`${url}/v1/public-key`)).status, 200);
    } finally {
      await daemon.close();
      const redis = new Redis(config.redisUrl);
      await deleteKeysUnder(redis, prefix);
      await redis.quit();
      rmSync(dataDir, { recursive: true, force: true });
    }
    return out.filter((l) => /request/i.test(String(l.msg)));
  };
  assert.deepEqual(await lines('info'), [], 'no per-request line at info level');
  const debug = await lines('debug');
  assert.equal(debug.length, 3, JSON.stringify(debug));
  assert.deepEqual([debug[0].level, debug[0].method, debug[0].url, debug[0].status], [20, 'GET', '/v1/public-key', 200]);
});
