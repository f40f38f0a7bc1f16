import { createRequire } from 'node:module';
import type IvmModule from 'isolated-vm';
import { SNAPSHOT_CODEC_SOURCE } from '../core/snapshot.ts';
import type { ManifestPatch } from '../core/wire.ts';
import type { PatchLimits } from './client-options.ts';
import type { PatchExecutor, PatchRun } from './patch-executor.ts';
import { EXACT_CODEC_OPTIONS, type SnapshotEncoder } from './snapshot-encoder.ts';
import { StateWriteBack } from './state-write-back.ts';

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

interface PreparedPatch {
  context: IvmModule.Context;
  call: IvmModule.Reference<(argsJson: string) => string | Promise<string>>;
}

/** The call wrapper inside a patch's context; `__sutureCodec` and `__suturePatch` are set before it runs. */
const HARNESS = `
const __sutureCall = (function (codec, parse, fn, ErrorCtor, defineProperty, String) {
  const apply = Reflect.apply;
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
  // argsJson: [this, ...args]; answer: [result, this, ...args] in one snapshot (shared references kept).
  return function (argsJson) {
    const all = codec.decode(parse(argsJson));
    const args = [];
    for (let i = 1; i < all.length; i++) args[i - 1] = all[i];
    let result;
    try {
      result = apply(fn, all[0], args);
    } catch (e) {
      throw safe(e);
    }
    const pack = (v) => { const out = [v, all[0]]; for (let i = 0; i < args.length; i++) out[i + 2] = args[i]; return codec.stringify(codec.encode(out)); };
    try {
      if (result !== null && (typeof result === 'object' || typeof result === 'function') && typeof result.then === 'function') {
        return Promise.resolve(result).then(pack).then(undefined, (e) => { throw safe(e); });
      }
      return pack(result);
    } catch (e) {
      throw safe(e);
    }
  };
})(createSnapshotCodec(${JSON.stringify(EXACT_CODEC_OPTIONS)}), JSON.parse, __suturePatch, Error, Object.defineProperty, String);
`;

/**
 * `execution: 'isolate'`: each verified patch runs in its own context of one isolated-vm isolate
 * owned by the client, with a time limit per call and a heap limit for the isolate. Arguments go in
 * as an exact snapshot; the result and the arguments' state after the call come back the same way
 * and the state is applied back onto the caller's objects (see StateWriteBack). A call that is
 * stopped (timeout, memory) or throws changes nothing on the caller's side. A context that hit a
 * limit is thrown away; an isolate killed by its heap limit is replaced on next use.
 */
export class IsolateExecutor implements PatchExecutor {
  readonly mode = 'isolate' as const;
  readonly #ivm: Ivm;
  readonly #limits: PatchLimits;
  readonly #encoder: SnapshotEncoder;
  #isolate: IvmModule.Isolate | null = null;
  #codecScript: IvmModule.Script | null = null;
  readonly #prepared = new Map<string, PreparedPatch>();

  constructor(ivm: Ivm, limits: PatchLimits, encoder: SnapshotEncoder) {
    this.#ivm = ivm;
    this.#limits = limits;
    this.#encoder = encoder;
  }

