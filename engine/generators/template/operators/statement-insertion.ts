import type { SyntaxNode } from '../../../syntax/index.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';

const LOOPS = new Set(['ForStatement', 'ForOfStatement', 'ForInStatement', 'WhileStatement', 'DoWhileStatement']);
const UPDATE_OPERATORS = new Set(['+=', '-=', '*=', '/=', '%=', '**=', '<<=', '>>=', '|=', '&=', '^=']);
const MAX_EXPRESSION = 40;
const MAX_CONDITIONS = 6;
const MAX_GUARDED = 12;

/**
 * Missing statements, built only from what the block already holds (the "plastic surgery" hypothesis: the
 * ingredients of a fix usually exist elsewhere in the program):
 *
 * - a counter's reset: `x = <its initial literal>` in the branch of an `if` whose other branch updates `x`;
 * - a missing update: `x = <expression of x>` as a new statement after one the block computes that expression in;
 * - a missing guard: a statement inside a loop wrapped in `if (<condition>)`, the condition an existing one of
 *   the function or an equality of the two innermost loop variables.
 *
 * - a missing count: `p++` at the end of a loop body, for a numeric local that is read but never written after
 *   its declaration; guarded by `if (y == <initial>)` when that block holds a flag `y` written but never read
 *   (two smells, a dead store and a constant accumulator, that the one statement cures together).
 *
 * All are low-prior: an inserted statement can make many wrong programs pass weak tests.
 */
export function statementInsertion(ctx: MutationContext): void {
  missingReset(ctx);
  missingUpdate(ctx);
  missingGuard(ctx);
  missingCount(ctx);
}

function enclosingLoops(ctx: MutationContext, node: SyntaxNode): SyntaxNode[] {
  const fn = ctx.functionOf(node);
  const loops: SyntaxNode[] = [];
  for (let current = ctx.parent(node); current && current !== fn; current = ctx.parent(current)) if (LOOPS.has(current.type)) loops.push(current);
  return loops;
}

/** Whether `node` writes the binding declared at `declaredAt` by an update (`x++`, `x += e`). */
function updates(ctx: MutationContext, node: SyntaxNode, declaredAt: SyntaxNode): boolean {
  return ctx.contains(node, (n) => {
    const target = n.type === 'UpdateExpression' ? n.argument : n.type === 'AssignmentExpression' && UPDATE_OPERATORS.has(n.operator) ? n.left : null;
    return target?.type === 'Identifier' && ctx.scopes.resolve(target)?.id === declaredAt;
  });
}

function mentions(ctx: MutationContext, node: SyntaxNode, declaredAt: SyntaxNode): boolean {
  return ctx.contains(node, (n) => n.type === 'Identifier' && ctx.scopes.resolve(n)?.id === declaredAt);
}

function missingReset(ctx: MutationContext): void {
  for (const declarator of ctx.nodes('VariableDeclarator')) {
    const id = declarator.id;
    const init = declarator.init;
    if (id.type !== 'Identifier' || !init || init.type !== 'Literal' || init.regex !== undefined) continue;
    const binding = ctx.scopes.resolve(id);
    if (!binding || binding.kind === 'const') continue;
    for (const branch of ctx.nodes('IfStatement')) {
      if (branch.start < declarator.end || enclosingLoops(ctx, branch).length === 0) continue;
      if (ctx.functionOf(branch) !== ctx.functionOf(declarator)) continue;
      const pairs: Array<[SyntaxNode, SyntaxNode | null]> = [[branch.consequent, branch.alternate], [branch.alternate, branch.consequent]];
      for (const [updating, other] of pairs) {
        if (!updating || !updates(ctx, updating, id)) continue;
        const reset = `${id.name} = ${init.raw}`;
        if (!other) {
          ctx.add('missing-reset', PRIORS.missingReset, branch, [{ start: branch.consequent.end, end: branch.consequent.end, text: ` else { ${reset} }` }],
            `add \`else { ${reset} }\` at ${ctx.position(branch.consequent.end)}`);
        } else if (other.type === 'BlockStatement' && !mentions(ctx, other, id)) {
          ctx.add('missing-reset', PRIORS.missingReset, other, [{ start: other.start + 1, end: other.start + 1, text: ` ${reset};` }],
            `insert \`${reset}\` at ${ctx.position(other.start)}`);
        }
      }
    }
  }
}

function missingUpdate(ctx: MutationContext): void {
  for (const expression of ctx.nodes('BinaryExpression')) {
    if (!['+', '-', '*', '/', '%'].includes(expression.operator) || expression.left.type !== 'Identifier') continue;
    if (expression.end - expression.start > MAX_EXPRESSION || enclosingLoops(ctx, expression).length === 0) continue;
    const target = expression.left;
    const binding = ctx.scopes.resolve(target);
    if (!binding || binding.kind === 'const' || binding.kind === 'function' || binding.kind === 'class') continue;
    const parent = ctx.parent(expression);
    if (parent?.type === 'AssignmentExpression' && parent.left.type === 'Identifier' && parent.left.name === target.name) continue;
    const statement = ctx.statementOf(expression);
    if (!statement) continue;
    const list = ctx.parent(statement);
    if (list?.type !== 'BlockStatement') continue;
    const body = list.body as SyntaxNode[];
    const text = `${target.name} = ${ctx.text(expression)}`;
    for (let i = body.indexOf(statement); i >= 0 && i < body.length; i++) {
      const after = body[i];
      if (after.type === 'ReturnStatement' || after.type === 'BreakStatement' || after.type === 'ContinueStatement') break;
      ctx.add('missing-update', PRIORS.missingUpdate, statement, [{ start: after.end, end: after.end, text: `\n${indentOf(ctx, after)}${text};` }],
        `insert \`${text}\` after ${ctx.position(after.start)}`);
    }
  }
}

