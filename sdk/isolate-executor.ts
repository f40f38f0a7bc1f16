import { createRequire } from 'node:module';
import type IvmModule from 'isolated-vm';
import { REALM_SETUP_SCRIPTS } from '../core/hardened-realm.ts';
import { callGlobalOnce, IsolateSlot, runScripts, type IsolateRealm } from '../core/isolate-lifecycle.ts';
import type { ManifestPatch } from '../core/wire.ts';
import type { PatchLimits } from './client-options.ts';
import type { PatchWorld } from './live-world.ts';
import type { PatchExecutor, PatchRun } from './patch-executor.ts';
import { EXACT_CODEC_OPTIONS, type SnapshotEncoder } from './snapshot-encoder.ts';
import { WorldHost, type SentWorld } from './world-host.ts';

type Ivm = typeof IvmModule;

/**
 * Loads isolated-vm, or says why it can't be used. On Node ≥ 20 it needs `--no-node-snapshot`
 * on the node command line (without it the process can crash later, inside V8, where nothing
 * can catch it), so a process without the flag is refused up front rather than risked.
 */
export function loadIsolatedVm(): { ivm: Ivm } | { error: string } {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (!flags.includes('--no-node-snapshot')) {
    return { error: 'isolated-vm needs node started with --no-node-snapshot; patches will not run in isolate mode' };
  }
  try {
    const require = createRequire(import.meta.url);
    return { ivm: require('isolated-vm') as Ivm };
  } catch (err) {
    return { error: `isolated-vm could not be loaded (${(err as Error).message}); patches will not run in isolate mode` };
  }
}

/**
 * Whether the app's arguments survive `JSON.stringify` → `JSON.parse` unchanged: plain objects and
 * arrays (no holes, no `__proto__` key, no shared references or cycles), strings, booleans, null
 * and finite numbers other than -0. Such arguments cross into the isolate as plain JSON (native
 * and several times cheaper than the snapshot codec); anything else takes the codec.
 */
function isPlainJson(root: unknown): boolean {
  const MAX = 10000;
  const seen: unknown[] = [];
  const walk = (v: unknown, depth: number): boolean => {
    if (v === null) return true;
    const t = typeof v;
    if (t === 'string' || t === 'boolean') return true;
    if (t === 'number') return Number.isFinite(v) && !Object.is(v, -0);
    if (t !== 'object' || depth > 100 || seen.length >= MAX) return false;
    if (seen.includes(v)) return false;
    seen.push(v);
    const proto = Object.getPrototypeOf(v);
    if (proto === Array.prototype && Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (!(i in v) || !walk(v[i], depth + 1)) return false;
      return true;
    }
    if (proto !== Object.prototype) return false;
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) if (k === '__proto__' || !walk(o[k], depth + 1)) return false;
    return true;
  };
  try {
    return walk(root, 0);
  } catch {
    return false;
  }
}

/**
 * The patch harness, run in the start compartment of the executor's hardened context (after SES,
 * the codec and the realm script; see core/hardened-realm-script.js). Each patch is evaluated in a
 * compartment of its own, so a patch sees what a candidate saw in its trial (frozen intrinsics,
 * its own globals, a quiet console) and nothing of the SDK: the globals below are reached by the
 * host through References only. A patch's answer is read once, here, by the codec (or checked and
 * stringified as plain JSON): the app gets exactly that copy.
 */
