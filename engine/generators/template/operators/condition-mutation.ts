import { Precedence, nodePrecedence } from '../expression-precedence.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';

const TESTED = ['IfStatement', 'WhileStatement', 'DoWhileStatement', 'ForStatement', 'ConditionalExpression'];

/** Condition negation (`if (c)` → `if (!(c))`) and, as a suspect last resort, condition removal. */
export function conditionMutation(ctx: MutationContext): void {
  for (const node of ctx.nodes(...TESTED)) {
    const test = node.test;
    if (!test) continue;
    if (test.type === 'UnaryExpression' && test.operator === '!') continue; // dropping the `!` is term deletion
    const inner = nodePrecedence(test) >= Precedence.unary ? ctx.text(test) : `(${ctx.text(test)})`;
    ctx.addReplace('negate-condition', PRIORS.conditionNegation, test, `!${inner}`, Precedence.unary);
  }
  // One operand of a `&&`/`||` condition negated: `(a != x && ...) && b` → `!(a != x && ...) && b`.
  for (const node of ctx.nodes('LogicalExpression')) {
    if (node.operator === '??') continue;
    for (const operand of [node.left, node.right]) {
      if ((operand.type === 'LogicalExpression' && operand.operator === node.operator) || (operand.type === 'UnaryExpression' && operand.operator === '!')) continue;
      const inner = nodePrecedence(operand) >= Precedence.unary ? ctx.text(operand) : `(${ctx.text(operand)})`;
      ctx.addReplace('negate-condition', PRIORS.conditionNegation - 0.02, operand, `!${inner}`, Precedence.unary);
    }
  }
  for (const node of ctx.nodes('IfStatement')) {
    const consequent = ctx.text(node.consequent);
    // `if (c) S` → `S`: passes a failing case by always running S, a classic overfit; ranked last and flagged.
    ctx.add('remove-condition', PRIORS.conditionRemoval, node, [{ start: node.start, end: node.end, text: consequent }],
      `remove the condition \`${ctx.text(node.test).replace(/\s+/g, ' ').slice(0, 30)}\` at ${ctx.position(node.start)}`, true);
    if (node.alternate) {
      ctx.add('remove-condition', PRIORS.conditionRemoval - 0.01, node, [{ start: node.start, end: node.end, text: ctx.text(node.alternate) }],
        `keep only the else branch of the \`if\` at ${ctx.position(node.start)}`, true);
    }
  }
}
