import { type SyntaxNode, isFunctionNode } from '../../../syntax/index.ts';
import { Precedence } from '../expression-precedence.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';
import { usableVariables } from './variable-replacement.ts';

/** Methods that change their receiver: an expression calling one is not safe to copy elsewhere. */
export const MUTATING_METHODS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin',
  'set', 'add', 'delete', 'clear', 'next', 'send', 'write', 'emit']);

const MAX_POOL = 30;
const MAX_TEXT = 48;

interface PoolEntry {
  text: string;
  /** `text` without whitespace, for telling it from the target's. */
  flat: string;
  node: SyntaxNode;
  /** Names the expression reads that the block declares; each must be visible where it is copied to. */
  names: string[];
}

/**
 * Code reuse ("plastic surgery"): an expression replaced by another member access or call that the block
 * already computes elsewhere (`/ mean` → `/ numbers.length`, `ch.charCodeAt(0)` → `'a'.charCodeAt(0)`).
 */
export function expressionReuse(ctx: MutationContext): void {
  const pool = buildPool(ctx);
  if (pool.length === 0) return;
  for (const target of ctx.nodes('Identifier', 'MemberExpression', 'CallExpression')) {
    if (!ctx.isRead(target) || !ctx.inFunction(target)) continue;
    const parent = ctx.parent(target);
    const key = ctx.key(target);
    // A chain's inner links are reached by variable and method replacement; copy whole expressions only.
    if (parent && ((parent.type === 'MemberExpression' && key === 'object') || (parent.type === 'CallExpression' && key === 'callee'))) continue;
    if (target.type === 'Identifier' && !ctx.scopes.resolve(target)) continue;
    const targetText = ctx.flatText(target);
    const prior = target.type === 'CallExpression' ? PRIORS.expressionReuse - 0.06 : PRIORS.expressionReuse;
    const visible = ctx.scopes.visibleAt(target);
    for (const entry of pool) {
      if (entry.flat === targetText) continue;
      if (entry.node.start < target.end && target.start < entry.node.end) continue;
      if (!entry.names.every((name) => visible.has(name))) continue;
      const entryPrior = entry.node.type === 'CallExpression' || target.type === 'Identifier' ? prior - 0.04 : prior;
      ctx.addReplace('reuse', entryPrior, target, entry.text, Precedence.call);
    }
    if (target.type === 'MemberExpression' || target.type === 'CallExpression') {
      for (const binding of usableVariables(ctx, target, false)) {
        ctx.addReplace('reuse', prior - 0.02, target, binding.name, Precedence.primary);
      }
    }
  }
}

function buildPool(ctx: MutationContext): PoolEntry[] {
  const seen = new Set<string>();
  const pool: PoolEntry[] = [];
  for (const node of ctx.nodes('MemberExpression', 'CallExpression')) {
    if (pool.length >= MAX_POOL) break;
    if (!ctx.isRead(node)) continue;
    const parent = ctx.parent(node);
    if (parent?.type === 'CallExpression' && ctx.key(node) === 'callee') continue;
    const text = ctx.text(node);
    if (text.length > MAX_TEXT || text.includes('\n')) continue;
    const flat = text.replace(/\s+/g, '');
    if (seen.has(flat)) continue;
    if (!copyable(ctx, node)) continue;
    seen.add(flat);
    const names = new Set<string>();
    ctx.contains(node, (inner) => {
      if (inner.type === 'Identifier' && ctx.scopes.role(inner) !== 'property' && ctx.scopes.declaredNames.has(inner.name)) names.add(inner.name);
      return false;
    });
    if (node.type === 'Identifier') names.add(node.name);
    pool.push({ text, flat, node, names: [...names] });
  }
  return pool;
}

function copyable(ctx: MutationContext, node: SyntaxNode): boolean {
  const unsafe = ctx.contains(node, (inner) =>
    isFunctionNode(inner) || inner.type === 'AssignmentExpression' || inner.type === 'UpdateExpression' ||
    inner.type === 'AwaitExpression' || inner.type === 'YieldExpression' || inner.type === 'NewExpression' ||
    (inner.type === 'CallExpression' && inner.callee.type === 'MemberExpression' && !inner.callee.computed && MUTATING_METHODS.has(inner.callee.property.name)));
  if (unsafe) return false;
  if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && !node.callee.computed && MUTATING_METHODS.has(node.callee.property.name)) return false;
  // Copying `x` from `x.y` adds nothing variable replacement does not; a bare call of a user function may have effects.
  return !(node.type === 'CallExpression' && node.callee.type === 'Identifier' && !ctx.scopes.declaredNames.has(node.callee.name) && node.arguments.length === 0);
}

