/**
 * Two facts about a function known from its source text (as `fn.toString()` gives it), shared by
 * the SDK and the engine so both judge a function the same way:
 * - whether it has its own `this` (an arrow has not: the receiver it is called with never reaches
 *   its code, so there is nothing of it to record);
 * - whether it is a pure helper: one function reading no outside name but the realm's standard
 *   globals and no `this`, `super` or `new.target`. It answers the same wherever it runs and has no
 *   effects, so a trial may run it as code and a patch may call it again.
 */
import { parse } from 'acorn';
import type { Node } from 'acorn';
import { REALM_GLOBALS, blockNames } from './block-free-names.ts';

type AnyNode = Node & Record<string, unknown>;

/** Realm globals a pure helper may not read: they reach code or the global object itself. */
const NOT_PURE = new Set(['eval', 'Function', 'globalThis', 'Compartment', 'lockdown']);
const MAX_SOURCE = 100_000;

/** The one function expression `source` is, or null (a method shorthand, a class, several statements, bad syntax). */
function functionExpression(source: string): AnyNode | null {
  if (typeof source !== 'string' || source.length === 0 || source.length > MAX_SOURCE) return null;
  let program: AnyNode;
  try {
    program = parse(`(${source}\n)`, { ecmaVersion: 'latest', sourceType: 'script' }) as unknown as AnyNode;
  } catch {
    return null;
  }
  const body = program.body as AnyNode[];
  if (body.length !== 1 || body[0].type !== 'ExpressionStatement') return null;
  const fn = body[0].expression as AnyNode | undefined;
  return fn && (fn.type === 'FunctionExpression' || fn.type === 'ArrowFunctionExpression') ? fn : null;
}

/** Whether any node under `node` (nested functions included) is `this`, `super` or `new.target`/`import.meta`. */
function readsReceiver(node: AnyNode): boolean {
  const stack: AnyNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop() as AnyNode;
    if (n.type === 'ThisExpression' || n.type === 'Super' || n.type === 'MetaProperty') return true;
    for (const key of Object.keys(n)) {
      if (key === 'type' || key === 'start' || key === 'end') continue;
      const v = n[key];
      if (Array.isArray(v)) {
        for (const c of v) if (c && typeof (c as AnyNode).type === 'string') stack.push(c as AnyNode);
      } else if (v && typeof v === 'object' && typeof (v as AnyNode).type === 'string') stack.push(v as AnyNode);
    }
  }
  return false;
}

/**
 * True when `source` is exactly one function (a function or arrow expression) that reads no name
 * but its own declarations, parameters and the realm's standard globals (`Math`, `JSON`, `Intl`...),
 * and no `this` or `super`.
 */
export function isPureHelperSource(source: string): boolean {
  const fn = functionExpression(source);
  if (fn === null || readsReceiver(fn)) return false;
  return blockNames(source, true).outside.every((n) => REALM_GLOBALS.has(n) && !NOT_PURE.has(n));
}

/**
 * Whether a function with this source has its own `this`: function expressions and declarations,
 * methods, accessors, classes. False only for arrows (async or not), whose `this` is the one of
 * where they were written, and for native code (built-ins and bound functions, whose receiver is
 * not the caller's to give).
 */
export function hasOwnThis(source: string): boolean {
  if (typeof source !== 'string') return true;
  if (source.endsWith('{ [native code] }')) return false;
  if (/^(?:async\s+)?function\b|^class\b/.test(source)) return true;
  const fn = functionExpression(source);
  // Anything else that parses as one function here is an arrow; a method shorthand does not parse.
  return fn === null || fn.type !== 'ArrowFunctionExpression';
}
