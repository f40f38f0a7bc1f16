/**
 * Missing conditions, built only from names in scope where the new code stands.
 *
 * Bug classes:
 * - a missing `if` statement: an edge case the code never handles, so it must stop early — an empty list, a
 *   missing object, the first iteration. Example: `function average(xs) { return sum(xs) / xs.length }` needs
 *   `if (xs.length === 0) return 0;`; a loop over `rows` needs `if (row == null) continue;`.
 *   Guards go at the top of a function body, at the top of a loop body, and before the statement that threw;
 *   the conditions are emptiness and missing-value tests of the names visible there, the conditions the same
 *   function already tests, and the first iteration of an enclosing counting loop; the exits are the values
 *   the function already returns (literals, its default empty value, an unchanged parameter), `continue` and
 *   `break` in loops.
 * - a condition missing a sub-expression: `if (user.age > 18)` needs `user != null && …`; `if (i % 3 == 0)`
 *   needs `… || i === 0`; `while (queue.length)` needs `… && budget > 0`. A missing-value test of an object the
 *   condition or its branch reads goes in front (it must short-circuit); comparisons of loop counters and
 *   emptiness tests go after, joined by `&&` or `||`.
 *
 * Both are low-prior: a new condition can make wrong programs pass weak tests, so they come after the edits of
 * existing code at the same location.
 */
import { type SyntaxNode, isFunctionNode } from '../../../syntax/index.ts';
import { Precedence } from '../expression-precedence.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';
import { valueKind } from '../value-kinds.ts';
import { insertBefore } from './null-safety.ts';
import { defaultReturn } from './value-defaults.ts';

const LOOPS = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);
const MAX_CONDITIONS = 8;
const MAX_VALUES = 4;
const MAX_TESTS = 10;
const MAX_TEST_LENGTH = 60;

export function missingCondition(ctx: MutationContext): void {
  earlyExits(ctx);
  extendConditions(ctx);
}

/** Names visible at `at` that the function reads, with what the block tells of them. */
interface Name {
  name: string;
  /** `.length` is read, or the value is built as an array or string. */
  sized: boolean;
  /** A member of it is read (`x.y`, `x[k]`). */
  object: boolean;
}

function namesAt(ctx: MutationContext, at: SyntaxNode, fn: SyntaxNode): Name[] {
  const names = new Map<string, Name>();
  const visible = ctx.scopes.visibleAt(at);
  for (const id of ctx.nodes('Identifier')) {
    if (id.start < fn.start || id.end > fn.end || ctx.scopes.role(id) !== 'read') continue;
    const binding = ctx.scopes.resolve(id);
    if (!binding || visible.get(id.name) !== binding || binding.kind === 'function' || binding.kind === 'class') continue;
    // Declared later in the same scope: in its temporal dead zone (or still undefined) where the guard stands.
    if (binding.kind !== 'param' && binding.id.start >= at.start) continue;
    const entry = names.get(id.name) ?? { name: id.name, sized: false, object: false };
    const parent = ctx.parent(id);
    if (parent?.type === 'MemberExpression' && ctx.key(id) === 'object') {
      if (!parent.computed && parent.property.name === 'length') entry.sized = true;
      else entry.object = true;
    }
    if (!entry.sized && valueKind(ctx, id)) entry.sized = true;
    names.set(id.name, entry);
  }
  return [...names.values()];
}

/** Counters of the `for (let i = …; …; i++)` loops around `node`, innermost first. */
function loopCounters(ctx: MutationContext, node: SyntaxNode, fn: SyntaxNode): Array<{ name: string; start: string }> {
  const out: Array<{ name: string; start: string }> = [];
  for (let current = ctx.parent(node); current && current !== fn; current = ctx.parent(current)) {
    if (current.type !== 'ForStatement' || current.init?.type !== 'VariableDeclaration') continue;
    const d = current.init.declarations[0];
    if (d?.id.type === 'Identifier' && d.init?.type === 'Literal' && typeof d.init.value === 'number') out.push({ name: d.id.name, start: d.init.raw });
  }
  return out;
}

/** Tests of the function's `if`s and loops whose names are all visible at `at` (the conditions it already knows). */
function knownTests(ctx: MutationContext, at: SyntaxNode, fn: SyntaxNode): string[] {
  const visible = ctx.scopes.visibleAt(at);
  const tests: string[] = [];
  for (const branch of ctx.nodes('IfStatement', 'WhileStatement')) {
    if (tests.length >= 3 || ctx.functionOf(branch) !== fn) continue;
    let ok = true;
    ctx.contains(branch.test, (n) => {
      if (n.type === 'Identifier' && ctx.scopes.role(n) === 'read' && ctx.scopes.resolve(n) && visible.get(n.name) !== ctx.scopes.resolve(n)) ok = false;
      return false;
    });
    if (branch.test.type === 'Identifier' && ctx.scopes.resolve(branch.test) && visible.get(branch.test.name) !== ctx.scopes.resolve(branch.test)) ok = false;
    const text = ctx.text(branch.test).replace(/\s+/g, ' ');
    if (ok && text.length <= MAX_TEST_LENGTH && !tests.includes(text)) tests.push(text);
  }
  return tests;
}

