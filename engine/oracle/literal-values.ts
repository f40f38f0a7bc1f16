/**
 * Values written as literals in text the engine did not write (test scripts, description examples), read
 * with acorn and never evaluated: only literal expressions are accepted — numbers, strings, booleans, null,
 * `undefined`, arrays and plain objects of those (keys plain names or strings), template strings without
 * substitutions, and a unary minus or plus on a number. Anything else (a call, a name, a spread, a getter,
 * `NaN`, a sequence, parentheses: `("a")` may be a tuple in the text's own language) makes the whole
 * expression unreadable.
 *
 * Values come back in the snapshot encoding cases use: plain JSON values are themselves, `undefined` is
 * `{ $t: 'undefined' }` (as an argument or a field), and non-finite numbers are not accepted.
 */
import { parse, parseExpressionAt, type Node } from 'acorn';
import { simple as walkSimple } from 'acorn-walk';
import type { Encoded } from '../../core/types.ts';

interface LiteralNode extends Node {
  value?: unknown;
  raw?: string;
  name?: string;
  operator?: string;
  prefix?: boolean;
  argument?: LiteralNode;
  elements?: (LiteralNode | null)[];
  properties?: LiteralNode[];
  key?: LiteralNode;
  computed?: boolean;
  method?: boolean;
  shorthand?: boolean;
  kind?: string;
  expressions?: LiteralNode[];
  quasis?: { value: { cooked: string | null } }[];
  regex?: unknown;
  bigint?: string;
}

export const UNDEFINED_VALUE: Encoded = Object.freeze({ $t: 'undefined' });
const MAX_DEPTH = 32;

/** The value of a literal expression node, or `undefined` when it is not one (see the module comment). */
export function literalValue(node: Node, depth = 0): { value: Encoded } | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const n = node as LiteralNode;
  switch (n.type) {
    case 'Literal': {
      if (n.regex !== undefined || n.bigint !== undefined) return undefined;
      const v = n.value;
      if (v === null || typeof v === 'string' || typeof v === 'boolean') return { value: v };
      if (typeof v === 'number' && Number.isFinite(v)) return { value: v };
      return undefined;
    }
    case 'Identifier':
      return n.name === 'undefined' ? { value: { ...(UNDEFINED_VALUE as object) } } : undefined;
    case 'UnaryExpression': {
      if ((n.operator !== '-' && n.operator !== '+') || !n.argument || n.argument.type !== 'Literal' || typeof n.argument.value !== 'number') return undefined;
      const v = n.operator === '-' ? -n.argument.value : n.argument.value;
      return Number.isFinite(v) ? { value: Object.is(v, -0) ? 0 : v } : undefined;
    }
    case 'TemplateLiteral':
      if (n.expressions?.length || n.quasis?.length !== 1 || n.quasis[0].value.cooked === null) return undefined;
      return { value: n.quasis[0].value.cooked };
    case 'ArrayExpression': {
      const out: Encoded[] = [];
      for (const element of n.elements ?? []) {
        if (element === null || element.type === 'SpreadElement') return undefined;
        const v = literalValue(element, depth + 1);
        if (!v) return undefined;
        out.push(v.value);
      }
      return { value: out };
    }
    case 'ObjectExpression': {
      const out: Record<string, Encoded> = {};
      for (const property of n.properties ?? []) {
        if (property.type !== 'Property' || property.computed || property.method || property.shorthand || property.kind !== 'init' || !property.key) return undefined;
        const key = property.key.type === 'Identifier' ? property.key.name : property.key.type === 'Literal' && (typeof property.key.value === 'string' || typeof property.key.value === 'number') ? String(property.key.value) : undefined;
        if (key === undefined || key === '__proto__' || key.startsWith('$') || Object.hasOwn(out, key)) return undefined;
        const v = literalValue(property.value as unknown as Node, depth + 1);
        if (!v) return undefined;
        out[key] = v.value;
      }
      return { value: out };
    }
    default:
      return undefined;
  }
}

