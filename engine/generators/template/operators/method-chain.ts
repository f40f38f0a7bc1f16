/**
 * Missing method in a chain: a value of a known kind needs one more normalising call before it is used.
 *
 * Bug class: a result is right in content but not in shape — a list that must be sorted, deduplicated, reversed
 * or has one element too many at the front, a string that must be trimmed or lower-cased before comparison.
 * Example: `return Object.keys(counts)` where callers expect the keys in order → `Object.keys(counts).sort()`;
 * `tags.map(normalise)` compared with a stored list → `[...new Set(tags.map(normalise))]`.
 *
 * The receiver's kind comes from the block (`value-kinds.ts`): array methods are appended only to expressions the
 * block builds as arrays, string methods only to strings. When both sides of a comparison are built the same way
 * (`key(a) === key(b)`), the same call is appended to the matching part of both sides at once, since normalising
 * one side only is rarely meant. Removing a call is `term-deletion`'s `delete-call`.
 */
import { type SyntaxNode, isFunctionNode } from '../../../syntax/index.ts';
import { Precedence } from '../expression-precedence.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';
import { valueKind, type ValueKind } from '../value-kinds.ts';

const MAX_SITES = 16;
const COMPARISONS = new Set(['==', '===', '!=', '!==', '<', '<=', '>', '>=']);

/** Calls appended to a value of each kind, and the text of the whole expression given the receiver's text. */
const APPENDS: Record<ValueKind, ReadonlyArray<{ name: string; make: (receiver: string) => string; precedence: number }>> = {
  array: [
    { name: 'sort', make: (r) => `${r}.sort()`, precedence: Precedence.call },
    { name: 'sort', make: (r) => `${r}.sort((a, b) => a - b)`, precedence: Precedence.call },
    { name: 'slice', make: (r) => `${r}.slice(1)`, precedence: Precedence.call },
    { name: 'reverse', make: (r) => `${r}.reverse()`, precedence: Precedence.call },
    { name: 'Set', make: (r) => `[...new Set(${r})]`, precedence: Precedence.primary },
  ],
  string: [
    { name: 'trim', make: (r) => `${r}.trim()`, precedence: Precedence.call },
    { name: 'toLowerCase', make: (r) => `${r}.toLowerCase()`, precedence: Precedence.call },
  ],
};

export function methodChain(ctx: MutationContext): void {
  const sites = chainSites(ctx);
  for (const { node, kind } of sites) {
    for (const append of APPENDS[kind]) {
      if (alreadyCalled(ctx, node, append.name)) continue;
      ctx.addReplace('chain-append', PRIORS.chainAppend, node, append.make(ctx.operand(node, Precedence.call)), append.precedence);
    }
  }
  bothSides(ctx);
}

/** Read expressions of a known kind inside functions, outermost first, at most `MAX_SITES`. */
function chainSites(ctx: MutationContext): Array<{ node: SyntaxNode; kind: ValueKind }> {
  const sites: Array<{ node: SyntaxNode; kind: ValueKind }> = [];
  for (const node of ctx.tree.nodes) {
    if (sites.length >= MAX_SITES) break;
    if (!['CallExpression', 'Identifier', 'ArrayExpression'].includes(node.type) || !ctx.inFunction(node) || !ctx.isRead(node)) continue;
    const parent = ctx.parent(node);
    if (!parent || (parent.type === 'CallExpression' && ctx.key(node) === 'callee') || isFunctionNode(parent) && ctx.key(node) === 'params') continue;
    const kind = valueKind(ctx, node);
    // Identifiers and members known to be strings already get `.trim()`/`.toLowerCase()` from `wrapping`.
    if (!kind || (kind === 'string' && node.type === 'Identifier')) continue;
    sites.push({ node, kind });
  }
  return sites;
}

/** Whether `node` is already the receiver of `.name(...)` (or, for the Set, already inside `new Set(...)`). */
function alreadyCalled(ctx: MutationContext, node: SyntaxNode, name: string): boolean {
  const parent = ctx.parent(node);
  if (name === 'Set') return parent?.type === 'NewExpression' && ctx.text(parent.callee) === 'Set';
  if (parent?.type === 'MemberExpression' && ctx.key(node) === 'object' && !parent.computed && parent.property.name === name) return true;
  return node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && !node.callee.computed && node.callee.property.name === name;
}

/** The node's subtree in pre-order. */
function subtree(ctx: MutationContext, node: SyntaxNode): SyntaxNode[] {
  const out = [node];
  ctx.contains(node, (n) => {
    out.push(n);
    return false;
  });
  return out;
}

/** Structure of an expression with every identifier's name left out: `f(a).x` and `f(b).x` share a shape. */
function shape(nodes: readonly SyntaxNode[]): string {
  return nodes.map((n) => {
    if (n.type === 'Identifier') return 'I';
    if (n.type === 'Literal') return `L${n.raw}`;
    if (n.type === 'MemberExpression' && !n.computed) return `M.${n.property.name}`;
    return `${n.type}${n.operator ?? ''}`;
  }).join(' ');
}

function bothSides(ctx: MutationContext): void {
  for (const comparison of ctx.nodes('BinaryExpression')) {
    if (!COMPARISONS.has(comparison.operator) || !ctx.inFunction(comparison)) continue;
    const left = subtree(ctx, comparison.left);
    const right = subtree(ctx, comparison.right);
    if (left.length !== right.length || left.length < 2 || shape(left) !== shape(right) || ctx.text(comparison.left) === ctx.text(comparison.right)) continue;
    for (let i = 0; i < left.length; i++) {
      const a = left[i];
      const b = right[i];
      if (!['CallExpression', 'Identifier', 'ArrayExpression'].includes(a.type) || !ctx.isRead(a)) continue;
      if (ctx.parent(a)?.type === 'CallExpression' && ctx.key(a) === 'callee') continue;
      const kind = valueKind(ctx, a) ?? valueKind(ctx, b);
      if (!kind) continue;
      for (const append of APPENDS[kind]) {
        if (alreadyCalled(ctx, a, append.name)) continue;
        const edits = [
          ctx.replaceNode(a, append.make(ctx.operand(a, Precedence.call)), append.precedence),
          ctx.replaceNode(b, append.make(ctx.operand(b, Precedence.call)), append.precedence),
        ];
        ctx.add('chain-append-both', PRIORS.chainAppendBoth, comparison, edits,
          `append \`${append.make('').replace(/^\[\.\.\.new Set\(\)\]$/, 'dedupe')}\` to \`${ctx.text(a)}\` and \`${ctx.text(b)}\` at ${ctx.position(a.start)}`);
      }
    }
  }
}
