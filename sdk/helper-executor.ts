/**
 * `execution: 'isolate'` when the app's own process cannot host an isolate: patches run in a
 * helper process the SDK starts itself, with `--no-node-snapshot`, in the same hardened realm with
 * the same limits as in process (patch-helper.ts runs an IsolateExecutor). Patches never run in
 * the app's realm.
 *
 * Why a helper: isolated-vm's isolates and node's own start-up snapshot cannot share one process
 * on node ≥ 20 (V8's shared read-only heap needs every isolate of a process built from the same
 * snapshot; a mismatch crashes the process inside V8 on some platforms and versions, where nothing
 * can catch it). `--no-node-snapshot` is per process and cannot be set from code once node runs.
 *
 * Why a relay thread: a synchronous block's patched call must answer synchronously, but the
 * helper's answers arrive on an event loop. A worker thread (helper-relay.ts) owns the helper's
 * IPC channel; the app thread posts a request and blocks in `Atomics.wait` until the relay wakes
 * it, then takes the answer with `receiveMessageOnPort` — the technique of synckit, written here
 * because synckit answers one request with one value: it has no way to serve other messages
 * (other calls' answers, and dependency callbacks, see helper-protocol.ts) while a call waits,
 * nor async calls on the same channel. Async calls use the same port without blocking.
 *
 * Handles: the relay thread and the port are unref'd while no async call is in flight, so an idle
 * client never keeps the app alive; the helper exits when the relay (or the app) goes away.
 * One helper per client, started on the first patched call, replaced after a crash or a call it
 * did not answer in time, killed on `close`.
 */
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { ManifestPatch } from '../core/wire.ts';
import type { PatchLimits } from './client-options.ts';
import { fromWireError, type RelayAnswer, type RelayData, type RelayRequest } from './helper-protocol.ts';
import type { PatchWorld } from './live-world.ts';
import { applyPatchAnswer } from './patch-answer.ts';
import type { PatchExecutor, PatchRun } from './patch-executor.ts';
// Type-only: these put the relay's and the helper's entries in the compiled package (tsc emits every module it reads).
import type {} from './helper-relay.ts';
import type {} from './patch-helper.ts';
import type { SnapshotEncoder } from './snapshot-encoder.ts';

/** Time a helper may take to start and set up its realm (SES lockdown) before its first answer, ms. */
const START_ALLOWANCE_MS = 15_000;
const NO_WORLD = "a patch of a block with uses cannot run in the patch helper process yet: start the app's node with --no-node-snapshot to run it in process";

/** Slack over the patch's own limits for the round trip through the relay and the helper, ms. */
const ROUND_TRIP_SLACK_MS = 2_000;