function indentOf(ctx: MutationContext, node: SyntaxNode): string {
  const text = ctx.source.text;
  const lineStart = text.lastIndexOf('\n', node.start - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, node.start))![0];
}

function loopVariable(loop: SyntaxNode): string | undefined {
  if (loop.type === 'ForOfStatement' || loop.type === 'ForInStatement') {
    const left = loop.left.type === 'VariableDeclaration' ? loop.left.declarations[0].id : loop.left;
    return left.type === 'Identifier' ? left.name : undefined;
  }
  return undefined;
}

function missingGuard(ctx: MutationContext): void {
  let guarded = 0;
  for (const statement of ctx.nodes('ExpressionStatement')) {
    if (guarded >= MAX_GUARDED || statement.directive !== undefined) continue;
    const loops = enclosingLoops(ctx, statement);
    if (loops.length === 0) continue;
    const parent = ctx.parent(statement);
    if (parent?.type === 'IfStatement') continue;
    const fn = ctx.functionOf(statement);
    const conditions: string[] = [];
    const variables = loops.slice(0, 2).map(loopVariable);
    if (variables[0] && variables[1]) conditions.push(`${variables[1]} == ${variables[0]}`);
    for (const branch of ctx.nodes('IfStatement', 'WhileStatement')) {
      if (conditions.length >= MAX_CONDITIONS) break;
      if (ctx.functionOf(branch) !== fn || branch.start > statement.start && branch.end < statement.end) continue;
      // Only conditions whose variables are all visible at the statement.
      const visible = ctx.scopes.visibleAt(statement);
      if (boundIdentifiers(ctx, branch.test).some((id) => visible.get(id.name) !== ctx.scopes.resolve(id))) continue;
      const condition = ctx.text(branch.test).replace(/\s+/g, ' ');
      if (condition.length <= MAX_EXPRESSION && !conditions.includes(condition)) conditions.push(condition);
    }
    if (conditions.length === 0) continue;
    guarded++;
    for (const condition of conditions) {
      ctx.add('missing-guard', PRIORS.missingGuard, statement, [{ start: statement.start, end: statement.start, text: `if (${condition}) ` }],
        `guard \`${ctx.text(statement).replace(/\s+/g, ' ').slice(0, 30)}\` with \`if (${condition})\` at ${ctx.position(statement.start)}`);
    }
  }
}

/** Identifiers of an expression that name a binding of the block (globals such as `Math` left out). */
function boundIdentifiers(ctx: MutationContext, node: SyntaxNode): SyntaxNode[] {
  const ids: SyntaxNode[] = [];
  const take = (n: SyntaxNode): boolean => {
    if (n.type === 'Identifier' && ctx.scopes.role(n) === 'read' && ctx.scopes.resolve(n)) ids.push(n);
    return false;
  };
  take(node);
  ctx.contains(node, take);
  return ids;
}

/** Local bindings declared with a literal, keyed by their declaring identifier, with their reads and writes. */
function literalLocals(ctx: MutationContext): Map<SyntaxNode, { init: SyntaxNode; reads: number; writes: number; declarator: SyntaxNode }> {
  const locals = new Map<SyntaxNode, { init: SyntaxNode; reads: number; writes: number; declarator: SyntaxNode }>();
  for (const declarator of ctx.nodes('VariableDeclarator')) {
    if (declarator.id.type !== 'Identifier' || declarator.init?.type !== 'Literal' || !ctx.functionOf(declarator)) continue;
    if (ctx.parent(ctx.parent(declarator)!)?.type === 'ForStatement') continue;
    const binding = ctx.scopes.resolve(declarator.id);
    if (binding && binding.kind !== 'const') locals.set(declarator.id, { init: declarator.init, reads: 0, writes: 0, declarator });
  }
  for (const id of ctx.nodes('Identifier')) {
    const local = locals.get(ctx.scopes.resolve(id)?.id as SyntaxNode);
    if (!local || id === local.declarator.id) continue;
    const role = ctx.scopes.role(id);
    const parent = ctx.parent(id);
    if (parent?.type === 'UpdateExpression' || role === 'write') local.writes++;
    else if (role === 'read') local.reads++;
  }
  return locals;
}

function missingCount(ctx: MutationContext): void {
  const locals = literalLocals(ctx);
  for (const [id, counter] of locals) {
    if (typeof counter.init.value !== 'number' || counter.writes > 0 || counter.reads === 0) continue;
    const scope = ctx.parent(ctx.parent(counter.declarator)!);
    if (!scope) continue;
    for (const loop of ctx.nodes(...LOOPS)) {
      if (loop.start < counter.declarator.end || loop.end > scope.end || loop.body.type !== 'BlockStatement') continue;
      if (ctx.functionOf(loop) !== ctx.functionOf(counter.declarator)) continue;
      const body = loop.body;
      // An unguarded `p++` made /158 of the dev half pass its visible cases wrongly: count only under a flag.
      // Flags written inside this loop body but never read.
      for (const [flagId, flag] of locals) {
        if (flag.reads > 0 || flag.writes === 0 || flag === counter) continue;
        if (flag.declarator.start < body.start || flag.declarator.end > body.end) continue;
        const block = ctx.parent(ctx.parent(flag.declarator)!);
        if (!block || block.type !== 'BlockStatement') continue;
        const at = block.end - 1;
        const statement = `if (${flagId.name} == ${flag.init.raw}) { ${id.name}++ }`;
        ctx.add('missing-count', PRIORS.missingUpdate, block, [{ start: at, end: at, text: ` ${statement} ` }], `insert \`${statement}\` at ${ctx.position(at)}`);
      }
    }
  }
}
