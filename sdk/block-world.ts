/**
 * What a block reads from outside (`uses`), and the calls it makes through it.
 *
 * A block's code reads its outside names from its own closure, where nothing can see its calls. So
 * a block run with `uses` runs as a second copy compiled from its source (once per block), whose
 * free names are parameters bound to the `uses` values, or, for values that hold functions, to
 * tracers: transparent proxies that log every call made through them (path, arguments, sync or
 * async, answer or error) into the call's {@link CallLog}. Only when every outside name the block
 * reads is either in `uses` or a real global of this process does the copy behave as the block;
 * otherwise the block itself runs and no call is logged.
 *
 * Cost: tracers are made per call for the `uses` values that hold functions (a handful of objects,
 * whatever the size of the values), children lazily as the block reads them; a logged call keeps
 * references. Nothing is copied or encoded here: that happens only when the call is recorded or
 * fails (see {@link encodeWorld}).
 *
 * Pure data (objects and arrays whose first entries hold no function) is passed as it is: no proxy
 * can then leak into what the block returns or stores.
 */
import { unknownFreeNames } from '../core/block-free-names.ts';
import type { Encoded } from '../core/types.ts';
import type { CallWorld, DependencyCall } from '../core/world.ts';
import { dependencyError } from './error-description.ts';
import { isPureHelper } from './function-facts.ts';
import type { ReportEncoder, SnapshotEncoder } from './snapshot-encoder.ts';

/** The options-object form of `run`/`wrap`'s first parameter. */
export interface BlockOptions {
  /** The block's id (as the string form's first argument). */
  id: string;
  /** What the block should do, in words (the string form's second argument). */
  description: string;
  /**
   * Every outside name the block reads, with its value: module constants, helpers, injected
   * clients, objects whose methods it calls (`{ RATES, db, self, moveRight }`). Suture records them
   * with failures and recorded calls, replays them in its trials and gives a patch the live values.
   */
  uses?: Record<string, unknown>;
  /** The block's `this` (for `run`; `wrap` takes the call's own `this` unless this is given). */
  receiver?: unknown;
}

/** One call made through `uses`, as logged: references, not copies. */
export interface LoggedCall {
  path: string;
  fn: Function;
  args: unknown[];
  /** It returned a promise. */
  async: boolean;
  /** The answer (for async: once settled). */
  result?: unknown;
  /** What it threw or rejected with. */
  error?: unknown;
  threw: boolean;
  /** Async calls only: the promise has settled. */
  settled: boolean;
  /** Async calls: the promise the function returned. */
  promise?: Promise<unknown>;
}

/**
 * A recorded answer lookup for a patch running after its block threw: the patch's calls are
 * answered from the block's own log while they match it; see {@link Tracer}.
 */
export interface ReplayCursor {
  calls: LoggedCall[];
  next: number;
  /** Set when the patch made a call that differs from the logged one at its position. */
  contradicted: string | null;
  /**
   * Replay only (shadow runs): a call past the log is refused like a contradiction instead of
   * reaching the live function; pure helpers still run.
   */
  only?: boolean;
}

/** The calls one call of a block made through its `uses`. */
export class CallLog {
  readonly calls: LoggedCall[] = [];
}

/** A block's `uses`, checked, and what is known of its source. */
export interface BlockWorld {
  names: string[];
  values: unknown[];
  /** The copy with its names as parameters, or null (the block reads names only its closure holds). */
  factory: ((...values: unknown[]) => Function) | null;
  /** Outside names the block reads that are neither in `uses` nor standard globals. */
  unknown: string[];
}

const IDENT = /^[A-Za-z_$][\w$]*$/;
const RESERVED = new Set(['this', 'arguments', 'eval', 'undefined', 'NaN', 'Infinity', 'globalThis']);

/** Checks `run`/`wrap`'s options object; throws a TypeError naming what is wrong. */
export function checkBlockOptions(o: unknown, where: string): asserts o is BlockOptions {
  if (CHECKED.has(o as object)) return;
  checkOptions(o, where);
  // An options object is usually one constant per block: checked once (changes to it are not seen).
  CHECKED.add(o as object);
}

