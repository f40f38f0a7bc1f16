import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';

/** Methods that return a new value and leave their receiver alone: calling one as a statement discards the work. */
const PURE_METHODS = new Set(['filter', 'map', 'slice', 'concat', 'trim', 'trimStart', 'trimEnd', 'toUpperCase', 'toLowerCase',
  'replace', 'replaceAll', 'split', 'join', 'flat', 'flatMap', 'reduce', 'reduceRight', 'toSorted', 'toReversed', 'toSpliced', 'with',
  'padStart', 'padEnd', 'substring', 'substr', 'repeat', 'normalize', 'toFixed', 'toString']);

/** An ignored result of a non-mutating method (`values.filter(f);`) assigned back to its receiver, or returned. */
export function assignBack(ctx: MutationContext): void {
  for (const statement of ctx.nodes('ExpressionStatement')) {
    const call = statement.expression;
    if (call.type !== 'CallExpression' || call.callee.type !== 'MemberExpression' || call.callee.computed) continue;
    if (!PURE_METHODS.has(call.callee.property.name)) continue;
    let receiver = call.callee.object;
    // `xs.filter(f).map(g);` assigns to `xs`.
    while (receiver.type === 'CallExpression' && receiver.callee.type === 'MemberExpression') receiver = receiver.callee.object;
    if (receiver.type === 'Identifier') {
      const binding = ctx.scopes.resolve(receiver);
      if (binding && binding.kind !== 'const' && binding.kind !== 'function' && binding.kind !== 'class') {
        ctx.add('assign-back', PRIORS.assignBack, statement, [{ start: call.start, end: call.start, text: `${receiver.name} = ` }],
          `assign the result back to \`${receiver.name}\` at ${ctx.position(call.start)}`);
      }
    } else if (receiver.type === 'MemberExpression') {
      ctx.add('assign-back', PRIORS.assignBack, statement, [{ start: call.start, end: call.start, text: `${ctx.text(receiver)} = ` }],
        `assign the result back to \`${ctx.text(receiver)}\` at ${ctx.position(call.start)}`);
    }
    if (ctx.functionOf(statement)) {
      ctx.add('assign-back', PRIORS.assignBack - 0.02, statement, [{ start: call.start, end: call.start, text: 'return ' }],
        `return the result of \`.${call.callee.property.name}()\` at ${ctx.position(call.start)}`);
    }
  }
}
