/**
 * A fast deep copy of a call's arguments, taken on entry in `snapshot: 'entry'` mode.
 *
 * Encoding a snapshot on every call would cost far more than the blocks we wrap, so the hot
 * path only copies (own enumerable properties, prototypes kept so class names survive, cycles
 * and shared references kept); the copy is encoded later, off the call, only when a failure or a
 * sampled recording needs it. The copy is never handed to application code.
 */

/** Copies beyond this many objects keep live references (the snapshot caps sizes later anyway). */
const MAX_OBJECTS = 10_000;
const MAX_DEPTH = 64;

const getProto = Object.getPrototypeOf;
const objectCreate = Object.create;
const objectKeys = Object.keys;
const isArray = Array.isArray;
const isView = ArrayBuffer.isView;
const ObjectProto = Object.prototype;

/**
 * Objects already copied. Arguments are usually a handful of objects, where a linear scan of two
 * arrays beats allocating and hashing into a Map; past SMALL it switches to a Map.
 */
const SMALL = 24;
class Seen {
  keys: object[] = [];
  vals: unknown[] = [];
  map: Map<object, unknown> | null = null;
  get(k: object): unknown {
    if (this.map !== null) return this.map.get(k);
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) if (keys[i] === k) return this.vals[i];
    return undefined;
  }
  set(k: object, v: unknown): void {
    if (this.map !== null) {
      this.map.set(k, v);
      return;
    }
    this.keys.push(k);
    this.vals.push(v);
    if (this.keys.length > SMALL) {
      this.map = new Map();
      for (let i = 0; i < this.keys.length; i++) this.map.set(this.keys[i], this.vals[i]);
    }
  }
}

interface CopyState {
  seen: Seen;
  count: number;
}

function copyValue(v: unknown, depth: number, st: CopyState): unknown {
  if (v === null || typeof v !== 'object') return v; // primitives; functions stay by reference
  const prior = st.seen.get(v);
  if (prior !== undefined) return prior;
  if (depth > MAX_DEPTH || ++st.count > MAX_OBJECTS) return v;
  const proto = getProto(v);
  if (proto === ObjectProto) {
    // The common case first: a plain object, copied without the brand checks below.
    const out: Record<string, unknown> = {};
    st.seen.set(v, out);
    const keys = objectKeys(v);
    // Reached only when the fast path gave up (e.g. a getter threw), so read each key guardedly.
    for (let i = 0; i < keys.length; i++) out[keys[i]] = readCopy(v as Record<string, unknown>, keys[i], depth, st);
    return out;
  }
  if (isArray(v)) {
    const out: unknown[] = getProto(v) === Array.prototype ? new Array(v.length) : Object.setPrototypeOf(new Array(v.length), getProto(v));
    st.seen.set(v, out);
    for (let i = 0; i < v.length; i++) if (i in v) out[i] = readCopy(v as unknown as Record<PropertyKey, unknown>, i, depth, st);
    return out;
  }
  if (v instanceof Date) return remember(st, v, new Date(v.getTime()));
  if (v instanceof RegExp) return remember(st, v, new RegExp(v.source, v.flags));
  if (v instanceof Map) {
    const out = new Map();
    if (getProto(v) !== Map.prototype) Object.setPrototypeOf(out, getProto(v));
    st.seen.set(v, out);
    for (const [k, val] of Map.prototype.entries.call(v)) out.set(copyValue(k, depth + 1, st), copyValue(val, depth + 1, st));
    return out;
  }
  if (v instanceof Set) {
    const out = new Set();
    if (getProto(v) !== Set.prototype) Object.setPrototypeOf(out, getProto(v));
    st.seen.set(v, out);
    for (const val of Set.prototype.values.call(v)) out.add(copyValue(val, depth + 1, st));
    return out;
  }
  if (isView(v)) {
    if (v instanceof DataView) return remember(st, v, new DataView(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength)));
    const Ctor = (v as unknown as { constructor: new (src: ArrayBufferView) => ArrayBufferView }).constructor;
    return remember(st, v, new Ctor(v));
  }
  if (v instanceof ArrayBuffer) return remember(st, v, v.slice(0));
  if (v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet) return v;
  const out = objectCreate(getProto(v)) as Record<string, unknown>;
  st.seen.set(v, out);
  if (v instanceof Error) {
    // name/message/stack are usually own but not enumerable; the snapshot reads them.
    Object.defineProperty(out, 'message', { value: v.message, writable: true, configurable: true });
    if (typeof v.stack === 'string') Object.defineProperty(out, 'stack', { value: v.stack, writable: true, configurable: true });
  }
  const keys = objectKeys(v);
  for (let i = 0; i < keys.length; i++) out[keys[i]] = readCopy(v as Record<string, unknown>, keys[i], depth, st);
  return out;
}