const CHECKED = new WeakSet<object>();

function checkOptions(o: unknown, where: string): asserts o is BlockOptions {
  if (o === null || typeof o !== 'object') throw new TypeError(`suture ${where}: the first argument must be a block id (string) or an options object { id, description, uses }`);
  const b = o as Record<string, unknown>;
  if (typeof b.id !== 'string' || b.id === '') throw new TypeError(`suture ${where}: options.id must be a non-empty string`);
  if (typeof b.description !== 'string') throw new TypeError(`suture ${where}: options.description must be a string (block '${b.id}')`);
  if (b.uses !== undefined) {
    if (b.uses === null || typeof b.uses !== 'object' || Array.isArray(b.uses)) {
      throw new TypeError(`suture ${where}: options.uses must be an object of the names the block reads, e.g. { RATES, db } (block '${b.id}')`);
    }
    for (const name of Object.keys(b.uses)) {
      if (!IDENT.test(name) || RESERVED.has(name)) throw new TypeError(`suture ${where}: options.uses.${name} is not a name a block can read (block '${b.id}')`);
    }
  }
}

/**
 * The block's outside-name analysis and compiled copy, per function and set of names. An inline
 * arrow passed to `run` is a new function on each call: those share the analysis by source text.
 */
export class WorldCompiler {
  readonly #byFn = new WeakMap<Function, { key: string; names: string[]; shape: Shape }>();
  readonly #bySource = new Map<string, Shape>();

  shape(fn: Function, sourceOf: () => string, names: string[]): Shape {
    const hit = this.#byFn.get(fn);
    if (hit !== undefined && hit.names === names) return hit.shape;
    const key = names.join(',');
    if (hit !== undefined && hit.key === key) {
      hit.names = names;
      return hit.shape;
    }
    const source = sourceOf();
    const skey = `${key}\0${source}`;
    let shape = this.#bySource.get(skey);
    if (shape === undefined) {
      shape = analyse(source, names);
      if (this.#bySource.size >= 1024) this.#bySource.clear();
      this.#bySource.set(skey, shape);
    }
    this.#byFn.set(fn, { key, names, shape });
    return shape;
  }
}

interface Shape {
  factory: ((...values: unknown[]) => Function) | null;
  unknown: string[];
}

function analyse(source: string, names: string[]): Shape {
  let unknown: string[];
  try {
    unknown = unknownFreeNames(source, names);
  } catch {
    return { factory: null, unknown: [] }; // not parseable as a function expression (a method shorthand...)
  }
  // Node's own globals (process, Buffer...) are visible to the copy as to the block.
  if (unknown.some((n) => !(n in globalThis))) return { factory: null, unknown };
  try {
    // Named, so the copy's stack frames read `suture-block.js:line:col` on every machine (bug
    // fingerprints use the top frame) rather than the SDK's install path.
    const make = new Function(...names, `'use strict';\nreturn (\n${source}\n);\n//# sourceURL=suture-block.js`) as (...values: unknown[]) => Function;
    return { factory: make, unknown };
  } catch {
    return { factory: null, unknown };
  }
}

/** The names of a `uses` object, per object (the same constant on every call of a block). */
const NAMES = new WeakMap<object, string[]>();

export function blockWorld(compiler: WorldCompiler, fn: Function, source: () => string, uses: Record<string, unknown>): BlockWorld {
  let names = NAMES.get(uses);
  if (names === undefined || names.length !== Object.keys(uses).length) NAMES.set(uses, (names = Object.keys(uses)));
  const values = new Array<unknown>(names.length);
  for (let i = 0; i < names.length; i++) values[i] = uses[names[i]];
  const { factory, unknown } = compiler.shape(fn, source, names);
  return { names, values, factory, unknown };
}

// ---- tracers ----

/** Prototypes whose methods are the language's, not dependencies: called on the real object, not logged. */
const STANDARD_PROTOS = new Set<unknown>([
  Object.prototype, Array.prototype, Function.prototype, Map.prototype, Set.prototype, WeakMap.prototype, WeakSet.prototype,
  Date.prototype, RegExp.prototype, String.prototype, Number.prototype, Boolean.prototype, Promise.prototype, Error.prototype,
  ArrayBuffer.prototype, Object.getPrototypeOf(Uint8Array.prototype), DataView.prototype, Symbol.prototype, BigInt.prototype,
]);
/** Objects whose methods need the real object (internal slots): their standard methods are bound to it. */
function slotted(v: object): boolean {
  return v instanceof Map || v instanceof Set || v instanceof WeakMap || v instanceof WeakSet || v instanceof Date || v instanceof RegExp || v instanceof Promise || ArrayBuffer.isView(v) || v instanceof ArrayBuffer;
}

const holdsFunctions = new WeakMap<object, boolean>();
/** Entries looked at to tell data from an object with methods. */
const SCAN = 64;

/** Whether a value read through `uses` gets a tracer: functions, class instances, objects holding functions. */
function traced(v: unknown, depth = 0): boolean {
  if (typeof v === 'function') return true;
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return !slotted(v) && !STANDARD_PROTOS.has(proto);
  let known = holdsFunctions.get(v);
  if (known !== undefined) return known;
  known = false;
  try {
    let n = 0;
    for (const k in v) {
      if (++n > SCAN) break;
      const d = Object.getOwnPropertyDescriptor(v, k);
      if (d === undefined || !('value' in d)) continue;
      if (typeof d.value === 'function' || (depth === 0 && d.value !== null && typeof d.value === 'object' && traced(d.value, 1))) {
        known = true;
        break;
      }
    }
  } catch {
    known = false;
  }
  holdsFunctions.set(v, known);
  return known;
}

/** Finds where a function a tracer saw is defined: not one of the language's own methods. */
function isDependency(holder: object, key: PropertyKey): boolean {
  if (Object.prototype.hasOwnProperty.call(holder, key)) return true;
  let p = Object.getPrototypeOf(holder) as object | null;
  while (p !== null && !STANDARD_PROTOS.has(p)) {
    if (Object.prototype.hasOwnProperty.call(p, key)) return true;
    p = Object.getPrototypeOf(p) as object | null;
  }
  return false;
}

/**
 * One call's tracers. Calls through them go to the real functions with the real receivers (proxies
 * unwrapped), and are logged in order. With a replay cursor, calls are first answered from it.
 */
export class Tracer {
  readonly log: CallLog;
  /** This call's proxies: target, path, proxy, in threes (a call makes a few; a scan beats a map). */
  #made: unknown[] | null = null;
  readonly #replay: ReplayCursor | null;

