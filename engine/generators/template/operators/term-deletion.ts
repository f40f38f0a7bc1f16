import { nodePrecedence } from '../expression-precedence.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';
import { numericValue } from './literal-pools.ts';

const COMPARISONS = new Set(['<', '<=', '>', '>=', '==', '!=', '===', '!==', 'in', 'instanceof']);
/** Methods whose result has the receiver's type, so dropping the call still type-checks. */
const SAME_TYPE_METHODS = new Set(['slice', 'sort', 'reverse', 'toLowerCase', 'toUpperCase', 'trim', 'trimStart', 'trimEnd',
  'filter', 'concat', 'flat', 'toSorted', 'toReversed', 'substring', 'substr', 'padStart', 'padEnd', 'toString', 'valueOf']);
const UNWRAPPABLE_FUNCTIONS = new Set(['Math.floor', 'Math.ceil', 'Math.round', 'Math.trunc', 'Math.abs', 'Number', 'String',
  'parseInt', 'parseFloat', 'Boolean', 'Array.from', 'JSON.parse']);

/**
 * Excess logic: `a OP b` → `a` or `b` (a `+ 1`, a `* -1`, one conjunct of a chain), a unary operator removed,
 * a same-typed method call or a converting wrapper call dropped, a ternary reduced to one side.
 */
export function termDeletion(ctx: MutationContext): void {
  for (const node of ctx.nodes('BinaryExpression', 'LogicalExpression')) {
    if (COMPARISONS.has(node.operator) || node.left.type === 'PrivateIdentifier') continue;
    const prior = node.type === 'LogicalExpression' ? PRIORS.termDeletion + 0.02 : PRIORS.termDeletion;
    ctx.addReplace('delete-term', prior, node, ctx.text(node.left), nodePrecedence(node.left));
    ctx.addReplace('delete-term', prior, node, ctx.text(node.right), nodePrecedence(node.right));
  }
  for (const node of ctx.nodes('UnaryExpression')) {
    if (!['-', '+', '!', '~'].includes(node.operator) || numericValue(node) !== undefined) continue;
    ctx.addReplace('delete-unary', PRIORS.unaryDeletion, node, ctx.text(node.argument), nodePrecedence(node.argument));
  }
  for (const node of ctx.nodes('CallExpression')) {
    const callee = node.callee;
    if (callee.type === 'MemberExpression' && !callee.computed && SAME_TYPE_METHODS.has(callee.property.name)) {
      if (callee.object.type === 'Super') continue;
      ctx.addReplace('delete-call', PRIORS.methodCallDeletion, node, ctx.text(callee.object), nodePrecedence(callee.object));
    } else if (node.arguments.length >= 1 && node.arguments[0].type !== 'SpreadElement' && UNWRAPPABLE_FUNCTIONS.has(ctx.text(callee))) {
      ctx.addReplace('delete-call', PRIORS.methodCallDeletion, node, ctx.text(node.arguments[0]), nodePrecedence(node.arguments[0]));
    }
  }
  for (const node of ctx.nodes('ConditionalExpression')) {
    ctx.addReplace('delete-branch', PRIORS.conditionRemoval + 0.06, node, ctx.text(node.consequent), nodePrecedence(node.consequent));
    ctx.addReplace('delete-branch', PRIORS.conditionRemoval + 0.06, node, ctx.text(node.alternate), nodePrecedence(node.alternate));
  }
}
