import { createRequire } from 'node:module';
import type IvmModule from 'isolated-vm';
import { REALM_SETUP_SCRIPTS } from '../core/hardened-realm.ts';
import { callGlobalOnce, IsolateSlot, runScripts, type IsolateRealm } from '../core/isolate-lifecycle.ts';
import type { ManifestPatch } from '../core/wire.ts';
import type { PatchLimits } from './client-options.ts';
import { applyPatchAnswer } from './patch-answer.ts';
import type { PatchExecutor, PatchRun } from './patch-executor.ts';
import { EXACT_CODEC_OPTIONS, type SnapshotEncoder } from './snapshot-encoder.ts';

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
      return '';
    } catch (e) {
      throw safe(e);
    }
  };
  const forget = (id) => { patches.delete(id); };
  // Arguments come in two lanes: a snapshot of [this, ...args], or (plainArgs) plain JSON of the
  // args with \`this\` undefined. The answer is "C" + a snapshot of [result, this, ...args]
  // (shared references kept).
  const call = (id, argsJson, plainArgs) => {
    const fn = patches.get(id);
    if (fn === undefined) throw new ErrorCtor('patch is not installed');
    let all;
    if (plainArgs === true) {
      const a = parse(argsJson);
      all = [undefined];
      for (let i = 0; i < a.length; i++) all[i + 1] = a[i];
    } else {
      all = codec.decode(parse(argsJson));
    }
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
  installed: Set<string>;
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

  constructor(ivm: Ivm, limits: PatchLimits, encoder: SnapshotEncoder) {
    this.#limits = limits;
    this.#encoder = encoder;
    this.#slot = new IsolateSlot<PatchRealm>(
      (memoryMb) => new ivm.Isolate({ memoryLimit: memoryMb }),
      (iso) => {
        const context = iso.createContextSync();
        runScripts(iso, context, [...REALM_SETUP_SCRIPTS, { code: HARNESS, filename: 'patch-harness.js' }], SETUP_TIMEOUT_MS);
        const ref = <T>(name: string) => context.global.getSync(name, { reference: true }) as IvmModule.Reference<T>;
        callGlobalOnce(context, '__sutureInit', SETUP_TIMEOUT_MS);
        const install = ref<(id: string, source: string) => string>('__sutureInstall');
        const forget = ref<(id: string) => void>('__sutureForget');
        const call = ref<(id: string, argsJson: string, plainArgs: boolean) => string | Promise<string>>('__sutureCall');
        return { context, install, forget, call, installed: new Set(), handles: [install, forget, call, context] };
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

  #failure(error: unknown): PatchRun {
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

  #finish(target: unknown[], out: unknown): PatchRun {
    let decoded: unknown[];
    try {
      const text = String(out);
      if (text.charCodeAt(0) !== 0x43 /* C */) throw new TypeError('patch harness answered in an unknown form');
      decoded = this.#encoder.exact.decode(JSON.parse(text.slice(1))) as unknown[];
    } catch (error) {
      return { ok: false, error, reason: 'threw' };
    }
    return applyPatchAnswer(target, decoded);
  }

  /** The arguments as they cross into the isolate: plain JSON when `this` is undefined and they allow it, else the exact codec. */
  #pack(input: unknown[]): [string, boolean] {
    if (input[0] === undefined) {
      const args = input.slice(1);
      if (isPlainJson(args)) return [JSON.stringify(args), true];
    }
    return [this.#encoder.exact.stringify(this.#encoder.exact.encode(input)), false];
  }

  runSync(patch: ManifestPatch, target: unknown[], input: unknown[] = target): PatchRun {
    const p = this.#prepare(patch);
    if (!('call' in p)) return { ok: false, error: p.error, reason: 'compile' };
    const [json, plain] = this.#pack(input);
    let out: unknown;
    try {
      out = p.call.applySync(undefined, [patch.id, json, plain], { timeout: this.#limits.cpuMs, result: { copy: true } });
    } catch (error) {
      return this.#failure(error);
    }
    if (typeof out !== 'string') {
      return { ok: false, error: new TypeError('patch returned a promise where the block returns a plain value'), reason: 'threw' };
    }
    return this.#finish(target, out);
  }

  async runAsync(patch: ManifestPatch, target: unknown[], input: unknown[] = target): Promise<PatchRun> {
    const p = this.#prepare(patch);
    if (!('call' in p)) return { ok: false, error: p.error, reason: 'compile' };
    const [json, plain] = this.#pack(input);
    let timer: NodeJS.Timeout | undefined;
    try {
      const call = p.call.apply(undefined, [patch.id, json, plain], { timeout: this.#limits.cpuMs, result: { promise: true, copy: true } });
      const wall = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new WallClockExceeded(`patch timed out: wall-clock limit of ${this.#limits.wallMs} ms`)), this.#limits.wallMs);
      });
      const out = await Promise.race([call, wall]);
      return this.#finish(target, out);
    } catch (error) {
      return this.#failure(error);
    } finally {
      clearTimeout(timer);
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
