import type { Edit } from '../../../../core/types.ts';
import type { SyntaxNode } from '../../../syntax/index.ts';
import type { MutationContext } from '../mutation-context.ts';
import { binaryPrecedence } from '../expression-precedence.ts';
import { numericValue } from './literal-pools.ts';
import { PRIORS } from '../operator-priors.ts';
import { ASSIGNMENT_OPERATOR_TOKENS, ASSIGNMENT_REPLACEMENTS, BINARY_OPERATOR_TOKENS, BINARY_REPLACEMENTS, operatorKind } from './operator-classes.ts';

/** Where a binary, logical or assignment expression's operator token sits in the source. */
export function operatorRange(ctx: MutationContext, node: SyntaxNode): { start: number; end: number; text: string } | undefined {
  const tokens = node.type === 'AssignmentExpression' ? ASSIGNMENT_OPERATOR_TOKENS : BINARY_OPERATOR_TOKENS;
  const found = ctx.source.findOperator(node.left.end, node.right.start, tokens);
  return found && found.text === node.operator ? found : undefined;
}

/** Binary, logical, assignment and update operator replacement within each operator's class. */
export function operatorReplacement(ctx: MutationContext): void {
  for (const node of ctx.nodes('BinaryExpression', 'LogicalExpression')) {
    if (node.left.type === 'PrivateIdentifier') continue;
    const range = operatorRange(ctx, node);
    const replacements = BINARY_REPLACEMENTS[node.operator];
    if (!range || !replacements) continue;
    const mixes = mixesLogicalChain(ctx, node);
    for (const [to, prior] of replacements) {
      let chosen = mixes && (to === '&&' || to === '||') ? Math.min(prior, PRIORS.mixedLogical) : prior;
      // `x + 1.0` → `x * 1.0` is the term deletion written as a no-op: rank it with the disguised deletions.
      if (makesIdentity(node, to)) chosen = Math.min(chosen, PRIORS.identityLiteral);
      const mutation = ctx.add(operatorKind(node.operator), chosen, node, [{ start: range.start, end: range.end, text: to }],
        ctx.describeReplace(range.start, node.operator, to));
      // Same binding strength and no `??`/`**` mixing rules: the tree keeps its shape, so the text still parses.
      if (mutation && binaryPrecedence(to) === binaryPrecedence(node.operator) && !['??', '**'].includes(to) && !['??', '**'].includes(node.operator)) mutation.safe = true;
    }
  }
  for (const node of ctx.nodes('AssignmentExpression')) {
    const range = operatorRange(ctx, node);
    const replacements = ASSIGNMENT_REPLACEMENTS[node.operator];
    if (!range || !replacements) continue;
    // Destructuring targets only take `=`.
    if (node.left.type !== 'Identifier' && node.left.type !== 'MemberExpression') continue;
    for (const [to, prior] of replacements) {
      const mutation = ctx.add('assignment', prior, node, [{ start: range.start, end: range.end, text: to }], ctx.describeReplace(range.start, node.operator, to));
      if (mutation) mutation.safe = true;
    }
  }
  for (const node of ctx.nodes('UpdateExpression')) {
    const start = node.prefix ? node.start : node.end - 2;
    const to = node.operator === '++' ? '--' : '++';
    if (ctx.source.text.slice(start, start + 2) !== node.operator) continue;
    const mutation = ctx.add('update', PRIORS.update, node, [{ start, end: start + 2, text: to }], ctx.describeReplace(start, node.operator, to));
    if (mutation) mutation.safe = true;
  }
}

/**
 * Whether flipping this `&&`/`||` alone would leave `a || b && c` (operators of both kinds, unparenthesised, in one
 * chain): code rarely means that, so the whole chain flipped together is the likelier fix.
 */
function mixesLogicalChain(ctx: MutationContext, node: SyntaxNode): boolean {
  if (node.operator !== '&&' && node.operator !== '||') return false;
  const same = (other: SyntaxNode | null): boolean => !!other && other.type === 'LogicalExpression' && other.operator === node.operator;
  // Parentheses only count inside the outer node: an `if (...)`'s own parentheses do not group anything.
  const bare = (inner: SyntaxNode, outer: SyntaxNode): boolean => !ctx.source.isParenthesised(inner, outer);
  const parent = ctx.parent(node);
  return (same(parent) && bare(node, parent!)) || (same(node.left) && bare(node.left, node)) || (same(node.right) && bare(node.right, node));
}

/** Whether `node` with operator `to` does nothing to its other operand (`x * 1`, `0 + x`, `x - 0`). */
function makesIdentity(node: SyntaxNode, to: string): boolean {
  const right = numericValue(node.right);
  const left = node.left.type === 'PrivateIdentifier' ? undefined : numericValue(node.left);
  if (right === 0 && (to === '+' || to === '-')) return true;
  if (right === 1 && (to === '*' || to === '/' || to === '**')) return true;
  return (left === 0 && to === '+') || (left === 1 && to === '*');
}

const CONDITION_HOLDERS: Record<string, string> = {
  IfStatement: 'test', WhileStatement: 'test', DoWhileStatement: 'test', ForStatement: 'test', ConditionalExpression: 'test',
  ReturnStatement: 'argument', VariableDeclarator: 'init', ExpressionStatement: 'expression', ArrowFunctionExpression: 'body',
  AssignmentExpression: 'right',
};

/**
 * The same operator replaced at every occurrence inside one condition or expression (`a && b && c` →
 * `a || b || c`): bugs that invert a whole condition need all of them changed at once.
 */
export function operatorChainReplacement(ctx: MutationContext): void {
  for (const [type, key] of Object.entries(CONDITION_HOLDERS)) {
    for (const holder of ctx.nodes(type)) {
      const root = holder[key] as SyntaxNode | null;
      if (!root || typeof root.type !== 'string' || root.type === 'BlockStatement') continue;
      const groups = new Map<string, Array<{ start: number; end: number }>>();
      collectOperators(ctx, root, groups);
      for (const [operator, ranges] of groups) {
        if (ranges.length < 2) continue;
        for (const [to, prior] of BINARY_REPLACEMENTS[operator] ?? []) {
          const edits: Edit[] = ranges.map((r) => ({ start: r.start, end: r.end, text: to }));
          const chainPrior = Math.min(prior, operatorKind(operator) === 'logical' ? PRIORS.operatorChain : PRIORS.operatorChainOther);
          ctx.add('operator-chain', chainPrior, root, edits,
            `replace every \`${operator}\` with \`${to}\` in \`${ctx.text(root).replace(/\s+/g, ' ').slice(0, 30)}\` at ${ctx.position(root.start)}`);
        }
      }
    }
  }
}

function collectOperators(ctx: MutationContext, node: SyntaxNode, groups: Map<string, Array<{ start: number; end: number }>>): void {
  const stack = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.type === 'BinaryExpression' || current.type === 'LogicalExpression') {
      const range = operatorRange(ctx, current);
      if (range) {
        const list = groups.get(current.operator) ?? [];
        list.push(range);
        groups.set(current.operator, list);
      }
      stack.push(current.left, current.right);
    } else if (current.type === 'UnaryExpression' || current.type === 'ConditionalExpression' || current.type === 'SequenceExpression') {
      for (const key of ['argument', 'test', 'consequent', 'alternate']) if (current[key]) stack.push(current[key]);
      if (current.expressions) stack.push(...current.expressions);
    }
  }
}