const HARNESS = `
(function (codec, realm, parse, ErrorCtor, defineProperty, String) {
  'use strict';
  const apply = Reflect.apply;
  const patches = new Map();
  // isolated-vm copies a thrown value out of the isolate by reading its properties on the host's
  // thread, outside the time limit: a thrown getter or proxy that loops would hang the app. So
  // whatever the patch throws is read here, under the limit, into an error holding only data.
  const own = (o, k, v) => defineProperty(o, k, { value: v, writable: true, configurable: true, enumerable: false });
  const text = (read) => { try { const v = read(); return typeof v === 'string' ? v : String(v); } catch { return ''; } };
  const safe = (e) => {
    const isObj = e !== null && (typeof e === 'object' || typeof e === 'function');
    const name = isObj ? text(() => e.name) || 'Error' : 'Error';
    const message = isObj ? text(() => e.message) : text(() => e);
    const stack = isObj ? text(() => e.stack) : '';
    const out = new ErrorCtor('');
    own(out, 'name', name);
    own(out, 'message', message);
    own(out, 'stack', stack || name + ': ' + message);
    return out;
  };
  const install = (id, source) => {
    try {
      patches.set(id, realm.evaluateBlock(realm.compartment(), source, '', []).entry);
      sources.set(id, source);
      pools.delete(id);
      return '';
    } catch (e) {
      throw safe(e);
    }
  };
  const forget = (id) => { patches.delete(id); sources.delete(id); pools.delete(id); };
  // Arguments come in two lanes: a snapshot of [this, ...args], or (plainArgs) plain JSON of the
  // args with \`this\` undefined. The answer is "C" + a snapshot of [result, this, ...args]
  // (shared references kept).
  const unpack = (argsJson, plainArgs) => {
    if (plainArgs !== true) return codec.decode(parse(argsJson));
    const a = parse(argsJson);
    const all = [undefined];
    for (let i = 0; i < a.length; i++) all[i + 1] = a[i];
    return all;
  };
  const call = (id, argsJson, plainArgs) => {
    const fn = patches.get(id);
    if (fn === undefined) throw new ErrorCtor('patch is not installed');
    const all = unpack(argsJson, plainArgs);
    const args = [];
    for (let i = 1; i < all.length; i++) args[i - 1] = all[i];
    let result;
    try {
      result = apply(fn, all[0], args);
    } catch (e) {
      throw safe(e);
    }
    // The answer is read exactly once, by the codec: a getter or proxy cannot show one reader
    // (a plain-JSON check) one value and the next (JSON.stringify) another. The trial's judge
    // reads a candidate's answer the same way, so what it judged is what the app gets.
    const pack = (v) => {
      const out = [v, all[0]];
      for (let i = 0; i < args.length; i++) out[i + 2] = args[i];
      return 'C' + codec.stringify(codec.encode(out));
    };
    try {
      if (result !== null && (typeof result === 'object' || typeof result === 'function') && typeof result.then === 'function') {
        return Promise.resolve(result).then(pack).then(undefined, (e) => { throw safe(e); });
      }
      return pack(result);
    } catch (e) {
      throw safe(e);
    }
  };
  // ---- calls with a world: the block's uses defined in a compartment of the call's own ----
  // Each use is a copy; each function in it a stand-in calling the host by path (the host calls
  // the live function); a compartment (with the patch evaluated in it) serves one call at a time.
  // A remote host (the patch helper process: the live functions are in another process) answers
  // with a promise, which the stand-in waits for (applySyncPromise: the isolate runs on its own
  // thread there, so the helper's event loop is free to carry the answer in).
  const hostCall = globalThis.__sutureHostCall;
  const hostAwait = globalThis.__sutureHostAwait;
  const hostRemote = globalThis.__sutureHostRemote === true;
  delete globalThis.__sutureHostCall;
  delete globalThis.__sutureHostAwait;
  delete globalThis.__sutureHostRemote;
  const sources = new Map();
  const pools = new Map();
  const fromHost = (token, out) => {
    const kind = out.charAt(0);
    const body = out.slice(1);
    if (kind === 'R') return codec.decode(parse(body));
    if (kind === 'E') {
      const e = parse(body);
      const err = new ErrorCtor(String(e.message));
      own(err, 'name', String(e.name));
      throw err;
    }
    return hostAwait.apply(undefined, [token, body], { result: { promise: true, copy: true } }).then((o) => fromHost(token, o));
  };
  const bridge = (token, path) => {
    const f = function (...args) {
      const argsJson = codec.stringify(codec.encode(args));
      const out = hostRemote ? hostCall.applySyncPromise(undefined, [token, path, argsJson]) : hostCall.applySync(undefined, [token, path, argsJson], { result: { copy: true } });
      return fromHost(token, out);
    };
    const parts = path.split('.');
    defineProperty(f, 'name', { value: parts[parts.length - 1], configurable: true });
    return f;
  };
  const wire = (token, value, path, depth, seen) => {
    if (typeof value === 'function') return bridge(token, path);
    if (value === null || typeof value !== 'object' || depth > 64 || seen.has(value)) return value;
    seen.add(value);
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const d = Object.getOwnPropertyDescriptor(value, keys[i]);
      if (d === undefined || !('value' in d)) continue;
      if (typeof d.value === 'function') defineProperty(value, keys[i], { value: bridge(token, path + '.' + keys[i]), writable: true, enumerable: d.enumerable, configurable: true });
      else wire(token, d.value, path + '.' + keys[i], depth + 1, seen);
    }
    return value;
  };
  // A method a copy does not hold (class methods: copies keep own data) is added where its path ends.
  const addAt = (token, roots, path) => {
    const parts = path.split('.');
    if (parts.length < 2 || !Object.prototype.hasOwnProperty.call(roots, parts[0])) return;
    let node = roots[parts[0]];
    for (let i = 1; i < parts.length - 1; i++) {
      if (node === null || typeof node !== 'object') return;
      const d = Object.getOwnPropertyDescriptor(node, parts[i]);
      if (d === undefined || !('value' in d)) return;
      node = d.value;
    }
    const key = parts[parts.length - 1];
    if (node === null || typeof node !== 'object' || Object.prototype.hasOwnProperty.call(node, key)) return;
    defineProperty(node, key, { value: bridge(token, path), writable: true, enumerable: false, configurable: true });
  };
  const callWorld = (id, argsJson, plainArgs, worldJson, token, syncOnly) => {
    const source = sources.get(id);
    if (source === undefined) throw new ErrorCtor('patch is not installed');
    let pool = pools.get(id);
    if (pool === undefined) pools.set(id, (pool = []));
    let slot = pool.pop();
    try {
      if (slot === undefined) {
        const c = realm.compartment();
        slot = { c, fn: realm.evaluateBlock(c, source, '', []).entry };
      }
    } catch (e) {
      throw safe(e);
    }
    const w = parse(worldJson);
    const all = unpack(argsJson, plainArgs);
    const roots = {};
    const global = slot.c.globalThis;
    for (let i = 0; i < w.names.length; i++) {
      const name = w.names[i];
      const value = wire(token, codec.decode(w.uses[name]), name, 0, new Set());
      defineProperty(global, name, { value, writable: true, enumerable: false, configurable: true });
      roots[name] = value;
    }
    if (all[0] !== null && typeof all[0] === 'object') roots.this = wire(token, all[0], 'this', 0, new Set());
    for (let i = 0; i < w.paths.length; i++) addAt(token, roots, w.paths[i]);
    const args = [];
    for (let i = 1; i < all.length; i++) args[i - 1] = all[i];
    const done = slot;
    const release = () => { if (pool.length < 4) pool.push(done); };
    const pack = (v) => {
      const after = {};
      for (let i = 0; i < w.names.length; i++) after[w.names[i]] = global[w.names[i]];
      const out = [v, all[0]];
      for (let i = 0; i < args.length; i++) out[i + 2] = args[i];
      out[args.length + 2] = after;
      release();
      return 'C' + codec.stringify(codec.encode(out));
    };
    let result;
    try {
      result = apply(slot.fn, all[0], args);
      if (result !== null && (typeof result === 'object' || typeof result === 'function') && typeof result.then === 'function') {
        if (syncOnly === true) throw new TypeError('patch returned a promise where the block returns a plain value');
        return Promise.resolve(result).then(pack).then(undefined, (e) => { release(); throw safe(e); });
      }
      return pack(result);
    } catch (e) {
      release();
      throw safe(e);
    }
  };
  defineProperty(globalThis, '__sutureCallWorld', { value: callWorld });
  defineProperty(globalThis, '__sutureSource', { value: (id, source) => { sources.set(id, source); pools.delete(id); return ''; } });
  defineProperty(globalThis, '__sutureInit', { value: () => { realm.lock(); return ''; } });
  defineProperty(globalThis, '__sutureInstall', { value: install });
  defineProperty(globalThis, '__sutureForget', { value: forget });
  defineProperty(globalThis, '__sutureCall', { value: call });
})(createSnapshotCodec(${JSON.stringify(EXACT_CODEC_OPTIONS)}), createHardenedRealm(), JSON.parse, Error, Object.defineProperty, String);
`;

