import type { SyntaxNode } from '../../../syntax/index.ts';
import { binaryPrecedence, fitSlot, nodePrecedence } from '../expression-precedence.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';

const NON_COMMUTATIVE = new Set(['-', '/', '%', '**', '<', '<=', '>', '>=', '<<', '>>', '>>>', '+']);

/**
 * Swaps: operands of non-commutative operators (`j % i` → `i % j`), adjacent call arguments and array elements,
 * if/else branches, the two sides of a ternary, adjacent statements.
 */
export function swaps(ctx: MutationContext): void {
  for (const node of ctx.nodes('BinaryExpression')) {
    if (!NON_COMMUTATIVE.has(node.operator) || node.left.type === 'PrivateIdentifier') continue;
    const left = ctx.outerRange(node.left);
    const right = ctx.outerRange(node.right);
    if (left.start !== node.start || right.end !== node.end) continue;
    const p = binaryPrecedence(node.operator);
    const leftText = ctx.text(left);
    const rightText = ctx.text(right);
    const leftWrapped = left.start !== node.left.start;
    const rightWrapped = right.start !== node.right.start;
    // The right operand moves to the left slot and vice versa; parenthesise where the new slot binds tighter.
    const newLeft = fitSlot(rightText, nodePrecedence(node.right), node.operator === '**' ? 17 : p, rightWrapped);
    const newRight = fitSlot(leftText, nodePrecedence(node.left), node.operator === '**' ? p : p + 1, leftWrapped);
    const middle = ctx.source.text.slice(left.end, right.start);
    // `+` is commutative for numbers; only string concatenation makes its swap meaningful.
    const prior = node.operator === '+' ? PRIORS.swap - 0.08 : PRIORS.swap;
    const text = newLeft + middle + newRight;
    ctx.add('swap-operands', prior, node, [{ start: node.start, end: node.end, text }],
      ctx.describeReplace(node.start, ctx.text(node), text));
  }
  for (const node of ctx.nodes('CallExpression', 'NewExpression')) swapNeighbours(ctx, node, node.arguments as SyntaxNode[], 'swap-arguments');
  for (const node of ctx.nodes('ArrayExpression')) swapNeighbours(ctx, node, node.elements as Array<SyntaxNode | null>, 'swap-elements');
  for (const node of ctx.nodes('IfStatement')) {
    if (!node.alternate || node.alternate.type === 'IfStatement') continue;
    swapTexts(ctx, node, node.consequent, node.alternate, 'swap-branches', PRIORS.swap);
  }
  for (const node of ctx.nodes('ConditionalExpression')) {
    swapTexts(ctx, node, node.consequent, node.alternate, 'swap-branches', PRIORS.swap);
  }
  for (const node of ctx.nodes('BlockStatement', 'SwitchCase', 'StaticBlock')) {
    const list = (node.type === 'SwitchCase' ? node.consequent : node.body) as SyntaxNode[];
    for (let i = 0; i + 1 < list.length; i++) {
      const a = list[i];
      const b = list[i + 1];
      if (a.type === 'FunctionDeclaration' || b.type === 'FunctionDeclaration' || a.directive !== undefined) continue;
      swapTexts(ctx, node, a, b, 'swap-statements', PRIORS.swap - 0.1);
    }
  }
}

function swapNeighbours(ctx: MutationContext, owner: SyntaxNode, items: Array<SyntaxNode | null>, operator: string): void {
  for (let i = 0; i + 1 < items.length; i++) {
    const a = items[i];
    const b = items[i + 1];
    if (!a || !b) continue;
    swapTexts(ctx, owner, a, b, operator, PRIORS.swap);
  }
}

function swapTexts(ctx: MutationContext, owner: SyntaxNode, a: SyntaxNode, b: SyntaxNode, operator: string, prior: number): void {
  const ta = ctx.text(a);
  const tb = ctx.text(b);
  if (ta === tb) return;
  ctx.add(operator, prior, owner, [{ start: a.start, end: a.end, text: tb }, { start: b.start, end: b.end, text: ta }],
    `swap \`${short(ta)}\` and \`${short(tb)}\` at ${ctx.position(a.start)}`);
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 30 ? `${flat.slice(0, 29)}…` : flat;
}