  constructor(log: CallLog, replay: ReplayCursor | null = null) {
    this.log = log;
    this.#replay = replay;
  }

  /** The value a `uses` root (or the receiver, path `this`) is bound to in the copy. */
  root(value: unknown, path: string): unknown {
    return traced(value) ? this.proxy(value as object, path) : value;
  }

  /** A proxy handed out by this tracer → the real object; anything else as it is. */
  unwrap<T>(v: T): T {
    const made = this.#made;
    if (made === null || v === null || (typeof v !== 'object' && typeof v !== 'function')) return v;
    for (let i = 2; i < made.length; i += 3) if (made[i] === v) return made[i - 2] as T;
    return v;
  }

  /** The tracer proxy of `target` reached at `path` (one per target and path in a call). */
  proxy(target: object, path: string): object {
    const made = (this.#made ??= []);
    for (let i = 0; i < made.length; i += 3) if (made[i] === target && made[i + 1] === path) return made[i + 2] as object;
    const handler = new TraceHandler(this, path);
    const p = new Proxy(target, handler as ProxyHandler<object>);
    made.push(target, path, p);
    return p;
  }

  /**
   * A call of `fn` (reached at `path`) with `thisArg`: answered from the replay cursor while it
   * matches, else made and logged. A pure helper (sdk/function-facts.ts: it reads no outside name
   * and no `this`) is no effect: with a cursor its calls are always made, whatever the block's log
   * holds, and the block's own calls of it are skipped over, so a patch may call it on other
   * arguments, more or fewer times, without contradicting the block.
   */
  call(path: string, fn: Function, thisArg: unknown, rawArgs: unknown[]): unknown {
    const args = rawArgs.map((a) => this.unwrap(a));
    const replay = this.#replay;
    if (replay !== null && !isPureHelper(fn)) {
      const calls = replay.calls;
      while (replay.next < calls.length && isPureHelper(calls[replay.next].fn)) replay.next++;
      if (replay.contradicted !== null) throw new Error(`suture: the patch ${replay.contradicted}`);
      if (replay.next < calls.length) {
        const logged = calls[replay.next];
        if (logged.path === path && sameArgs(logged.args, args)) {
          replay.next++;
          this.log.calls.push(logged);
          return answerOf(logged);
        }
        replay.contradicted = `called ${path} where the block had called ${logged.path}${logged.path === path ? ' with other arguments' : ''}`;
        throw new Error(`suture: the patch ${replay.contradicted}; the block's own error stands`);
      }
      if (replay.only === true) {
        replay.contradicted = `called ${path} after the block's last call`;
        throw new Error(`suture: the patch ${replay.contradicted}`);
      }
    }
    const entry: LoggedCall = { path, fn, args, async: false, threw: false, settled: true };
    this.log.calls.push(entry);
    let r: unknown;
    try {
      r = Reflect.apply(fn, this.unwrap(thisArg), args);
    } catch (error) {
      entry.error = error;
      entry.threw = true;
      throw error;
    }
    if (r instanceof Promise) {
      entry.async = true;
      entry.settled = false;
      entry.promise = r;
      r.then(
        (v) => {
          entry.result = v;
          entry.settled = true;
        },
        (e: unknown) => {
          entry.error = e;
          entry.threw = true;
          entry.settled = true;
        },
      );
    } else entry.result = r;
    return r;
  }
}

/** The traps of a tracer proxy: one object per proxy, its traps shared on the prototype. */
class TraceHandler {
  readonly tracer: Tracer;
  readonly path: string;
  constructor(tracer: Tracer, path: string) {
    this.tracer = tracer;
    this.path = path;
  }