/** The hardened context of the executor's isolate, the harness entry points and the patches installed there. */
interface PatchRealm extends IsolateRealm {
  context: IvmModule.Context;
  install: IvmModule.Reference<(id: string, source: string) => string>;
  forget: IvmModule.Reference<(id: string) => void>;
  call: IvmModule.Reference<(id: string, argsJson: string, plainArgs: boolean) => string | Promise<string>>;
  callWorld: IvmModule.Reference<(id: string, argsJson: string, plainArgs: boolean, worldJson: string, token: number, syncOnly: boolean) => string | Promise<string>>;
  installed: Set<string>;
}

/**
 * The world's live functions in another process (the patch helper's executor): the answers of
 * WorldHost.call and WorldHost.await on the app's side, as promises.
 */
export interface RemoteWorld {
  call(token: number, path: string, argsJson: string): Promise<string>;
  await(token: number, id: string): Promise<string>;
}

/** Set-up of one hardened context is bounded (SES compiles and locks down in tens of milliseconds). */
const SETUP_TIMEOUT_MS = 10_000;

/** The executor's own wall-clock limit of an async patch (the isolate may still be running its code). */
class WallClockExceeded extends Error {}

/**
 * `execution: 'isolate'`: each verified patch runs in its own compartment of one hardened context
 * (SES lockdown) in one isolated-vm isolate owned by the client, with a time limit per call and a heap limit for the isolate. Arguments go in
 * as an exact snapshot; the result and the arguments' state after the call come back the same way
 * and the state is applied back onto the caller's objects (see StateWriteBack). A call that is
 * stopped (timeout, memory) or throws changes nothing on the caller's side. The isolate follows
 * core/isolate-lifecycle.ts: one whose code hit a limit is thrown away and replaced on next use.
 */
