/**
 * A patch's world in the app: the live `uses` values and receiver of the call it answers. A patch
 * reaches the live dependencies through the call's {@link Tracer} (so its calls are logged like the
 * block's); when it runs because the block threw (fallback mode) the tracer first answers from
 * the block's own log, so a call the block already made is not made twice (see ReplayCursor).
 *
 * The isolate gets copies of the data and, for each function, a stand-in that calls back here by
 * path (`db.getUser`, `self.getCurrentPosition`, `this.heal`); this module resolves a path on the
 * live values, refusing any path the copies did not offer.
 */
import { CallLog, Tracer, type BlockWorld, type LoggedCall, type ReplayCursor } from './block-world.ts';
import type { CallContext } from './call-context.ts';

/** What a patched call of a block with `uses` gives the executor. */
export interface PatchWorld {
  names: string[];
  /** The live values. */
  values: unknown[];
  /** The live receiver (undefined without one). */
  self: unknown;
  tracer: Tracer;
  /** Fallback mode: the block's own calls, answered first. */
  replay: ReplayCursor | null;
}

/** The world a patch answering `ctx` runs in; `replayBlock`: replay the block's calls first (it threw). */
export function patchWorld(ctx: CallContext & { world: BlockWorld }, replayBlock: boolean): PatchWorld {
  const replay: ReplayCursor | null = replayBlock ? { calls: ctx.tracer?.log.calls ?? [], next: 0, contradicted: null } : null;
  return { names: ctx.world.names, values: ctx.world.values, self: ctx.self, tracer: new Tracer(new CallLog(), replay), replay };
}

/**
 * The world of a shadow run (replay only): copies of the `uses` values taken on the call's entry
 * and of its receiver (`self`), and a tracer that answers dependency calls only from the block's
 * own log (`calls`, copied when the block returned). A call the log cannot answer is refused and
 * marks the cursor contradicted; no effectful live function is ever reached (pure helpers run).
 */
export function shadowWorld(names: string[], usesEntry: unknown[], self: unknown, calls: LoggedCall[]): PatchWorld {
  const replay: ReplayCursor = { calls, next: 0, contradicted: null, only: true };
  return { names, values: usesEntry, self, tracer: new Tracer(new CallLog(), replay), replay };
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const STOP = new Set<unknown>([Object.prototype, Function.prototype, Array.prototype, null]);

function isObjectLike(v: unknown): v is object {
  return v !== null && (typeof v === 'object' || typeof v === 'function');
}

/**
 * Functions a copy of `value` loses: methods of class instances (a snapshot keeps own data only),
 * one level down from each root, as paths under `root`. Own function properties are kept by the
 * snapshot as stand-ins and need no path here.
 */
function methodPaths(value: unknown, root: string, out: string[], depth: number): void {
  if (!isObjectLike(value) || depth > 1) return;
  let proto = Object.getPrototypeOf(value) as object | null;
  const seen = new Set<string>();
  while (!STOP.has(proto) && proto !== null) {
    for (const k of Object.getOwnPropertyNames(proto)) {
      if (FORBIDDEN.has(k) || seen.has(k)) continue;
      const d = Object.getOwnPropertyDescriptor(proto, k);
      if (d && typeof d.value === 'function') {
        seen.add(k);
        out.push(`${root}.${k}`);
      }
    }
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  if (typeof value === 'object' && depth === 0 && Object.getPrototypeOf(value) === Object.prototype) {
    for (const k of Object.keys(value).slice(0, 64)) {
      let v: unknown;
      try {
        v = (value as Record<string, unknown>)[k];
      } catch {
        continue;
      }
      if (typeof v === 'object') methodPaths(v, `${root}.${k}`, out, depth + 1);
    }
  }
}

/** The paths a patch in the isolate may call back: every function of the live values and receiver. */
export function callablePaths(w: PatchWorld): string[] {
  const out: string[] = [];
  w.names.forEach((n, i) => {
    if (typeof w.values[i] === 'function') out.push(n);
    methodPaths(w.values[i], n, out, 0);
  });
  if (w.self !== undefined) methodPaths(w.self, 'this', out, 0);
  return out;
}

/**
 * Calls the live function at `path` with `args` (copies from the isolate), through the call's
 * tracer. Only functions reachable by own properties or class methods are callable; `constructor`,
 * `prototype` and `__proto__` never are.
 */
export function callAt(w: PatchWorld, path: string, args: unknown[]): unknown {
  const parts = path.split('.');
  const i = w.names.indexOf(parts[0]);
  let holder: unknown = undefined;
  let node: unknown;
  if (parts[0] === 'this' && w.self !== undefined) node = w.self;
  else if (i >= 0) node = w.values[i];
  else throw new TypeError(`suture: ${path} is not reachable from the block's uses`);
  for (let k = 1; k < parts.length; k++) {
    const key = parts[k];
    if (FORBIDDEN.has(key) || !isObjectLike(node)) throw new TypeError(`suture: ${path} is not reachable from the block's uses`);
    holder = node;
    node = Reflect.get(node, key);
  }
  if (typeof node !== 'function') throw new TypeError(`suture: ${path} is not a function`);
  return w.tracer.call(path, node, holder, args);
}
