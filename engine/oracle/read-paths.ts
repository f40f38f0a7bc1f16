/**
 * The property paths a block reads from its parameters (`user.address.city`, `order.items[].sku`), found
 * with acorn. The input generator fills the paths a failing input lacks, so that the original runs its
 * other paths on an input it does not throw on and its answer there becomes a case.
 */
import type { Block } from '../../core/types.ts';
import { parseBlock, SyntaxTree, isFunctionNode, type SyntaxNode } from '../syntax/index.ts';
import { ARRAY_MEMBERS, STRING_MEMBERS } from '../generators/template/index.ts';

/** A path key standing for every element of an array (`items[]` in `order.items.map((item) => item.sku)`). */
export const EACH: unique symbol = Symbol('each');
export type PathKey = string | typeof EACH;

/** What the block does with the value at a path, when its use says so. */
export type ValueHint = 'string' | 'number' | 'array';

export interface ReadPath {
  /** Index of the parameter the path starts at. */
  arg: number;
  keys: PathKey[];
  hint?: ValueHint;
}

/** Array methods whose callback's first parameter (second for reduce) is an element. */
const ITERATION = new Map<string, number[]>([
  ['map', [0]], ['filter', [0]], ['forEach', [0]], ['find', [0]], ['findIndex', [0]], ['findLast', [0]], ['some', [0]],
  ['every', [0]], ['flatMap', [0]], ['reduce', [1]], ['reduceRight', [1]], ['sort', [0, 1]], ['toSorted', [0, 1]],
]);
const NUMBER_OPERATORS = new Set(['-', '*', '/', '%', '**', '<', '<=', '>', '>=']);
const NUMBER_MEMBERS = new Set(['toFixed', 'toPrecision', 'toExponential']);

interface Prefix {
  arg: number;
  keys: PathKey[];
}

/** Renders a path as the block would read it: `user.address.city`, `order.items[].sku`. */
export function formatPath(params: readonly string[], path: { arg: number; keys: readonly PathKey[] }): string {
  let out = params[path.arg] ?? `arg${path.arg}`;
  for (const k of path.keys) out += k === EACH ? '[]' : /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : /^\d+$/.test(k) ? `[${k}]` : `[${JSON.stringify(k)}]`;
  return out;
}

/** What the block reads: parameter names, property paths, and the strings it compares with or looks up (`'DE'`, a table's keys). */
export interface BlockReads {
  /** Parameter names (`arg<i>` for a destructured one). */
  params: string[];
  paths: ReadPath[];
  /** String literals and object-literal keys of the whole block, at most MAX_STRINGS. */
  strings: string[];
}

const MAX_STRINGS = 12;

/**
 * What the entry function reads; empty when the block does not parse. With `receiver`, the function's own
 * `this` (in it or in its arrow functions) counts as one more parameter after the declared ones, named `this`:
 * callers that vary a block's receiver pass it as a trailing argument (oracle/confidence.ts).
 */
