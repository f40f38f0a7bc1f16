import type { ClientEvents } from './client-events.ts';
import type { ResolvedOptions } from './client-options.ts';

export type DebugLog = (line: string) => void;

/** The `debug` option's log: one concise line per thing the SDK does, on stderr. */
export function createDebugLog(enabled: boolean): DebugLog {
  if (!enabled) return () => undefined;
  return (line) => {
    try {
      process.stderr.write(`suture debug: ${line}\n`);
    } catch {
      /* no stderr: nothing to tell */
    }
  };
}

function errorText(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return 'unprintable error';
  }
}

/** The client's set-up and, from then on, what its events say, in the debug log. */
export function logClient(o: ResolvedOptions, events: ClientEvents, log: DebugLog): void {
  log(
    `client for app '${o.app}' at ${o.url}: token ${o.token ? 'set' : 'none'}, public key ${o.publicKey ? 'set' : 'none (patches never run)'}, ` +
      `sync ${o.sync}, snapshot ${o.snapshot}, waitForFix ${o.waitForFix} ms, record sampleRate ${o.sampleRate}`,
  );
  const e = events.emitter;
  e.on('sync', (s) => {
    if (s.changed || s.via === 'backup') log(`manifest revision ${s.revision} applied (${s.via}): ${s.patchedBlocks} patched block(s)`);
  });
  e.on('failure', (f) => log(`failure of block '${f.blockId}'${f.patchId ? ` (patch ${f.patchId})` : ''} reported, request ${f.requestId}: ${errorText(f.error)}`));
  e.on('patched', (p) => log(`patch ${p.patchId} v${p.version} answered block '${p.blockId}' (${p.via === 'wait' ? 'a held failing call' : 'first patched call here'})`));
  e.on('shadow', (s) => {
    if (!s.agreed) log(`patch ${s.patchId} disagreed with block '${s.blockId}' on a shadow run: no longer used here`);
  });
  // In debug mode every error is logged (without debug, each distinct unheard one is written once).
  e.on('error', (err) => log(`error ${err.code}: ${err.message}`));
}
