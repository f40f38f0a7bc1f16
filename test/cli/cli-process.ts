import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a node command line in the repository root (SUTURE_URL, SUTURE_ADMIN_TOKEN and NODE_TEST_CONTEXT of the caller removed). */
export function runNode(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<CliRun> {
  const base = { ...process.env };
  delete base.SUTURE_URL;
  delete base.SUTURE_ADMIN_TOKEN;
  // Set by the test runner for its child processes: a `node --test` started from a test would skip its files.
  delete base.NODE_TEST_CONTEXT;
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT, env: { ...base, ...env }, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** `suture ARGS…` as a child process, exactly as a user or script would run it. */
export function suture(args: string[], env: Record<string, string> = {}, timeoutMs?: number): Promise<CliRun> {
  return runNode(['--no-node-snapshot', '--import', 'tsx', 'cli/main.ts', ...args], env, timeoutMs);
}