  get(t: object, key: PropertyKey): unknown {
    const v = Reflect.get(t, key, t);
    if (typeof key === 'symbol') return v;
    if (typeof v === 'function') {
      if (!isDependency(t, key)) return slotted(t) ? (v as Function).bind(t) : v;
      return this.tracer.proxy(v, `${this.path}.${key}`);
    }
    return traced(v, 1) ? this.tracer.proxy(v as object, `${this.path}.${key}`) : v;
  }

  /** Only ever called for function targets. */
  apply(t: object, thisArg: unknown, args: unknown[]): unknown {
    return this.tracer.call(this.path, t as Function, thisArg, args);
  }
}

/** The logged answer again: the same value, thrown error or promise. */
function answerOf(c: LoggedCall): unknown {
  if (c.async) return c.promise ?? (c.threw ? Promise.reject(c.error) : Promise.resolve(c.result));
  if (c.threw) throw c.error;
  return c.result;
}

/** Arguments equal by value (as the snapshot would show them): a repeated call, not a new one. */
function sameArgs(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i], 0)) return false;
  return true;
}

function sameValue(a: unknown, b: unknown, depth: number): boolean {
  if (Object.is(a, b)) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || depth > 64) return false;
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) {
    // A patch's arguments come back from the isolate as plain data: compare data with data.
    if (!(isPlainish(a) && isPlainish(b))) return false;
  }
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    const va = (a as Record<string, unknown>)[k];
    const vb = (b as Record<string, unknown>)[k];
    if (typeof va === 'function' && typeof vb === 'function') continue;
    if (!sameValue(va, vb, depth + 1)) return false;
  }
  return true;
}

function isPlainish(v: object): boolean {
  return !(v instanceof Map || v instanceof Set || v instanceof Date || ArrayBuffer.isView(v));
}

/**
 * Runs the block's copy with the call's tracers (the block itself when it has no copy). `self` is
 * the receiver; the answer and the receiver are unwrapped before they reach the caller.
 */