/** The modules next to this one, in the form this one has (TypeScript source or compiled JS). */
function sibling(name: string): URL {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${name}${ext}`, import.meta.url);
}

/**
 * The node options a helper needs: `--no-node-snapshot`, plus this process's module loading
 * options (`--import tsx`, `--conditions`, …) so the helper loads the SDK as the app did.
 */
export function helperExecArgv(execArgv: readonly string[] = process.execArgv): string[] {
  const keep = /^(--import|--require|-r|--loader|--experimental-loader|--conditions|-C)$/;
  const keepJoined = /^(--import|--require|--loader|--experimental-loader|--conditions)=|^--experimental-|^--no-experimental-|^--enable-source-maps$|^--disable-warning/;
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i];
    if (keep.test(a) && i + 1 < execArgv.length) out.push(a, execArgv[++i]);
    else if (keepJoined.test(a)) out.push(a);
  }
  return [...out, '--no-node-snapshot'];
}

/** Whether this process may create isolated-vm isolates itself (node started with `--no-node-snapshot`). */
export function processHostsIsolates(): boolean {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return flags.includes('--no-node-snapshot');
}

export class HelperExecutor implements PatchExecutor {
  readonly mode = 'isolate' as const;
  readonly #limits: PatchLimits;
  readonly #encoder: SnapshotEncoder;
  readonly #onUnavailable: (message: string) => void;
  readonly #onStarted: (pid: number) => void;
  #worker: Worker | null = null;
  #port: MessagePort | null = null;
  #flag: Int32Array | null = null;
  #next = 0;
  /** Async calls in flight, by call number. */
  readonly #waiting = new Map<number, (a: RelayAnswer & { t: 'done' }) => void>();
  /** A helper answered since the last (re)start: later calls need no start-up allowance. */
  #warm = false;
  #unavailable: string | null = null;
  #disposed = false;

  constructor(limits: PatchLimits, encoder: SnapshotEncoder, on: { unavailable: (message: string) => void; started?: (pid: number) => void }) {
    this.#limits = limits;
    this.#encoder = encoder;
    this.#onUnavailable = on.unavailable;
    this.#onStarted = on.started ?? (() => undefined);
  }

  #relay(): { port: MessagePort; flag: Int32Array } {
    if (this.#port !== null && this.#flag !== null) return { port: this.#port, flag: this.#flag };
    const { port1, port2 } = new MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const data: RelayData = { helperPath: fileURLToPath(sibling('patch-helper')), execArgv: helperExecArgv(), limits: { ...this.#limits } };
    const worker = new Worker(sibling('helper-relay'), { workerData: { port: port2, flag, data }, transferList: [port2], stdout: false, stderr: false });
    worker.on('error', () => this.#lost('the patch relay thread failed'));
    worker.on('exit', () => this.#lost('the patch relay thread exited'));
    port1.on('message', (m: RelayAnswer) => this.#dispatch(m));
    worker.unref();
    port1.unref();
    this.#worker = worker;
    this.#port = port1;
    this.#flag = flag;
    return { port: port1, flag };
  }

  /** The relay went away (only on dispose, or a bug): calls in flight fail, the next call starts a new one. */
  #lost(message: string): void {
    this.#worker = null;
    this.#port = null;
    this.#flag = null;
    this.#warm = false;
    for (const [n, resolve] of this.#waiting) resolve({ t: 'done', n, ok: false, reason: 'unavailable', error: { name: 'Error', message, stack: '' } });
    this.#waiting.clear();
  }

  #dispatch(m: RelayAnswer): void {
    if (m.t === 'started') {
      this.#onStarted(m.pid);
      return;
    }
    if (m.t === 'unavailable') {
      if (this.#unavailable === null) this.#onUnavailable(m.message);
      this.#unavailable = m.message;
      return;
    }
    const resolve = this.#waiting.get(m.n);
    if (resolve === undefined) return; // a sync call that gave up waiting
    this.#waiting.delete(m.n);
    if (this.#waiting.size === 0) this.#port?.unref();
    resolve(m);
  }

  #request(patch: ManifestPatch, input: unknown[], async: boolean): { n: number; req: RelayRequest } | { error: unknown } {
    let text: string;
    try {
      text = this.#encoder.exact.stringify(this.#encoder.exact.encode(input));
    } catch (error) {
      return { error };
    }
    const n = ++this.#next;
    return { n, req: { t: 'call', n, id: patch.id, source: patch.source, input: text, async } };
  }

  #finish(target: unknown[], a: RelayAnswer & { t: 'done' }): PatchRun {
    if (!a.ok) return { ok: false, error: fromWireError(a.error), reason: a.reason };
    this.#warm = true;
    let decoded: unknown[];
    try {
      decoded = this.#encoder.exact.decode(JSON.parse(a.out)) as unknown[];
    } catch (error) {
      return { ok: false, error, reason: 'threw' };
    }
    return applyPatchAnswer(target, decoded);
  }

  #closedRun(world?: PatchWorld): PatchRun | null {
    // The helper has no channel to the app's live `uses` values yet (see helper-protocol.ts): such a
    // patch fails here, clearly, and the block's own behaviour stands.
    if (world !== undefined) return { ok: false, error: new Error(NO_WORLD), reason: 'unavailable' };
    if (this.#disposed) return { ok: false, error: new Error('the repair client is closed'), reason: 'unavailable' };
    if (this.#unavailable !== null) return { ok: false, error: new Error(`patches cannot run: ${this.#unavailable}`), reason: 'unavailable' };
    return null;
  }

  #deadline(limitMs: number): number {
    return Date.now() + limitMs + ROUND_TRIP_SLACK_MS + (this.#warm ? 0 : START_ALLOWANCE_MS);
  }

  runSync(patch: ManifestPatch, target: unknown[], input: unknown[] = target, world?: PatchWorld): PatchRun {
    const closed = this.#closedRun(world);
    if (closed) return closed;
    const r = this.#request(patch, input, false);
    if ('error' in r) return { ok: false, error: r.error, reason: 'threw' };
    const { port, flag } = this.#relay();
    const deadline = this.#deadline(this.#limits.cpuMs);
    Atomics.store(flag, 0, 0);
    port.postMessage(r.req);
    for (;;) {
      Atomics.store(flag, 0, 0);
      for (let got = receiveMessageOnPort(port); got !== undefined; got = receiveMessageOnPort(port)) {
        const m = got.message as RelayAnswer;
        if (m.t === 'done' && m.n === r.n) return this.#finish(target, m);
        this.#dispatch(m);
        if (this.#unavailable !== null) return this.#closedRun() as PatchRun;
      }
      const left = deadline - Date.now();
      if (left <= 0) break;
      Atomics.wait(flag, 0, 0, left);
    }
    // No answer in time: the helper is stuck (its own limits should have stopped the patch); replace it.
    port.postMessage({ t: 'restart' } satisfies RelayRequest);
    this.#warm = false;
    return { ok: false, error: new Error(`patch helper did not answer within ${this.#limits.cpuMs} ms (+ slack)`), reason: 'unavailable' };
  }

  async runAsync(patch: ManifestPatch, target: unknown[], input: unknown[] = target, world?: PatchWorld): Promise<PatchRun> {
    const closed = this.#closedRun(world);
    if (closed) return closed;
    const r = this.#request(patch, input, true);
    if ('error' in r) return { ok: false, error: r.error, reason: 'threw' };
    const { port } = this.#relay();
    const ms = this.#deadline(this.#limits.wallMs) - Date.now();
    let timer: NodeJS.Timeout | undefined;
    const answer = await new Promise<(RelayAnswer & { t: 'done' }) | null>((resolve) => {
      this.#waiting.set(r.n, resolve);
      port.ref(); // an async call in flight keeps the app alive until it settles, like the block would
      timer = setTimeout(() => resolve(null), ms);
      port.postMessage(r.req);
    });
    clearTimeout(timer);
    if (answer === null) {
      this.#waiting.delete(r.n);
      if (this.#waiting.size === 0) this.#port?.unref();
      this.#port?.postMessage({ t: 'restart' } satisfies RelayRequest);
      this.#warm = false;
      return { ok: false, error: new Error(`patch helper did not answer within ${this.#limits.wallMs} ms (+ slack)`), reason: 'unavailable' };
    }
    return this.#finish(target, answer);
  }

  /** Also the signal that patches may run soon: with patches to keep, the helper is started now. */
  release(keep: ReadonlySet<string>): void {
    if (this.#disposed || (this.#port === null && keep.size === 0)) return;
    this.#relay().port.postMessage({ t: 'release', keep: [...keep] } satisfies RelayRequest);
  }

  dispose(): void {
    this.#disposed = true;
    const worker = this.#worker;
    this.#port?.postMessage({ t: 'close' } satisfies RelayRequest);
    this.#lost('the repair client is closed');
    // The relay kills its helper on 'close'; terminate it only after it had the chance.
    if (worker) setTimeout(() => void worker.terminate(), 200).unref();
  }
}
