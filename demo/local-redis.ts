import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { Redis } from 'ioredis';

/** Neither a Redis at the URL nor `redis-server` on the PATH. */
export class RedisMissingError extends Error {
  readonly code = 'SUTURE_NO_REDIS';
  constructor(url: string) {
    super(
      `no Redis answers at ${url} and there is no redis-server on the PATH.\n` +
        'Install one, then run the demo again:\n' +
        '  Debian/Ubuntu: sudo apt-get install redis-server\n' +
        '  macOS:         brew install redis\n' +
        '  Docker:        docker run -d -p 6379:6379 redis:7\n' +
        'or point SUTURE_REDIS_URL at a Redis you have.',
    );
    this.name = 'RedisMissingError';
  }
}

export interface RedisHandle {
  url: string;
  /** True when the demo started this redis-server itself. */
  started: boolean;
  stop(): Promise<void>;
}

/** One PING with no retries: does a Redis answer at `url` within a second? */
export async function redisAnswers(url: string): Promise<boolean> {
  const r = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  r.on('error', () => {});
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** A TCP port on 127.0.0.1 that nothing listens on right now (the one owner: tests and benches import it too). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * The Redis the demo uses: the one at `url` when it answers; otherwise a private redis-server on a
 * free port with a temporary directory and no persistence, stopped (and its directory removed) by
 * `stop()`. Throws {@link RedisMissingError} when neither exists.
 */
export async function ensureRedis(url: string): Promise<RedisHandle> {
  if (await redisAnswers(url)) return { url, started: false, stop: async () => {} };
  const bin = onPath('redis-server');
  if (!bin) throw new RedisMissingError(url);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'suture-demo-redis-'));
  const child: ChildProcess = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'], { stdio: 'ignore' });
  const own = `redis://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (!(await redisAnswers(own))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server (${bin}) did not start on port ${port}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: own, started: true, stop };
}
