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
 * Blocks with `uses` (a patch on the live world, see world-host.ts): the world goes with the call,
 * encoded by the app's WorldHost exactly as for an isolate in this process, and every call a
 * patch makes through a stand-in comes back as a `callback` message that the app thread answers
 * by running WorldHost on the live values — the same resolver, tracer (log, replay of the
 * block's calls in fallback mode) and write-back as in process. Where the callback is answered:
 *  - sync block: the app thread is blocked in `Atomics.wait` for the call, and the live functions
 *    belong to it (they are the app's objects: they cannot be called from the relay thread, and a
 *    sync block cannot have waited on anything async anyway). So the wait loop takes callbacks
 *    like its answer: the relay wakes it, it runs the live function there and then, posts the
 *    answer and waits again. That includes callbacks of async patched calls in flight: the helper
 *    has one isolate, and an async call waiting for the app's answer holds it (isolated-vm runs
 *    nothing else in an isolate that waits in applySyncPromise), so this call could not run until
 *    the app answered: deferring those callbacks would deadlock both calls. The one difference from
 *    an isolate in process (where isolated-vm runs the sync call first, the async call's
 *    dependency after it): such a dependency of another call may run while a sync patched call
 *    waits. Time spent in live functions does not count against the deadline (isolated-vm's limit
 *    does not count it in process either).
 *  - async block: the app thread is free, so a callback is an ordinary message on the port; a
 *    live promise is answered when it settles.
 * The relay thread stays a pipe: it never touches app values, so it needs no access to them.
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
import { fromWireError, type Callback, type RelayAnswer, type RelayData, type RelayRequest } from './helper-protocol.ts';
import type { PatchWorld } from './live-world.ts';
import { applyPatchAnswer } from './patch-answer.ts';
import { WorldHost, type SentWorld } from './world-host.ts';
import type { PatchExecutor, PatchRun } from './patch-executor.ts';
// Type-only: these put the relay's and the helper's entries in the compiled package (tsc emits every module it reads).
import type {} from './helper-relay.ts';
import type {} from './patch-helper.ts';
import type { SnapshotEncoder } from './snapshot-encoder.ts';

