import { Command, CommanderError } from 'commander';
import { AdminClient, AdminError, defaultDaemonUrl, EXIT } from './admin-client.ts';

export interface AdminCommandOptions {
  url?: string;
  token?: string;
  json?: boolean;
}

const EXIT_HELP = `
Exit codes: 0 done; 1 the daemon refused or failed the operation (conflict, unknown id);
2 usage or configuration error (bad arguments, missing or wrong token); 3 no daemon at the URL.`;

/**
 * A CLI command that talks to the daemon's admin API: `--url` / SUTURE_URL, `--token` /
 * SUTURE_ADMIN_TOKEN, and usage errors exit 2 (commander's own default is 1, which scripts
 * could not tell apart from a refused operation).
 */
export function adminCommand(name: string, description: string): Command {
  return new Command(name)
    .description(description)
    .option('--url <url>', `daemon URL (also SUTURE_URL; default ${defaultDaemonUrl()}, the port following SUTURE_PORT)`)
    .option('--token <token>', 'admin token (also SUTURE_ADMIN_TOKEN)')
    .addHelpText('after', EXIT_HELP)
    .exitOverride(usageExit);
}

/** Commander's exits: help and version stay 0, every parse error becomes exit code 2. */
export function usageExit(error: CommanderError): never {
  process.exit(error.exitCode === 0 ? 0 : EXIT.usage);
}

/** Runs an admin action; a failure prints one line `suture NAME: message` and sets the exit code. */
export async function runAdmin(name: string, opts: AdminCommandOptions, action: (client: AdminClient) => Promise<number | void>): Promise<void> {
  try {
    const client = new AdminClient({ url: opts.url, token: opts.token });
    process.exitCode = (await action(client)) ?? EXIT.ok;
  } catch (error) {
    if (error instanceof AdminError) {
      process.stderr.write(`suture ${name}: ${error.message}\n`);
      process.exitCode = error.exitCode;
      return;
    }
    process.stderr.write(`suture ${name}: ${(error as Error)?.message ?? error}\n`);
    process.exitCode = EXIT.refused;
  }
}

/** A plain text table: columns padded to their widest cell, long cells cut. */
export function table(headers: string[], rows: (string | number | undefined)[][], maxCell = 48): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => cut(c === undefined ? '' : String(c), maxCell)))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : (c ?? '').padEnd(widths[i]))).join('  ').trimEnd()).join('\n');
}

function cut(s: string, n: number): string {
  const one = s.replace(/\s+/g, ' ');
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

export function age(ms: number | undefined, now = Date.now()): string {
  if (!ms) return '';
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86_400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86_400)}d ago`;
}