/** The value of `text` when the whole text is one literal expression, else undefined. */
export function parseLiteral(text: string): { value: Encoded } | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  let node: Node;
  try {
    node = parseExpressionAt(trimmed, 0, { ecmaVersion: 'latest', preserveParens: true });
  } catch {
    return undefined;
  }
  if (trimmed.slice(node.end).trim() !== '') return undefined;
  return literalValue(node);
}

/**
 * The argument lists of every call of `name(...)` in a script whose arguments are all literals (a call
 * with any other argument is skipped). Unparsable scripts give none.
 */
export function literalCallArguments(script: string, name: string): Encoded[][] {
  let program: Node;
  try {
    program = parse(script, { ecmaVersion: 'latest', sourceType: 'script' });
  } catch {
    return [];
  }
  const out: Encoded[][] = [];
  walkSimple(program, {
    CallExpression(node) {
      const call = node as unknown as { callee: LiteralNode; arguments: Node[] };
      if (call.callee.type !== 'Identifier' || call.callee.name !== name) return;
      const args: Encoded[] = [];
      for (const arg of call.arguments) {
        const v = literalValue(arg);
        if (!v) return;
        args.push(v.value);
      }
      out.push(args);
    },
  });
  return out;
}

/**
 * The expectations a test script states in the plainest assertion form, `console.assert(A === B)`
 * (or `==`), where one side is a call of `name` with literal arguments, possibly inside
 * `JSON.stringify(...)`, and the other a literal, possibly inside `JSON.stringify(...)` too. Any
 * other assertion is skipped: what it expects is not read.
 */
export function scriptExpectations(script: string, name: string): { args: Encoded[]; expect: Encoded }[] {
  let program: Node;
  try {
    program = parse(script, { ecmaVersion: 'latest', sourceType: 'script' });
  } catch {
    return [];
  }
  type Call = { type: string; callee: LiteralNode & { object?: LiteralNode; property?: LiteralNode }; arguments: Node[] };
  const unwrapJson = (node: Node): Node => {
    const call = node as unknown as Call;
    const callee = call.callee;
    const isStringify = node.type === 'CallExpression' && callee.type === 'MemberExpression' &&
      callee.object?.name === 'JSON' && callee.property?.name === 'stringify' && call.arguments.length === 1;
    return isStringify ? call.arguments[0] : node;
  };
  const callOf = (node: Node): Encoded[] | undefined => {
    const call = node as unknown as Call;
    if (node.type !== 'CallExpression' || call.callee.type !== 'Identifier' || call.callee.name !== name) return undefined;
    const args: Encoded[] = [];
    for (const arg of call.arguments) {
      const v = literalValue(arg);
      if (!v) return undefined;
      args.push(v.value);
    }
    return args;
  };
  const out: { args: Encoded[]; expect: Encoded }[] = [];
  walkSimple(program, {
    CallExpression(node) {
      const call = node as unknown as Call;
      const callee = call.callee;
      if (callee.type !== 'MemberExpression' || callee.object?.name !== 'console' || callee.property?.name !== 'assert') return;
      const test = call.arguments[0] as unknown as { type: string; operator?: string; left: Node; right: Node } | undefined;
      if (!test || test.type !== 'BinaryExpression' || (test.operator !== '===' && test.operator !== '==')) return;
      for (const [a, b] of [[test.left, test.right], [test.right, test.left]]) {
        const args = callOf(unwrapJson(a));
        const expect = args ? literalValue(unwrapJson(b)) : undefined;
        if (args && expect) {
          out.push({ args, expect: expect.value });
          return;
        }
      }
    },
  });
  return out;
}

/** The kind of an encoded value: number, string, boolean, null, undefined, array or object (class name for instances). */
export function encodedKind(value: Encoded): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value !== 'object') return typeof value;
  const t = (value as { $t?: unknown }).$t;
  if (t === undefined) return 'object';
  if (t === 'object') return `object ${String((value as { class?: unknown }).class ?? '')}`;
  return String(t);
}