export function readPaths(block: Block, options: { receiver?: boolean } = {}): BlockReads {
  let tree: SyntaxTree;
  let fn: SyntaxNode | undefined;
  try {
    const parsed = parseBlock(block);
    tree = new SyntaxTree(parsed.root);
    fn = parsed.form === 'expression' ? parsed.root : findEntry(tree, block.entry!);
  } catch {
    return { params: [], paths: [], strings: [] };
  }
  if (!fn || !isFunctionNode(fn)) return { params: [], paths: [], strings: [] };

  const bindings = new Map<string, Prefix>();
  const found = new Map<string, ReadPath>();
  const record = (prefix: Prefix, hint?: ValueHint) => {
    if (prefix.keys.length === 0) return;
    const key = `${prefix.arg}:${prefix.keys.map((k) => (k === EACH ? '\u0000' : k)).join('\u0001')}`;
    const known = found.get(key);
    if (!known) found.set(key, { arg: prefix.arg, keys: prefix.keys, ...(hint ? { hint } : {}) });
    else if (!known.hint && hint) known.hint = hint;
  };
  const bind = (pattern: SyntaxNode | null, prefix: Prefix) => {
    if (!pattern) return;
    if (pattern.type === 'Identifier') bindings.set(pattern.name, prefix);
    else if (pattern.type === 'AssignmentPattern') bind(pattern.left, prefix);
    else if (pattern.type === 'ObjectPattern') {
      for (const p of pattern.properties as SyntaxNode[]) {
        if (p.type !== 'Property' || p.computed) continue;
        const name = p.key.type === 'Identifier' ? p.key.name : p.key.type === 'Literal' ? String(p.key.value) : undefined;
        if (name === undefined) continue;
        const inner = { arg: prefix.arg, keys: [...prefix.keys, name] };
        record(inner);
        bind(p.value, inner);
      }
    }
  };
  const params = (fn.params as SyntaxNode[]).map((p, i) => {
    bind(p, { arg: i, keys: [] });
    const id = p.type === 'AssignmentPattern' ? p.left : p;
    return id.type === 'Identifier' ? (id.name as string) : `arg${i}`;
  });

  const receiverArg = options.receiver ? params.length : -1;
  if (options.receiver) params.push('this');
  const ownThis = (node: SyntaxNode): boolean => {
    let owner = tree.info(node).fn;
    while (owner && owner.type === 'ArrowFunctionExpression') owner = tree.info(owner).fn;
    return owner === fn;
  };
  const pathOf = (node: SyntaxNode): Prefix | undefined => {
    if (node.type === 'Identifier') return bindings.get(node.name);
    if (node.type === 'ThisExpression') return receiverArg >= 0 && ownThis(node) ? { arg: receiverArg, keys: [] } : undefined;
    if (node.type === 'ChainExpression') return pathOf(node.expression);
    if (node.type !== 'MemberExpression') return undefined;
    const key = memberKey(node);
    if (key === undefined) return undefined;
    const base = pathOf(node.object);
    return base ? { arg: base.arg, keys: [...base.keys, key] } : undefined;
  };

  for (const node of tree.nodes) {
    if (node.start < fn.start || node.end > fn.end) continue;
    if (node.type === 'VariableDeclarator' && node.init) {
      // `const a = user.address` and `const o = account.overrides || {}` alias a path.
      const init = node.init.type === 'LogicalExpression' && node.init.operator !== '&&' ? node.init.left : node.init;
      const prefix = pathOf(init);
      if (prefix) bind(node.id, prefix);
      continue;
    }
    if (node.type === 'CallExpression') {
      const callee = unwrap(node.callee);
      const method = callee.type === 'MemberExpression' ? memberKey(callee) : undefined;
      const base = callee.type === 'MemberExpression' ? pathOf(callee.object) : undefined;
      const positions = typeof method === 'string' ? ITERATION.get(method) : undefined;
      if (base && positions) {
        for (const arg of node.arguments as SyntaxNode[]) {
          if (!isFunctionNode(arg)) continue;
          for (const at of positions) bind(arg.params[at] ?? null, { arg: base.arg, keys: [...base.keys, EACH] });
        }
      }
      continue;
    }
    if (node.type !== 'MemberExpression') continue;
    const key = memberKey(node);
    const base = pathOf(node.object);
    if (!base) continue;
    const parent = tree.parent(node);
    const called = parent?.type === 'CallExpression' && unwrap(parent.callee) === node;
    if (typeof key === 'string' && (called || key === 'length') && (STRING_MEMBERS.has(key) || ARRAY_MEMBERS.has(key) || NUMBER_MEMBERS.has(key))) {
      // A method or `.length`: says what the base is, is not a property of the input.
      record(base, STRING_MEMBERS.has(key) ? 'string' : NUMBER_MEMBERS.has(key) ? 'number' : key === 'length' ? undefined : 'array');
      continue;
    }
    if (key === undefined || called) {
      record(base);
      continue;
    }
    record({ arg: base.arg, keys: [...base.keys, key] }, hintFromUse(tree, node));
  }
  return { params, paths: [...found.values()], strings: blockStrings(tree) };
}

/** Short strings the block names: literals (`'admin'`) and keys of object literals (a lookup table's `DE`, `GB`). */
function blockStrings(tree: SyntaxTree): string[] {
  const out = new Set<string>();
  for (const node of tree.nodes) {
    if (out.size >= MAX_STRINGS) break;
    let text: unknown;
    if (node.type === 'Literal') text = node.value;
    else if (node.type === 'Property' && !node.computed && node.key.type === 'Identifier' && tree.parent(node)?.type === 'ObjectExpression') text = node.key.name;
    if (typeof text === 'string' && text.length > 0 && text.length <= 40) out.add(text);
  }
  return [...out];
}

function findEntry(tree: SyntaxTree, entry: string): SyntaxNode | undefined {
  for (const node of tree.nodes) {
    if (node.type === 'FunctionDeclaration' && node.id?.name === entry) return node;
    if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier' && node.id.name === entry && node.init && isFunctionNode(node.init)) return node.init;
  }
  return undefined;
}

/** `a.b` → 'b', `a['b']` / `a[0]` → the literal; other computed keys → undefined. */
function memberKey(node: SyntaxNode): string | undefined {
  if (!node.computed) return node.property.type === 'Identifier' ? node.property.name : undefined;
  const p = node.property;
  return p.type === 'Literal' && (typeof p.value === 'string' || typeof p.value === 'number') ? String(p.value) : undefined;
}

function unwrap(node: SyntaxNode): SyntaxNode {
  return node.type === 'ChainExpression' ? node.expression : node;
}

/** `x.price * 2`, `-x.price`, `x.count += 1` read a number. */
function hintFromUse(tree: SyntaxTree, node: SyntaxNode): ValueHint | undefined {
  let current = node;
  let parent = tree.parent(current);
  while (parent?.type === 'ChainExpression') {
    current = parent;
    parent = tree.parent(current);
  }
  if (!parent) return undefined;
  if (parent.type === 'BinaryExpression' && NUMBER_OPERATORS.has(parent.operator)) return 'number';
  if (parent.type === 'UnaryExpression' && (parent.operator === '-' || parent.operator === '+')) return 'number';
  if (parent.type === 'UpdateExpression') return 'number';
  if (parent.type === 'AssignmentExpression' && parent.left === current && ['-=', '*=', '/=', '%=', '**='].includes(parent.operator)) return 'number';
  if (parent.type === 'ForOfStatement' && parent.right === current) return 'array';
  return undefined;
}
