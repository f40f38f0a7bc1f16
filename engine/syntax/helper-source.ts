/**
 * Which helper sources a trial may run as code instead of replaying them from a call log
 * (core/world.ts `sources`): a helper that reads nothing from outside answers the same wherever it
 * runs, so it may answer inputs its log never saw.
 */
import { parse, type Node } from 'acorn';
import { simple } from 'acorn-walk';
import { REALM_GLOBALS, blockNames } from '../../core/block-free-names.ts';

/** Realm globals a pure helper may not read: they reach code or the global object itself. */
const NOT_PURE = new Set(['eval', 'Function', 'globalThis', 'Compartment', 'lockdown']);

/**
 * True when `source` is exactly one function (a function or arrow expression, as `fn.toString()`
 * gives it) that reads no name but its own declarations, parameters and the realm's standard
 * globals (`Math`, `JSON`, `Intl`...), and no `this` or `super`.
 */
export function isPureHelperSource(source: string): boolean {
  if (typeof source !== 'string' || source.length === 0 || source.length > 100_000) return false;
  let program: Node & { body: Array<Node & { expression?: Node }> };
  try {
    program = parse(`(${source}\n)`, { ecmaVersion: 'latest', sourceType: 'script' }) as typeof program;
  } catch {
    return false;
  }
  if (program.body.length !== 1 || program.body[0].type !== 'ExpressionStatement') return false;
  const fn = program.body[0].expression;
  if (!fn || (fn.type !== 'FunctionExpression' && fn.type !== 'ArrowFunctionExpression')) return false;
  let receiver = false;
  const flag = () => (receiver = true);
  simple(program, { ThisExpression: flag, Super: flag, MetaProperty: flag });
  if (receiver) return false;
  return blockNames(source, true).outside.every((n) => REALM_GLOBALS.has(n) && !NOT_PURE.has(n));
}
