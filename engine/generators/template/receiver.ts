import type { SyntaxNode } from '../../syntax/index.ts';
import type { MutationContext } from './mutation-context.ts';

// Whose `this` a `this` is, and when a callback lost it: shared by null safety (which marks `this?.x` in such a
// callback suspect) and the data-shape operators (which restore the receiver).

/** The function whose `this` a `this` expression is (arrows see through). */
export function thisOwner(ctx: MutationContext, node: SyntaxNode): SyntaxNode | null {
  let owner = ctx.functionOf(node);
  while (owner && owner.type === 'ArrowFunctionExpression') owner = ctx.functionOf(owner);
  return owner;
}

/** Whether a function reads its own `this`. */
export function readsThis(ctx: MutationContext, fn: SyntaxNode): boolean {
  return ctx.contains(fn, (inner) => inner.type === 'ThisExpression' && thisOwner(ctx, inner) === fn);
}

/** A `function` passed as an argument of a call, and the call. */
export function callbackOf(ctx: MutationContext, fn: SyntaxNode): SyntaxNode | undefined {
  if (fn.type !== 'FunctionExpression' || fn.generator) return undefined;
  const call = ctx.parent(fn);
  return call && (call.type === 'CallExpression' || call.type === 'NewExpression') && ctx.key(fn) === 'arguments' ? call : undefined;
}

/**
 * Whether `thisNode` is the `this` of a `function` callback written inside a function that reads its own
 * `this`: the callback lost the receiver (it is `undefined` in strict code), and null safety on it only hides that.
 */
export function lostReceiver(ctx: MutationContext, thisNode: SyntaxNode): boolean {
  if (thisNode.type !== 'ThisExpression') return false;
  const owner = thisOwner(ctx, thisNode);
  if (!owner || !callbackOf(ctx, owner)) return false;
  const outer = thisOwner(ctx, owner);
  return outer !== null && readsThis(ctx, outer);
}
