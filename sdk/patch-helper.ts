/**
 * The patch helper process: started by the SDK (helper-relay.ts) with `--no-node-snapshot` when
 * the app's own node runs without it and so cannot host an isolated-vm isolate. It runs patches
 * exactly as the in-process executor does — the same IsolateExecutor, hardened realm and limits —
 * on inputs that arrive as exact-codec text, and answers with the result and the inputs' state
 * after the call in the same form. It exits when its parent goes away.
 *
 * A call with a world (a block with `uses`) comes with the world as the app encoded it; the
 * patch's stand-ins ask the app for every live call (a `callback` message, answered by the app's
 * WorldHost) and wait for the answer, and the harness's answer text goes back as it is, for the
 * app to write the patch's own effects back (see world-host.ts).
 */
import type { ManifestPatch } from '../core/wire.ts';
import { toWireError, type Callback, type HelperAnswer, type HelperRequest } from './helper-protocol.ts';
import { IsolateExecutor, loadIsolatedVm, type RemoteWorld } from './isolate-executor.ts';
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
  // Callbacks waiting for the app's answer, by their number; the world call's token is its call number.
  let callbacks = 0;
  const asked = new Map<number, { n: number; resolve: (out: string) => void }>();
  const ask = (n: number, m: (k: number) => Callback): Promise<string> =>
    new Promise((resolve) => {
      const k = ++callbacks;
      asked.set(k, { n, resolve });
      send(m(k));
    });
  const remote: RemoteWorld = {
    call: (n, path, args) => ask(n, (k) => ({ t: 'callback', n, k, op: 'call', path, args })),
    await: (n, id) => ask(n, (k) => ({ t: 'callback', n, k, op: 'await', id })),
  };
  /** Call `n` ended: what its stand-ins still wait for is refused (the app will not answer it). */
  const ended = (n: number): void => {
    for (const [k, a] of asked) {
      if (a.n !== n) continue;
      asked.delete(k);
      a.resolve(`E${JSON.stringify({ name: 'Error', message: 'suture: the patched call ended' })}`);
    }
  };
  const executor = new IsolateExecutor(loaded.ivm, limits, encoder, remote);
  const patches = new Map<string, ManifestPatch>();

  const failed = (n: number, run: PatchRun & { ok: false }): HelperAnswer => ({ t: 'done', n, ok: false, reason: run.reason, error: toWireError(run.error) });
  const answer = (n: number, target: unknown[], run: PatchRun): HelperAnswer => {
    if (!run.ok) return failed(n, run);
    try {
      return { t: 'done', n, ok: true, out: encoder.exact.stringify(encoder.exact.encode([run.value, ...target])) };
    } catch (error) {
      return { t: 'done', n, ok: false, reason: 'threw', error: toWireError(error) };
    }
  };

  process.on('message', (m: HelperRequest) => {
    if (m.t === 'callback-answer') {
      const a = asked.get(m.k);
      asked.delete(m.k);
      a?.resolve(m.out);
      return;
    }
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
    if (m.world !== undefined) {
      void executor.runWorldText(patch, m.input, m.world, m.n, m.async).then((run) => {
        ended(m.n);
        send(run.ok ? { t: 'done', n: m.n, ok: true, out: run.out } : failed(m.n, run));
      });
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
