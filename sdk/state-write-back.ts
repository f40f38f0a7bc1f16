/**
 * Applies the state of values that came back from the patch isolate onto the caller's own
 * objects, so a patched block's effects on its arguments happen just as the block's own would
 * (`enemy.health -= damage` must still lower the caller's `enemy.health`).
 *
 * Objects and arrays are updated in place, recursively: properties are assigned, removed keys
 * deleted, array lengths set; Maps and Sets are refilled; Dates get their time. Identity is kept:
 * a value that came back for an original object is mapped to that object wherever it appears
 * (shared references, cycles, or a result that returns one of the arguments). Functions,
 * and markers for things the snapshot could not carry (truncated, unreadable), are left alone.
 */

import { isDeepStrictEqual } from 'node:util';

const MARKER = Symbol.for('suture.snapshot.marker');
const TRUNCATED = Symbol.for('suture.snapshot.truncated');

type Obj = Record<PropertyKey, unknown>;

function isObject(v: unknown): v is Obj {
  return v !== null && typeof v === 'object';
}

/**
 * Keys never read from or written to the caller's objects: a value from the isolate may carry an
 * own `__proto__` key (the codec keeps it as data), and reading or assigning it on the caller's
 * object would reach its prototype (Object.prototype itself) instead.
 */
function ownKeys(v: object): string[] {
  return Object.keys(v).filter((k) => k !== '__proto__');
}

function isMarker(v: unknown): boolean {
  return isObject(v) && Object.prototype.hasOwnProperty.call(v, MARKER);
}

function sameKind(a: Obj, b: Obj): boolean {
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (a instanceof Map !== b instanceof Map) return false;
  if (a instanceof Set !== b instanceof Set) return false;
  if (a instanceof Date !== b instanceof Date) return false;
  if (ArrayBuffer.isView(a) !== ArrayBuffer.isView(b)) return false;
  return true;
}

export class StateWriteBack {
  /** came-back object → caller's object */
  readonly #map = new Map<object, object>();
  readonly #done = new Set<object>();

  /** Writes each `after[i]` onto `originals[i]` (arguments that are objects). */
  applyArgs(originals: readonly unknown[], after: readonly unknown[]): void {
    // Pair first, so a reference to a later argument is recognised wherever it is met.
    for (let i = 0; i < originals.length && i < after.length; i++) {
      const o = originals[i];
      const a = after[i];
      if (isObject(o) && isObject(a) && sameKind(o, a)) this.#pair(o, a);
    }
    for (let i = 0; i < originals.length && i < after.length; i++) {
      const o = originals[i];
      const a = after[i];
      if (isObject(o) && isObject(a) && sameKind(o, a)) this.#apply(o, a);
    }
  }

