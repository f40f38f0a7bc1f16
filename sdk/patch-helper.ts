/**
 * The patch helper process: started by the SDK (helper-relay.ts) with `--no-node-snapshot` when
 * the app's own node runs without it and so cannot host an isolated-vm isolate. It runs patches
 * exactly as the in-process executor does — the same IsolateExecutor, hardened realm and limits —
 * on inputs that arrive as exact-codec text, and answers with the result and the inputs' state
 * after the call in the same form. It exits when its parent goes away.
 */
import type { ManifestPatch } from '../core/wire.ts';
import { toWireError, type HelperAnswer, type HelperRequest } from './helper-protocol.ts';
import { IsolateExecutor, loadIsolatedVm } from './isolate-executor.ts';
import type { PatchRun } from './patch-executor.ts';
import { createSnapshotEncoder } from './snapshot-encoder.ts';

const send = (m: HelperAnswer): void => {
  process.send?.(m);
};

function main(): void {
  if (!process.send) {
    process.stderr.write('suture patch helper: start it through the SDK (it needs an IPC channel)\n');
    process.exit(2);
  }
  process.on('disconnect', () => process.exit(0));
  const limits = JSON.parse(process.argv[2] ?? '{}') as { cpuMs: number; wallMs: number; memoryMb: number };
  const loaded = loadIsolatedVm();
  if (!('ivm' in loaded)) {
    send({ t: 'unavailable', message: loaded.error });
    process.disconnect();
    return;
  }
  const encoder = createSnapshotEncoder(undefined);
  const executor = new IsolateExecutor(loaded.ivm, limits, encoder);
  const patches = new Map<string, ManifestPatch>();

  const answer = (n: number, target: unknown[], run: PatchRun): HelperAnswer => {
    if (!run.ok) return { t: 'done', n, ok: false, reason: run.reason, error: toWireError(run.error) };
    try {
      return { t: 'done', n, ok: true, out: encoder.exact.stringify(encoder.exact.encode([run.value, ...target])) };
    } catch (error) {
      return { t: 'done', n, ok: false, reason: 'threw', error: toWireError(error) };
    }
  };

  process.on('message', (m: HelperRequest) => {
    if (m.t === 'release') {
      const keep = new Set(m.keep);
      for (const id of patches.keys()) if (!keep.has(id)) patches.delete(id);
      executor.release(keep);
      return;
    }
    if (m.source !== undefined) patches.set(m.id, { id: m.id, source: m.source } as ManifestPatch);
    const patch = patches.get(m.id);
    if (patch === undefined) {
      send({ t: 'done', n: m.n, ok: false, reason: 'compile', error: toWireError(new Error(`patch ${m.id} is not installed in the helper`)) });
      return;
    }
    let target: unknown[];
    try {
      target = encoder.exact.decode(JSON.parse(m.input)) as unknown[];
    } catch (error) {
      send({ t: 'done', n: m.n, ok: false, reason: 'threw', error: toWireError(error) });
      return;
    }
    if (m.async) void executor.runAsync(patch, target).then((run) => send(answer(m.n, target, run)));
    else send(answer(m.n, target, executor.runSync(patch, target)));
  });
  // Set the realm up (SES lockdown: the bulk of a start) before saying ready.
  const warm = { id: '\0warm-up', source: '(function () {})' } as ManifestPatch;
  executor.runSync(warm, [undefined]);
  executor.release(new Set());
  send({ t: 'ready' });
}

main();