export function runTraced(world: BlockWorld, fn: Function, self: unknown, args: unknown[], tracer: Tracer): unknown {
  if (world.factory === null) return fn.apply(self, args);
  const bound = world.values.map((v, i) => tracer.root(v, world.names[i]));
  const copy = world.factory(...bound);
  const r = copy.apply(self === undefined ? undefined : tracer.root(self, 'this'), args);
  return r instanceof Promise ? r.then((v) => tracer.unwrap(v)) : tracer.unwrap(r);
}

// ---- encoding ----

/** What a world is encoded from: the values (live, or copies taken on entry) and the log. */
export interface WorldParts {
  names: string[];
  values: unknown[];
  /** Values after the call (recorded calls only). */
  after?: unknown[];
  calls: LoggedCall[];
  /** Receiver on entry, when the block has one. */
  hasThis: boolean;
  self?: unknown;
  selfAfter?: unknown;
}

/** The source of a function the engine may run as code instead of replaying (not native code). */
function sourceOf(fn: unknown): string | undefined {
  if (typeof fn !== 'function') return undefined;
  try {
    const s = Function.prototype.toString.call(fn);
    return s.endsWith('{ [native code] }') ? undefined : s;
  } catch {
    return undefined;
  }
}

/** Encodes a call's world (core/world.ts) with the encoder arguments use (same limits and redaction). */
export function encodeWorld(encoder: Pick<SnapshotEncoder, 'encode' | 'encodeEach'>, p: WorldParts): CallWorld {
  const uses: Record<string, Encoded> = {};
  const sources: Record<string, string> = {};
  for (let i = 0; i < p.names.length; i++) {
    uses[p.names[i]] = encoder.encode(p.values[i]);
    const s = sourceOf(p.values[i]);
    if (s !== undefined) sources[p.names[i]] = s;
  }
  const calls: DependencyCall[] = p.calls.map((c) => {
    const out: DependencyCall = { path: c.path, args: encoder.encodeEach(c.args), async: c.async };
    if (c.threw) out.error = dependencyError(c.error);
    else if (c.settled) out.result = encoder.encode(c.result);
    if (!(c.path in sources)) {
      const s = sourceOf(c.fn);
      if (s !== undefined) sources[c.path] = s;
    }
    return out;
  });
  const world: CallWorld = { uses, calls };
  if (p.after !== undefined) {
    const after: Record<string, Encoded> = {};
    for (let i = 0; i < p.names.length; i++) after[p.names[i]] = encoder.encode(p.after[i]);
    world.usesAfter = after;
  }
  if (p.hasThis) {
    world.this = encoder.encode(p.self);
    if (Object.hasOwn(p, 'selfAfter')) world.thisAfter = encoder.encode(p.selfAfter);
  }
  if (Object.keys(sources).length > 0) world.sources = sources;
  return world;
}

/**
 * Redacts, in place, the values the report redacted elsewhere (see ReportEncoder) in every value of
 * a world its encoder encoded: uses before and after, dependency calls' arguments, answers and
 * errors, the receiver before and after. Paths and function sources are code, not data: left as they are.
 */
export function redactWorld(r: ReportEncoder, world: CallWorld): void {
  for (const values of [world.uses, world.usesAfter]) {
    if (values !== undefined) for (const k of Object.keys(values)) values[k] = r.redact(values[k] as Encoded);
  }
  for (const c of world.calls) {
    c.args = r.redactEach(c.args as Encoded[]);
    if (Object.hasOwn(c, 'result')) c.result = r.redact(c.result as Encoded);
    if (c.error !== undefined) c.error = { name: r.redactText(c.error.name), message: r.redactText(c.error.message) };
  }
  if (Object.hasOwn(world, 'this')) world.this = r.redact(world.this as Encoded);
  if (Object.hasOwn(world, 'thisAfter')) world.thisAfter = r.redact(world.thisAfter as Encoded);
}

/** A logged call copied now (arguments and answer), so later changes to them do not rewrite the log. */
export function frozenCalls(calls: LoggedCall[], copy: (values: unknown[]) => unknown[]): LoggedCall[] {
  return calls.map((c) => {
    const [args, result] = copy([c.args, c.result]) as [unknown[], unknown];
    return { ...c, args, result };
  });
}