function readCopy(holder: Record<PropertyKey, unknown>, key: PropertyKey, depth: number, st: CopyState): unknown {
  let child: unknown;
  try {
    child = holder[key];
  } catch (err) {
    return err instanceof Error ? err : undefined; // a throwing getter: keep what it threw
  }
  return child === null || typeof child !== 'object' ? child : copyValue(child, depth + 1, st);
}

function remember<T>(st: CopyState, from: object, to: T): T {
  st.seen.set(from, to);
  return to;
}

// ---- the fast path ----
//
// Most arguments are plain objects, arrays and primitives. For those, an object spread (V8 clones
// the object's shape in one step) plus a for-in over the source (served from V8's enum cache, no
// key array allocated) is several times cheaper than the general copy above, and the "seen" list
// lives in module-level arrays reused from call to call. Anything else — class instances, Maps,
// Dates, getters that throw, proxies — goes to the general copy.

const seenFrom: object[] = [];
const seenTo: unknown[] = [];
let seenCount = 0;
let fastObjects = 0;
/** Set while a fast copy runs: a getter that re-enters copyArgs (a block run from a getter) takes the general path. */
let busy = false;
const ArrayProto = Array.prototype;
const hasOwn = Object.hasOwn;

/** Thrown to abandon the fast path; the general copy then starts over. */
const GIVE_UP = new Error('entry-copy: general path');

function fastCopy(v: object, depth: number): unknown {
  for (let i = 0; i < seenCount; i++) if (seenFrom[i] === v) return seenTo[i];
  if (depth > MAX_DEPTH || ++fastObjects > MAX_OBJECTS || seenCount >= SMALL) throw GIVE_UP;
  const proto = getProto(v);
  if (proto === ObjectProto) {
    const out: Record<string, unknown> = { ...(v as Record<string, unknown>) };
    seenFrom[seenCount] = v;
    seenTo[seenCount++] = out;
    for (const k in v) {
      const child = out[k];
      if (child !== null && typeof child === 'object' && hasOwn(out, k)) out[k] = fastCopy(child, depth + 1);
    }
    return out;
  }
  if (proto === ArrayProto && isArray(v)) {
    const a = v as unknown[];
    const n = a.length;
    let i = 0;
    for (; i < n; i++) {
      const x = a[i];
      if (x !== null && typeof x === 'object') break;
    }
    const out = a.slice(); // keeps holes
    seenFrom[seenCount] = v;
    seenTo[seenCount++] = out;
    for (; i < n; i++) {
      const x = out[i];
      if (x !== null && typeof x === 'object') out[i] = fastCopy(x, depth + 1);
    }
    return out;
  }
  throw GIVE_UP;
}

function generalCopy(args: readonly unknown[]): unknown[] {
  const out = new Array(args.length);
  let st: CopyState | undefined;
  try {
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === null || typeof a !== 'object') out[i] = a;
      else out[i] = copyValue(a, 0, (st ??= { seen: new Seen(), count: 0 }));
    }
  } catch {
    return args.slice();
  }
  return out;
}

function releaseSeen(): void {
  for (let i = 0; i < seenCount; i++) {
    seenFrom[i] = ObjectProto; // drop the references: the copies must not be kept alive from here
    seenTo[i] = undefined;
  }
  seenCount = 0;
  fastObjects = 0;
  busy = false;
}

/**
 * Deep copy of an argument list (shared references between arguments are kept). Never throws:
 * if anything in the graph refuses to be read (a hostile proxy), the arguments themselves are kept.
 */
export function copyArgs(args: readonly unknown[]): unknown[] {
  if (busy) return generalCopy(args);
  const n = args.length;
  const out = new Array(n);
  busy = true;
  try {
    for (let i = 0; i < n; i++) {
      const a = args[i];
      out[i] = a === null || typeof a !== 'object' ? a : fastCopy(a, 0);
    }
  } catch {
    releaseSeen();
    return generalCopy(args);
  }
  releaseSeen();
  return out;
}

/**
 * A copy of a call's state: `[this, ...args]` when it has a receiver, else `args` (the shape
 * failure reports, recordings and patch runs take).
 */
export function copyState(self: unknown, args: readonly unknown[]): unknown[] {
  return copyArgs(self === undefined ? args : [self, ...args]);
}
