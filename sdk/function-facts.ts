/**
 * What the SDK needs to know of a function from its source (core/function-shape.ts), parsed once
 * per function and, for the inline arrows apps pass to `run` (a new function on each call), once
 * per source text.
 */
import { hasOwnThis, isPureHelperSource } from '../core/function-shape.ts';

const SOURCE_CACHE_MAX = 1024;

function sourceOf(fn: Function): string | undefined {
  try {
    return Function.prototype.toString.call(fn);
  } catch {
    return undefined;
  }
}

/** A yes/no fact about functions, cached per function and per source text. */
function cachedFact(judge: (source: string) => boolean, unknown: boolean): (fn: Function) => boolean {
  const byFn = new WeakMap<Function, boolean>();
  const bySource = new Map<string, boolean>();
  return (fn) => {
    let v = byFn.get(fn);
    if (v !== undefined) return v;
    const source = sourceOf(fn);
    if (source === undefined) v = unknown;
    else {
      v = bySource.get(source);
      if (v === undefined) {
        v = judge(source);
        if (bySource.size >= SOURCE_CACHE_MAX) bySource.clear();
        bySource.set(source, v);
      }
    }
    byFn.set(fn, v);
    return v;
  };
}

/**
 * Whether a block has its own `this`. Functions made by `function` or `class` (they have an own
 * `prototype`) are known without parsing; arrows, methods and async functions are parsed.
 */
const ownThis = cachedFact(hasOwnThis, true);

/**
 * The receiver to record (and to hand a patch) for a call of `fn` made with `self`: `self` only
 * when `fn` has its own `this`. An arrow block ignores the object it is called on (`app.handler()`
 * calls it with `app`), so that object is no part of the call and must not be snapshot.
 */
export function receiverOf(fn: Function, self: unknown): unknown {
  if (self === undefined) return undefined;
  if (Object.hasOwn(fn, 'prototype')) return self;
  return ownThis(fn) ? self : undefined;
}

/**
 * Whether `fn` is a pure helper (core/function-shape.ts): it reads no outside name and no `this`,
 * so calling it has no effect and the same arguments give the same answer. Native functions are not.
 */
export const isPureHelper: (fn: Function) => boolean = cachedFact(isPureHelperSource, false);
