import { type SyntaxNode, isFunctionNode } from '../../../syntax/index.ts';
import { Precedence } from '../expression-precedence.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';
import { numericValue } from './literal-pools.ts';

const COMPARISONS = new Set(['<', '<=', '>', '>=', '==', '!=', '===', '!==']);

/**
 * Missing or excess `+ 1`: an index, call argument, comparison operand (loop bounds), multiplication operand
 * or returned count `e` becomes `e + 1` or `e - 1`. Literals are left to literal replacement.
 */
export function offByOne(ctx: MutationContext): void {
  for (const node of ctx.tree.nodes) {
    if (!isBoundaryExpression(ctx, node)) continue;
    const base = ctx.operand(node, Precedence.additive);
    ctx.addReplace('off-by-one', PRIORS.offByOneExpression, node, `${base} + 1`, Precedence.additive);
    ctx.addReplace('off-by-one', PRIORS.offByOneExpression, node, `${base} - 1`, Precedence.additive);
  }
}

function isBoundaryExpression(ctx: MutationContext, node: SyntaxNode): boolean {
  if (numericValue(node) !== undefined || node.type === 'Literal' || node.type === 'TemplateLiteral' || isFunctionNode(node)) return false;
  if (node.type === 'SpreadElement' || node.type === 'ObjectExpression' || node.type === 'ArrayExpression' || node.type === 'ClassExpression') return false;
  if (node.type === 'Identifier' && ctx.scopes.role(node) !== 'read') return false;
  if (!node.type.endsWith('Expression') && node.type !== 'Identifier') return false;
  const parent = ctx.parent(node);
  const key = ctx.key(node);
  if (!parent || !ctx.inFunction(node)) return false;
  switch (parent.type) {
    case 'MemberExpression': return key === 'property' && parent.computed;
    case 'CallExpression': return key === 'arguments';
    case 'BinaryExpression': return COMPARISONS.has(parent.operator) || parent.operator === '*';
    case 'ReturnStatement': return node.type === 'MemberExpression' && !node.computed && node.property.name === 'length';
    default: return false;
  }
}