  #pair(o: Obj, a: Obj): void {
    if (this.#map.has(a) || isMarker(a)) return;
    this.#map.set(a, o);
    if (o instanceof Map && a instanceof Map) {
      for (const [k, v] of a) {
        const was = o.get(this.#map.get(k as object) ?? k);
        if (isObject(was) && isObject(v) && sameKind(was, v)) this.#pair(was, v);
      }
      return;
    }
    if (o instanceof Set || o instanceof Date || ArrayBuffer.isView(o)) return;
    for (const k of ownKeys(a)) {
      const av = a[k];
      if (!isObject(av)) continue;
      let ov: unknown;
      try {
        ov = o[k];
      } catch {
        continue;
      }
      if (isObject(ov) && sameKind(ov, av)) this.#pair(ov, av);
    }
  }

  /** The value to hand to the caller: came-back objects replaced by the caller's objects they stand for. */
  resolve(value: unknown): unknown {
    return this.#resolve(value, new Set());
  }

  #resolve(v: unknown, seen: Set<object>): unknown {
    if (!isObject(v)) return v;
    const mapped = this.#map.get(v);
    if (mapped !== undefined) return mapped;
    if (seen.has(v) || isMarker(v)) return v;
    seen.add(v);
    if (v instanceof Map) {
      for (const [k, val] of [...v]) v.set(k, this.#resolve(val, seen));
    } else if (!(v instanceof Set) && !ArrayBuffer.isView(v) && !(v instanceof Date)) {
      for (const k of ownKeys(v)) {
        const child = v[k];
        if (isObject(child)) v[k] = this.#resolve(child, seen);
      }
    }
    return v;
  }

  #value(a: unknown): unknown {
    return isObject(a) ? (this.#map.get(a) ?? this.resolve(a)) : a;
  }

  #apply(o: Obj, a: Obj): void {
    if (this.#done.has(a)) return;
    this.#done.add(a);
    if (isMarker(a) || Object.prototype.hasOwnProperty.call(a, TRUNCATED) || Object.isFrozen(o)) return;
    if (o instanceof Date && a instanceof Date) {
      o.setTime(a.getTime());
      return;
    }
    if (ArrayBuffer.isView(o) && ArrayBuffer.isView(a)) {
      const ov = o as unknown as { length?: number; set?: (src: ArrayLike<unknown>) => void };
      const av = a as unknown as ArrayLike<unknown>;
      if (typeof ov.set === 'function' && ov.length === av.length) ov.set(av);
      return;
    }
    if (o instanceof Map && a instanceof Map) {
      const prior = new Map(o);
      o.clear();
      for (const [k, v] of a) {
        const key = this.#value(k);
        const was = prior.get(key);
        if (isObject(was) && isObject(v) && this.#map.get(v) === was) {
          this.#apply(was, v);
          o.set(key, was);
        } else o.set(key, this.#value(v));
      }
      return;
    }
    if (o instanceof Set && a instanceof Set) {
      o.clear();
      for (const v of a) o.add(this.#value(v));
      return;
    }
    const keys = ownKeys(a);
    const keep = new Set(keys);
    for (const k of ownKeys(o)) {
      if (!keep.has(k) && typeof o[k] !== 'function') {
        try {
          delete o[k];
        } catch {
          /* non-configurable: leave it */
        }
      }
    }
    if (Array.isArray(o) && Array.isArray(a) && o.length !== a.length) o.length = a.length;
    for (const k of keys) {
      const av = a[k];
      if (typeof av === 'function' || isMarker(av)) continue;
      let ov: unknown;
      try {
        ov = o[k];
      } catch {
        continue;
      }
      if (isObject(av) && isObject(ov) && this.#map.get(av) === ov) {
        this.#apply(ov as Obj, av);
      } else {
        const next = this.#value(av);
        if (ov !== next) {
          try {
            o[k] = next;
          } catch {
            /* read-only property: the block could not have changed it either */
          }
        }
      }
    }
  }
}

/**
 * Writes onto `live` only what changed between `before` (the copy a patch was given) and `after`
 * (the copy as the patch left it): the patch's own effects. Used for a block's `uses` values and
 * receiver, which live dependencies the patch called may have changed meanwhile (a `moveRight()`
 * that moves `self`): writing the whole copy back would undo their effects.
 */
export function applyChanged(live: unknown, before: unknown, after: unknown, depth = 0): void {
  if (!isObject(live) || !isObject(after) || !isObject(before) || depth > 200 || isMarker(after)) return;
  const plain = (v: Obj) => !(v instanceof Map || v instanceof Set || v instanceof Date || ArrayBuffer.isView(v));
  if (!plain(live) || !plain(after) || !plain(before)) {
    if (!isDeepStrictEqual(before, after) && sameKind(live, after)) new StateWriteBack().applyArgs([live], [after]);
    return;
  }
  if (Object.isFrozen(live)) return;
  const keys = ownKeys(after);
  for (const k of ownKeys(before)) {
    if (!Object.prototype.hasOwnProperty.call(after, k) && typeof before[k] !== 'function') {
      try {
        delete live[k];
      } catch {
        /* non-configurable: leave it */
      }
    }
  }
  if (Array.isArray(live) && Array.isArray(after) && Array.isArray(before) && before.length !== after.length) live.length = after.length;
  for (const k of keys) {
    const a = after[k];
    if (typeof a === 'function' || isMarker(a)) continue;
    const had = Object.prototype.hasOwnProperty.call(before, k);
    const b = had ? before[k] : undefined;
    let l: unknown;
    try {
      l = live[k];
    } catch {
      continue;
    }
    if (had && isObject(a) && isObject(b) && isObject(l)) {
      applyChanged(l, b, a, depth + 1);
      continue;
    }
    if (had && !isObject(a) && Object.is(a, b)) continue;
    try {
      live[k] = a;
    } catch {
      /* read-only property: the block could not have changed it either */
    }
  }
}