  #ensureIsolate(): IvmModule.Isolate {
    if (!this.#isolate || this.#isolate.isDisposed) {
      this.#prepared.clear();
      this.#isolate = new this.#ivm.Isolate({ memoryLimit: this.#limits.memoryMb });
      this.#codecScript = this.#isolate.compileScriptSync(SNAPSHOT_CODEC_SOURCE, { filename: 'snapshot-codec.js' });
    }
    return this.#isolate;
  }

  #prepare(patch: ManifestPatch): PreparedPatch | { error: unknown } {
    const have = this.#prepared.get(patch.id);
    if (have) return have;
    try {
      const iso = this.#ensureIsolate();
      const context = iso.createContextSync();
      (this.#codecScript as IvmModule.Script).runSync(context, { timeout: this.#limits.cpuMs });
      iso
        .compileScriptSync(`const __suturePatch = (${patch.source}\n);\n${HARNESS}`, { filename: `patch-${patch.id}.js` })
        .runSync(context, { timeout: this.#limits.cpuMs });
      if (context.evalSync('typeof __suturePatch', { timeout: this.#limits.cpuMs }) !== 'function') {
        context.release();
        return { error: new TypeError('patch source is not a function expression') };
      }
      const call = context.evalSync('__sutureCall', { reference: true }) as PreparedPatch['call'];
      const prepared = { context, call };
      this.#prepared.set(patch.id, prepared);
      return prepared;
    } catch (error) {
      return { error };
    }
  }

  #drop(patchId: string): void {
    const p = this.#prepared.get(patchId);
    this.#prepared.delete(patchId);
    try {
      p?.call.release();
      p?.context.release();
    } catch {
      /* isolate already gone */
    }
  }

  #failure(patchId: string, error: unknown): PatchRun {
    const message = error instanceof Error ? error.message : String(error);
    if (this.#isolate?.isDisposed || /memory limit/i.test(message)) {
      this.#prepared.clear();
      this.#isolate = null;
      return { ok: false, error, reason: 'memory' };
    }
    if (/timed out/i.test(message)) {
      this.#drop(patchId);
      return { ok: false, error, reason: 'timeout' };
    }
    return { ok: false, error, reason: 'threw' };
  }

  #finish(target: unknown[], out: unknown): PatchRun {
    let decoded: unknown[];
    try {
      decoded = this.#encoder.exact.decode(JSON.parse(String(out))) as unknown[];
    } catch (error) {
      return { ok: false, error, reason: 'threw' };
    }
    // Never throw into the app: a write-back that fails (a frozen or exotic caller object) is a failed patch run.
    try {
      const writeBack = new StateWriteBack();
      writeBack.applyArgs(target, decoded.slice(1));
      return { ok: true, value: writeBack.resolve(decoded[0]) };
    } catch (error) {
      return { ok: false, error, reason: 'threw' };
    }
  }

  runSync(patch: ManifestPatch, target: unknown[], input: unknown[] = target): PatchRun {
    const p = this.#prepare(patch);
    if (!('call' in p)) return { ok: false, error: p.error, reason: 'compile' };
    const json = this.#encoder.exact.stringify(this.#encoder.exact.encode(input));
    let out: unknown;
    try {
      out = p.call.applySync(undefined, [json], { timeout: this.#limits.cpuMs, result: { copy: true } });
    } catch (error) {
      return this.#failure(patch.id, error);
    }
    if (typeof out !== 'string') {
      return { ok: false, error: new TypeError('patch returned a promise where the block returns a plain value'), reason: 'threw' };
    }
    return this.#finish(target, out);
  }

  async runAsync(patch: ManifestPatch, target: unknown[], input: unknown[] = target): Promise<PatchRun> {
    const p = this.#prepare(patch);
    if (!('call' in p)) return { ok: false, error: p.error, reason: 'compile' };
    const json = this.#encoder.exact.stringify(this.#encoder.exact.encode(input));
    let timer: NodeJS.Timeout | undefined;
    try {
      const call = p.call.apply(undefined, [json], { timeout: this.#limits.cpuMs, result: { promise: true, copy: true } });
      const wall = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`patch timed out: wall-clock limit of ${this.#limits.wallMs} ms`)), this.#limits.wallMs);
      });
      const out = await Promise.race([call, wall]);
      return this.#finish(target, out);
    } catch (error) {
      return this.#failure(patch.id, error);
    } finally {
      clearTimeout(timer);
    }
  }

  release(keep: ReadonlySet<string>): void {
    for (const id of [...this.#prepared.keys()]) if (!keep.has(id)) this.#drop(id);
  }

  dispose(): void {
    this.#prepared.clear();
    try {
      this.#isolate?.dispose();
    } catch {
      /* already disposed */
    }
    this.#isolate = null;
  }
}
