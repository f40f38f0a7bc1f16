import type { SyntaxNode } from '../../../syntax/index.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';
import { literalPool } from './literal-pools.ts';

const DELETABLE = new Set(['ExpressionStatement', 'IfStatement', 'BreakStatement', 'ContinueStatement', 'ReturnStatement',
  'ForStatement', 'ForOfStatement', 'ForInStatement', 'WhileStatement', 'ThrowStatement']);

/** Statement deletion (suspect) and a `continue` guard on a for-of loop's element (low prior). */
export function statementMutation(ctx: MutationContext): void {
  for (const statement of ctx.tree.nodes) {
    if (!DELETABLE.has(statement.type) || !ctx.functionOf(statement)) continue;
    if (statement.directive !== undefined) continue;
    const key = ctx.key(statement);
    const parent = ctx.parent(statement)!;
    const inList = Array.isArray(parent[key ?? '']);
    // Deleting a function's only statement empties it: the whole-body deletion anti-pattern.
    if (inList && (parent[key!] as SyntaxNode[]).length === 1 && parent.type === 'BlockStatement' && ctx.parent(parent) === ctx.functionOf(statement)) continue;
    ctx.add('delete-statement', PRIORS.statementDeletion, statement, [{ start: statement.start, end: statement.end, text: inList ? '' : ';' }],
      `delete \`${ctx.text(statement).replace(/\s+/g, ' ').slice(0, 40)}\` at ${ctx.position(statement.start)}`, true);
  }
  for (const loop of ctx.nodes('ForOfStatement')) {
    const left = loop.left;
    const id = left.type === 'VariableDeclaration' ? left.declarations[0].id : left;
    if (id.type !== 'Identifier') continue;
    const guard = `if (${id.name} == null) continue;`;
    const body = loop.body;
    const edits = body.type === 'BlockStatement'
      ? [{ start: body.start + 1, end: body.start + 1, text: ` ${guard}` }]
      : [{ start: body.start, end: body.start, text: `{ ${guard} ` }, { start: body.end, end: body.end, text: ' }' }];
    ctx.add('loop-guard', PRIORS.loopGuard, loop, edits, `skip missing elements with \`${guard}\` at ${ctx.position(body.start)}`);
  }
}

/** `return x` → `return <constant of the block>`: a suspect fix (returning a constant), tried last. */
export function returnConstant(ctx: MutationContext): void {
  const constants = literalPool(ctx).filter((l) => l.kind !== 'string' || (l.value as string).length <= 10);
  const hasMinusOne = constants.some((c) => c.value === -1);
  for (const ret of ctx.nodes('ReturnStatement')) {
    const arg = ret.argument;
    if (!arg || arg.type === 'Literal') continue;
    // A search that returns from inside its loop signals "not found" with `-1` far more often than with a
    // constant the block happens to hold.
    const sentinel = !hasMinusOne && !insideLoop(ctx, ret) && searchesInLoop(ctx, ret)
      ? [{ kind: 'number' as const, value: -1, text: '-1' }] : [];
    for (const constant of [...sentinel, ...constants]) {
      ctx.add('return-constant', PRIORS.returnConstant, ret, [ctx.replaceNode(arg, constant.text, 19)],
        `return \`${constant.text}\` instead of \`${ctx.text(arg).replace(/\s+/g, ' ').slice(0, 30)}\` at ${ctx.position(arg.start)}`, true);
    }
  }
}

const LOOPS = new Set(['ForStatement', 'ForOfStatement', 'ForInStatement', 'WhileStatement', 'DoWhileStatement']);

function insideLoop(ctx: MutationContext, node: SyntaxNode): boolean {
  const fn = ctx.functionOf(node);
  for (let current = ctx.parent(node); current && current !== fn; current = ctx.parent(current)) if (LOOPS.has(current.type)) return true;
  return false;
}

/** Whether another return of the same function sits inside a loop. */
function searchesInLoop(ctx: MutationContext, ret: SyntaxNode): boolean {
  const fn = ctx.functionOf(ret);
  return ctx.nodes('ReturnStatement').some((other) => other !== ret && ctx.functionOf(other) === fn && insideLoop(ctx, other));
}