export class IsolateExecutor implements PatchExecutor {
  readonly mode = 'isolate' as const;
  readonly #limits: PatchLimits;
  readonly #encoder: SnapshotEncoder;
  readonly #slot: IsolateSlot<PatchRealm>;
  /** The live worlds of this process's world calls (unused with a remote world). */
  readonly #worlds: WorldHost;
  readonly #remote: RemoteWorld | null;

  /**
   * `remote`: the executor of the patch helper process, whose world calls come encoded from the
   * app ({@link runWorldText}) and whose stand-ins are answered there; runSync and runAsync then
   * take no world.
   */
  constructor(ivm: Ivm, limits: PatchLimits, encoder: SnapshotEncoder, remote: RemoteWorld | null = null) {
    this.#limits = limits;
    this.#encoder = encoder;
    this.#worlds = new WorldHost(encoder);
    this.#remote = remote;
    this.#slot = new IsolateSlot<PatchRealm>(
      (memoryMb) => new ivm.Isolate({ memoryLimit: memoryMb }),
      (iso) => {
        const context = iso.createContextSync();
        const host = this.#remote ?? this.#worlds;
        const hostCall = new ivm.Reference((token: number, path: string, argsJson: string) => host.call(token, path, argsJson));
        const hostAwait = new ivm.Reference((token: number, id: string) => host.await(token, id));
        context.global.setSync('__sutureHostCall', hostCall);
        context.global.setSync('__sutureHostAwait', hostAwait);
        context.global.setSync('__sutureHostRemote', this.#remote !== null);
        runScripts(iso, context, [...REALM_SETUP_SCRIPTS, { code: HARNESS, filename: 'patch-harness.js' }], SETUP_TIMEOUT_MS);
        const ref = <T>(name: string) => context.global.getSync(name, { reference: true }) as IvmModule.Reference<T>;
        callGlobalOnce(context, '__sutureInit', SETUP_TIMEOUT_MS);
        const install = ref<(id: string, source: string) => string>('__sutureInstall');
        const forget = ref<(id: string) => void>('__sutureForget');
        const call = ref<(id: string, argsJson: string, plainArgs: boolean) => string | Promise<string>>('__sutureCall');
        const callWorld = ref<PatchRealm['callWorld'] extends IvmModule.Reference<infer F> ? F : never>('__sutureCallWorld');
        return { context, install, forget, call, callWorld, installed: new Set(), handles: [install, forget, call, callWorld, hostCall, hostAwait, context] };
      },
    );
  }

  #prepare(patch: ManifestPatch): PatchRealm | { error: unknown } {
    try {
      const realm = this.#slot.realm(this.#limits.memoryMb);
      if (!realm.installed.has(patch.id)) {
        realm.install.applySync(undefined, [patch.id, patch.source], { timeout: this.#limits.cpuMs });
        realm.installed.add(patch.id);
      }
      return realm;
    } catch (error) {
      return { error };
    }
  }

  #failure(error: unknown): PatchRun & { ok: false } {
    const failure = error instanceof WallClockExceeded ? 'timeout' : this.#slot.failed(error);
    if (failure === 'memory' || failure === 'disposed') return { ok: false, error, reason: 'memory' };
    if (failure === 'timeout') {
      this.#slot.drop();
      return { ok: false, error, reason: 'timeout' };
    }
    // A patch that threw after filling the heap (deep recursion building arrays) would make the
    // next call pay for a full collection inside its time limit: start that one in a fresh isolate.
    this.#slot.dropIfHeapFullSync();
    return { ok: false, error, reason: 'threw' };
  }

  /** The arguments as they cross into the isolate: plain JSON when `this` is undefined and they allow it, else the exact codec. */
  #pack(input: unknown[]): [string, boolean] {
    if (input[0] === undefined) {
      const args = input.slice(1);
      if (isPlainJson(args)) return [JSON.stringify(args), true];
    }
    return [this.#encoder.exact.stringify(this.#encoder.exact.encode(input)), false];
  }