/** Time a helper may take to start and set up its realm (SES lockdown) before its first answer, ms. */
const START_ALLOWANCE_MS = 15_000;

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
  /** The live worlds of calls with `uses`, and those calls in flight by call number. */
  readonly #worlds: WorldHost;
  readonly #worldCalls = new Map<number, { token: number; sent: SentWorld }>();
  /** A helper answered since the last (re)start: later calls need no start-up allowance. */
  #warm = false;
  #unavailable: string | null = null;
  #disposed = false;

  constructor(limits: PatchLimits, encoder: SnapshotEncoder, on: { unavailable: (message: string) => void; started?: (pid: number) => void }) {
    this.#limits = limits;
    this.#encoder = encoder;
    this.#worlds = new WorldHost(encoder);
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

  /** The patch of a call with a world called a stand-in: the live function runs here, on the app thread. */
  #callback(m: Callback): void {
    const token = this.#worldCalls.get(m.n)?.token ?? 0; // 0: the call ended; WorldHost refuses it
    const answer = (out: string) => this.#port?.postMessage({ t: 'callback-answer', n: m.n, k: m.k, out } satisfies RelayRequest);
    if (m.op === 'call') answer(this.#worlds.call(token, m.path, m.args));
    else void this.#worlds.await(token, m.id).then(answer);
  }

  #dispatch(m: RelayAnswer): void {
    if (m.t === 'callback') {
      this.#callback(m);
      return;
    }
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

  /** A call's request; with a world, the world is entered (and must be left: {@link #finish} or {@link #gaveUp}). */
  #request(patch: ManifestPatch, input: unknown[], async: boolean, world: PatchWorld | undefined): { n: number; req: RelayRequest } | { error: unknown } {
    let text: string;
    let entered: { token: number; sent: SentWorld } | undefined;
    try {
      text = this.#encoder.exact.stringify(this.#encoder.exact.encode(input));
      if (world !== undefined) entered = this.#worlds.enter(world, text, false);
    } catch (error) {
      return { error };
    }
    const n = ++this.#next;
    if (entered !== undefined) this.#worldCalls.set(n, entered);
    return { n, req: { t: 'call', n, id: patch.id, source: patch.source, input: text, async, ...(entered ? { world: entered.sent.json } : {}) } };
  }

  /** Call `n` is over: its world's stand-ins are refused from now on. */
  #leave(n: number): SentWorld | undefined {
    const w = this.#worldCalls.get(n);
    if (w === undefined) return undefined;
    this.#worldCalls.delete(n);
    this.#worlds.leave(w.token);
    return w.sent;
  }

  #gaveUp(n: number, limitMs: number): PatchRun {
    this.#leave(n);
    this.#port?.postMessage({ t: 'restart' } satisfies RelayRequest);
    this.#warm = false;
    return { ok: false, error: new Error(`patch helper did not answer within ${limitMs} ms (+ slack)`), reason: 'unavailable' };
  }

  #finish(target: unknown[], a: RelayAnswer & { t: 'done' }): PatchRun {
    const sent = this.#leave(a.n);
    if (!a.ok) return { ok: false, error: fromWireError(a.error), reason: a.reason };
    this.#warm = true;
    if (sent !== undefined) return this.#worlds.finish(target, a.out, sent);
    let decoded: unknown[];
    try {
      decoded = this.#encoder.exact.decode(JSON.parse(a.out)) as unknown[];
    } catch (error) {
      return { ok: false, error, reason: 'threw' };
    }
    return applyPatchAnswer(target, decoded);
  }

  #closedRun(): PatchRun | null {
    if (this.#disposed) return { ok: false, error: new Error('the repair client is closed'), reason: 'unavailable' };
    if (this.#unavailable !== null) return { ok: false, error: new Error(`patches cannot run: ${this.#unavailable}`), reason: 'unavailable' };
    return null;
  }

  #deadline(limitMs: number): number {
    return Date.now() + limitMs + ROUND_TRIP_SLACK_MS + (this.#warm ? 0 : START_ALLOWANCE_MS);
  }

  runSync(patch: ManifestPatch, target: unknown[], input: unknown[] = target, world?: PatchWorld): PatchRun {
    const closed = this.#closedRun();
    if (closed) return closed;
    const r = this.#request(patch, input, false, world);
    if ('error' in r) return { ok: false, error: r.error, reason: 'threw' };
    const { port, flag } = this.#relay();
    let deadline = this.#deadline(this.#limits.cpuMs);
    Atomics.store(flag, 0, 0);
    port.postMessage(r.req);
    for (;;) {
      Atomics.store(flag, 0, 0);
      for (let got = receiveMessageOnPort(port); got !== undefined; got = receiveMessageOnPort(port)) {
        const m = got.message as RelayAnswer;
        if (m.t === 'done' && m.n === r.n) return this.#finish(target, m);
        const t0 = Date.now();
        this.#dispatch(m);
        // Time the app spends in live functions is not the patch's (isolated-vm does not count it either).
        if (m.t === 'callback') deadline += Date.now() - t0;
        if (this.#unavailable !== null) {
          this.#leave(r.n);
          return this.#closedRun() as PatchRun;
        }
      }
      const left = deadline - Date.now();
      if (left <= 0) break;
      Atomics.wait(flag, 0, 0, left);
    }
    // No answer in time: the helper is stuck (its own limits should have stopped the patch); replace it.
    return this.#gaveUp(r.n, this.#limits.cpuMs);
  }

  async runAsync(patch: ManifestPatch, target: unknown[], input: unknown[] = target, world?: PatchWorld): Promise<PatchRun> {
    const closed = this.#closedRun();
    if (closed) return closed;
    const r = this.#request(patch, input, true, world);
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
      return this.#gaveUp(r.n, this.#limits.wallMs);
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
