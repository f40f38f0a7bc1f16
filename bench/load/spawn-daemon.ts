import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { SutureConfig } from '../../config/config-settings.ts';

export interface DaemonProcess {
  url: string;
  pid: number;
  close(): Promise<void>;
}

/**
 * Starts the daemon in a child process (same node binary and flags) with this configuration; give
 * it the data directory of any daemon already using the prefix so it loads the same signing key.
 */
export async function spawnDaemon(config: SutureConfig, timeoutMs = 30_000): Promise<DaemonProcess> {
  const script = fileURLToPath(new URL('./daemon-process.ts', import.meta.url));
  // SUTURE_BENCH_DAEMON_FLAGS: extra node flags for the daemon only (e.g. --cpu-prof).
  const extra = (process.env.SUTURE_BENCH_DAEMON_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, ['--no-node-snapshot', ...extra, '--import', 'tsx', script], {
    env: { ...process.env, SUTURE_BENCH_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`daemon process not listening within ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`daemon process exited with ${code} before listening`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { url: string }).url);
    });
  });
  return {
    url,
    pid: child.pid ?? -1,
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