  #localWorld(world: PatchWorld | undefined): void {
    if (world !== undefined && this.#remote !== null) throw new TypeError('an executor with a remote world runs world calls through runWorldText');
  }

  runSync(patch: ManifestPatch, target: unknown[], input: unknown[] = target, world?: PatchWorld): PatchRun {
    this.#localWorld(world);
    const p = this.#prepare(patch);
    if (!('call' in p)) return { ok: false, error: p.error, reason: 'compile' };
    const [json, plain] = this.#pack(input);
    let out: unknown;
    let sent: SentWorld | undefined;
    let token = 0;
    try {
      const opts = { timeout: this.#limits.cpuMs, result: { copy: true } } as const;
      if (world === undefined) out = p.call.applySync(undefined, [patch.id, json, plain], opts);
      else {
        ({ token, sent } = this.#worlds.enter(world, json, plain));
        out = p.callWorld.applySync(undefined, [patch.id, json, plain, sent.json, token, true], opts);
      }
    } catch (error) {
      return this.#failure(error);
    } finally {
      this.#worlds.leave(token);
    }
    if (typeof out !== 'string') {
      return { ok: false, error: new TypeError('patch returned a promise where the block returns a plain value'), reason: 'threw' };
    }
    return this.#worlds.finish(target, out, sent);
  }

  /** `call` within the wall-clock limit of an async patch. */
  async #withinWall<T>(call: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const wall = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new WallClockExceeded(`patch timed out: wall-clock limit of ${this.#limits.wallMs} ms`)), this.#limits.wallMs);
    });
    try {
      return await Promise.race([call, wall]);
    } finally {
      clearTimeout(timer);
    }
  }

  async runAsync(patch: ManifestPatch, target: unknown[], input: unknown[] = target, world?: PatchWorld): Promise<PatchRun> {
    this.#localWorld(world);
    const p = this.#prepare(patch);
    if (!('call' in p)) return { ok: false, error: p.error, reason: 'compile' };
    const [json, plain] = this.#pack(input);
    let sent: SentWorld | undefined;
    let token = 0;
    try {
      const opts = { timeout: this.#limits.cpuMs, result: { promise: true, copy: true } } as const;
      let call: Promise<unknown>;
      if (world === undefined) call = p.call.apply(undefined, [patch.id, json, plain], opts);
      else {
        ({ token, sent } = this.#worlds.enter(world, json, plain));
        call = p.callWorld.apply(undefined, [patch.id, json, plain, sent.json, token, false], opts);
      }
      return this.#worlds.finish(target, await this.#withinWall(call), sent);
    } catch (error) {
      return this.#failure(error);
    } finally {
      this.#worlds.leave(token);
    }
  }

  /**
   * A world call in the patch helper process: `[this, ...args]` and the world (WorldHost.enter's
   * `sent.json`) as the app encoded them, `token` what the stand-ins call the remote world with.
   * The answer is the harness's text, for the app's WorldHost.finish. The isolate runs on its
   * own thread even for a sync block (so the stand-ins can wait for the app's answers), under the
   * same CPU limit; an async block's call also under the wall-clock limit. A sync block's patch
   * that returns a promise fails, as in runSync.
   */
  async runWorldText(patch: ManifestPatch, argsJson: string, worldJson: string, token: number, async: boolean): Promise<{ ok: true; out: string } | (PatchRun & { ok: false })> {
    if (this.#remote === null) throw new TypeError('runWorldText needs an executor with a remote world');
    const p = this.#prepare(patch);
    if (!('call' in p)) return { ok: false, error: p.error, reason: 'compile' };
    try {
      const call = p.callWorld.apply(undefined, [patch.id, argsJson, false, worldJson, token, !async], { timeout: this.#limits.cpuMs, result: { promise: true, copy: true } });
      const out = async ? await this.#withinWall(call) : await call;
      return { ok: true, out: String(out) };
    } catch (error) {
      return this.#failure(error);
    }
  }

  release(keep: ReadonlySet<string>): void {
    const realm = this.#slot.current;
    if (realm === null) return;
    for (const id of [...realm.installed]) {
      if (keep.has(id)) continue;
      realm.installed.delete(id);
      try {
        realm.forget.applySync(undefined, [id], { timeout: this.#limits.cpuMs });
      } catch {
        /* isolate already gone */
      }
    }
  }

  dispose(): void {
    this.#slot.drop();
  }
}
