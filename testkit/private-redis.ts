import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../demo/local-redis.ts';

export { freePort };

/** A private redis-server (never the shared one on 6379), resolved once it accepts connections. */
export async function startRedis(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: string) => {
      out += d;
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited ${code}: ${out}`)));
  });
  return child;
}