/** Values the function returns already: literals, its default empty value and unchanged parameters. */
function exitValues(ctx: MutationContext, fn: SyntaxNode): string[] {
  const values: string[] = [];
  const push = (v: string | undefined) => {
    if (v !== undefined && !values.includes(v) && values.length < MAX_VALUES) values.push(v);
  };
  push(defaultReturn(ctx, fn));
  for (const ret of ctx.nodes('ReturnStatement')) {
    if (ctx.functionOf(ret) !== fn || !ret.argument) continue;
    const arg = ret.argument;
    if (arg.type === 'Literal' || (arg.type === 'ArrayExpression' && arg.elements.length === 0) || (arg.type === 'UnaryExpression' && arg.argument.type === 'Literal')) push(ctx.text(arg));
    if (arg.type === 'Identifier' && ctx.scopes.resolve(arg)?.kind === 'param') push(arg.name);
  }
  // A function whose returns say nothing of an empty value may answer `null`.
  if (values.length === 0) push('null');
  return values;
}

function earlyExits(ctx: MutationContext): void {
  const places: Array<{ statement: SyntaxNode; loop: boolean }> = [];
  for (const fn of ctx.tree.nodes.filter(isFunctionNode)) {
    if (fn.body.type === 'BlockStatement' && fn.body.body.length > 0) places.push({ statement: fn.body.body[0], loop: false });
  }
  for (const loop of ctx.nodes(...LOOPS)) {
    if (loop.body.type === 'BlockStatement' && loop.body.body.length > 0) places.push({ statement: loop.body.body[0], loop: true });
  }
  const offset = ctx.errorInfo?.offset;
  if (offset !== undefined) {
    const thrown = ctx.statementAt(offset);
    if (thrown && !places.some((p) => p.statement === thrown)) places.push({ statement: thrown, loop: [...ctx.tree.ancestors(thrown)].some((a) => LOOPS.has(a.type)) });
  }
  for (const { statement, loop } of places) {
    const fn = ctx.functionOf(statement);
    if (!fn || statement.type === 'VariableDeclaration' && statement.kind !== 'var' && ctx.parent(statement)?.type !== 'BlockStatement') continue;
    const conditions: string[] = [];
    const push = (c: string) => {
      if (conditions.length < MAX_CONDITIONS && !conditions.includes(c)) conditions.push(c);
    };
    for (const name of namesAt(ctx, statement, fn)) {
      if (name.sized) push(`${name.name}.length === 0`);
      if (name.object) push(`${name.name} == null`);
    }
    if (loop) for (const counter of loopCounters(ctx, statement, fn)) push(`${counter.name} === ${counter.start}`);
    for (const test of knownTests(ctx, statement, fn)) push(test);
    const exits = exitValues(ctx, fn).map((v) => `return ${v};`);
    if (loop) exits.unshift('continue;', 'break;');
    for (const condition of conditions) {
      for (const exit of exits) {
        const guard = `if (${condition}) ${exit}`;
        ctx.add('early-exit', PRIORS.earlyExit, statement, insertBefore(ctx, statement, guard), `insert \`${guard}\` before ${ctx.position(statement.start)}`);
      }
    }
  }
}

/** Objects whose members `node` reads, as text (`user` for `user.age`, `a.b` for `a.b.c`), first three. */
function readObjects(ctx: MutationContext, node: SyntaxNode): string[] {
  const out: string[] = [];
  const take = (n: SyntaxNode): boolean => {
    if (n.type === 'MemberExpression' && !n.optional && (n.object.type === 'Identifier' || n.object.type === 'MemberExpression') && ctx.isRead(n)) {
      const text = ctx.flatText(n.object);
      if (/^[\w$.]+$/.test(text) && !out.includes(text) && out.length < 3 && !/^[A-Z]/.test(text)) out.push(text);
    }
    return false;
  };
  take(node);
  ctx.contains(node, take);
  return out;
}

function extendConditions(ctx: MutationContext): void {
  let tests = 0;
  for (const owner of ctx.nodes('IfStatement', 'WhileStatement', 'ConditionalExpression', 'ForStatement')) {
    const test = owner.test as SyntaxNode | null;
    const fn = ctx.functionOf(owner);
    if (!test || !fn || tests >= MAX_TESTS) continue;
    tests++;
    const operand = (slot: number) => ctx.operand(test, slot);
    for (const object of readObjects(ctx, test)) {
      const t = `${object} != null && ${operand(Precedence.and)}`;
      ctx.addReplace('extend-condition', PRIORS.conditionExtension, test, t, Precedence.and);
    }
    const branch = owner.type === 'ForStatement' ? owner.body : owner.consequent;
    if (branch && owner.type !== 'ForStatement') {
      for (const object of readObjects(ctx, branch)) {
        if (ctx.text(test).includes(object)) continue;
        ctx.addReplace('extend-condition', PRIORS.conditionExtension - 0.01, test, `${object} != null && ${operand(Precedence.and)}`, Precedence.and);
      }
    }
    const suffixes: string[] = [];
    for (const counter of loopCounters(ctx, owner, fn)) suffixes.push(`${counter.name} === ${counter.start}`, `${counter.name} > ${counter.start}`);
    for (const name of namesAt(ctx, owner, fn)) if (name.sized) suffixes.push(`${name.name}.length > 0`);
    for (const suffix of suffixes.slice(0, 4)) {
      if (ctx.text(test).includes(suffix)) continue;
      ctx.addReplace('extend-condition', PRIORS.conditionExtension - 0.02, test, `${operand(Precedence.and)} && ${suffix}`, Precedence.and);
      ctx.addReplace('extend-condition', PRIORS.conditionExtension - 0.02, test, `${operand(Precedence.or)} || ${suffix}`, Precedence.or);
    }
  }
}
