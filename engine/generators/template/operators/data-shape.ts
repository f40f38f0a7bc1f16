/**
 * Fixes for data of a shape the block did not expect, written the way a developer fixes them instead of the
 * way a null check hides them. Each answers with a value of the kind the block gives elsewhere, which the
 * ranking prefers (scoring/answer-kinds.ts); optional chaining and `?? {}` at the same throw stay as they are.
 *
 * - `key-normalisation`: a lookup `T[k]` whose result is read on (directly or through a variable) misses
 *   because the key comes in another case or with blanks: `T[k.toUpperCase()]`, `T[k.toLowerCase()]`,
 *   `T[k.trim()]`. When the block declares `T` as an object literal whose keys all share a case, that case
 *   comes first and the others are not proposed.
 * - `local-default`: the block already keeps a defaulted form of a value in a variable
 *   (`const lang = customer.lang || 'en'`) and reads the raw value again later (`formats[customer.lang]`):
 *   the later read uses the variable. Ranked before optional chaining of the same read.
 * - `sibling-fallback`: a value printed in a template or a string concatenation is read from an object that
 *   is missing (`${invoice.customer.company.name}`): `company?.name ?? customer.name`, the field of the same
 *   name on the parent, and the other fields of the parent the block reads.
 * - `receiver-arrow`: a `function` passed as a callback reads `this`, and the function it is written in reads
 *   its own `this` too: the callback lost the receiver. It becomes an arrow function (and, for the array
 *   methods that take one, the receiver is passed as `thisArg`). Null safety on such a `this` is marked
 *   suspect (receiver.ts): it hides the lost receiver instead of restoring it.
 * - `optional-call-default`: two related edits for a method called on a missing value whose result is used
 *   on: `x.split(' ')` → `x?.split(' ') ?? []` when the result is destructured as a list or used as one,
 *   `?? ''` / `?? 0` where the use asks for a string or a number (value-defaults.ts).
 * - `skip-missing`: a callback of `.map`/`.forEach`/`.flatMap` throws on an element it cannot use: a
 *   `.filter` before it leaves such elements out (`x != null`, or the lookup the callback makes with the
 *   element, `T[x] != null`).
 */
import type { Edit } from '../../../../core/types.ts';
import { isFunctionNode, type SyntaxNode } from '../../../syntax/index.ts';
import { Precedence } from '../expression-precedence.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';
import { classifyTypeError } from './null-safety.ts';
import { defaultForUse } from './value-defaults.ts';
import { callbackOf, lostReceiver, readsThis, thisOwner } from '../receiver.ts';

const MAX_SITES = 4;
const ITERATING = new Set(['map', 'forEach', 'flatMap']);
const THIS_ARG = new Set(['map', 'forEach', 'filter', 'some', 'every', 'find', 'findIndex', 'flatMap']);

export function dataShape(ctx: MutationContext): void {
  const failure = ctx.errorInfo ? classifyTypeError(ctx.errorInfo.message) : undefined;
  const missingRead = failure?.kind === 'read';
  localDefaults(ctx);
  receiverArrows(ctx, missingRead);
  if (!missingRead) return;
  keyNormalisation(ctx);
  siblingFallbacks(ctx, failure.property);
  optionalCallDefaults(ctx, failure.property);
  skipMissing(ctx);
}

/** Sites nearest the throw offset (the first few when it is unknown). */
function nearest(ctx: MutationContext, nodes: SyntaxNode[]): SyntaxNode[] {
  const offset = ctx.errorInfo?.offset;
  if (offset === undefined) return nodes.slice(0, MAX_SITES);
  return [...nodes].sort((a, b) => distance(a, offset) - distance(b, offset)).slice(0, MAX_SITES);
}

function distance(node: SyntaxNode, offset: number): number {
  return node.start <= offset && offset <= node.end ? 0 : Math.min(Math.abs(node.start - offset), Math.abs(node.end - offset));
}

/** Whether the value of `node` is read on: a member read of it, or a variable it initialises. */
function readOn(ctx: MutationContext, node: SyntaxNode): boolean {
  const parent = ctx.parent(node);
  if (!parent) return false;
  if (parent.type === 'MemberExpression' && ctx.key(node) === 'object') return true;
  return parent.type === 'VariableDeclarator' && ctx.key(node) === 'init' && parent.id.type === 'Identifier';
}

/** The case every key of an object literal `T` the block declares shares, if it does. */
function keyCase(ctx: MutationContext, table: SyntaxNode): 'upper' | 'lower' | undefined {
  if (table.type !== 'Identifier') return undefined;
  const binding = ctx.scopes.resolve(table);
  const declarator = binding && ctx.parent(binding.id);
  if (declarator?.type !== 'VariableDeclarator' || declarator.init?.type !== 'ObjectExpression') return undefined;
  const keys = (declarator.init.properties as SyntaxNode[]).map((p) =>
    p.type === 'Property' && !p.computed ? (p.key.type === 'Identifier' ? p.key.name : typeof p.key.value === 'string' ? p.key.value : undefined) : undefined);
  const letters = keys.filter((k): k is string => typeof k === 'string' && /[a-z]/i.test(k));
  if (letters.length < 2 || letters.length !== keys.length) return undefined;
  if (letters.every((k) => k === k.toUpperCase())) return 'upper';
  if (letters.every((k) => k === k.toLowerCase())) return 'lower';
  return undefined;
}

function keyNormalisation(ctx: MutationContext): void {
  const lookups = ctx.nodes('MemberExpression').filter((m) => m.computed && (m.property.type === 'Identifier' || m.property.type === 'MemberExpression') &&
    ctx.isRead(m) && readOn(ctx, m));
  for (const lookup of nearest(ctx, lookups)) {
    const key = lookup.property as SyntaxNode;
    const shared = keyCase(ctx, lookup.object);
    const forms: Array<[string, number]> = shared === 'upper'
      ? [['toUpperCase', PRIORS.keyNormalisationShared]]
      : shared === 'lower'
        ? [['toLowerCase', PRIORS.keyNormalisationShared]]
        : [['toUpperCase', PRIORS.keyNormalisation], ['toLowerCase', PRIORS.keyNormalisation - 0.01], ['trim', PRIORS.keyNormalisation - 0.02]];
    for (const [method, prior] of forms) {
      const text = `${ctx.operand(key, Precedence.call)}.${method}()`;
      const mutation = ctx.addReplace('key-normalisation', prior, key, text, Precedence.call);
      if (mutation) mutation.description = `normalise the key of \`${shortText(ctx, lookup)}\`: ${text} at ${ctx.position(key.start)}`;
    }
  }
}

function localDefaults(ctx: MutationContext): void {
  for (const declarator of ctx.nodes('VariableDeclarator')) {
    const init = declarator.init;
    if (declarator.id.type !== 'Identifier' || init?.type !== 'LogicalExpression' || (init.operator !== '||' && init.operator !== '??')) continue;
    const raw = init.left;
    if (raw.type !== 'MemberExpression' && raw.type !== 'Identifier') continue;
    const rawText = ctx.flatText(raw);
    const name = declarator.id.name as string;
    const binding = ctx.scopes.resolve(declarator.id);
    for (const read of ctx.nodes(raw.type)) {
      if (read.start < declarator.end || ctx.flatText(read) !== rawText || !ctx.isRead(read)) continue;
      const parent = ctx.parent(read);
      // Already defaulted where it stands, or only the object of a longer read of the same text.
      if (parent?.type === 'LogicalExpression' && ctx.key(read) === 'left') continue;
      if (ctx.scopes.visibleAt(read).get(name) !== binding) continue;
      const mutation = ctx.addReplace('local-default', PRIORS.localDefault, read, name, Precedence.primary);
      if (mutation) mutation.description = `read \`${name}\` (\`${shortText(ctx, init)}\`) instead of \`${rawText}\` at ${ctx.position(read.start)}`;
    }
  }
}

/** Whether `node` is printed: inside a template literal's expressions or a `+` with a string. */
function printed(ctx: MutationContext, node: SyntaxNode): boolean {
  for (let current = node, parent = ctx.parent(node); parent; current = parent, parent = ctx.parent(parent)) {
    if (parent.type === 'TemplateLiteral') return true;
    if (parent.type === 'BinaryExpression' && parent.operator === '+') {
      const other = ctx.key(current) === 'left' ? parent.right : parent.left;
      if ((other.type === 'Literal' && typeof other.value === 'string') || other.type === 'TemplateLiteral') return true;
      continue;
    }
    if (parent.type !== 'ChainExpression' && parent.type !== 'LogicalExpression') return false;
  }
  return false;
}

function siblingFallbacks(ctx: MutationContext, property: string | undefined): void {
  const members = ctx.nodes('MemberExpression').filter((m) => !m.computed && (property === undefined || m.property.name === property) &&
    m.object.type === 'MemberExpression' && !m.object.computed && ctx.isRead(m) && printed(ctx, m));
  for (const member of nearest(ctx, members)) {
    const missing = member.object as SyntaxNode;
    const parent = missing.object as SyntaxNode;
    const parentText = ctx.flatText(parent);
    const wanted = member.property.name as string;
    const fields = [wanted];
    for (const other of ctx.nodes('MemberExpression')) {
      if (other.computed || ctx.flatText(other.object) !== parentText || other === missing) continue;
      const name = other.property.name as string;
      if (name !== (missing.property.name as string) && !fields.includes(name) && ctx.isRead(other)) fields.push(name);
    }
    fields.forEach((field, i) => {
      const text = `${ctx.text(missing)}?.${wanted} ?? ${ctx.text(parent)}.${field}`;
      const mutation = ctx.addReplace('sibling-fallback', PRIORS.siblingFallback - (i === 0 ? 0 : 0.1), member, text, Precedence.nullish);
      if (mutation) mutation.description = `fall back to \`${ctx.text(parent)}.${field}\` where \`${ctx.text(missing)}\` is missing at ${ctx.position(member.start)}`;
    });
  }
}

function optionalCallDefaults(ctx: MutationContext, property: string | undefined): void {
  const calls = ctx.nodes('CallExpression').filter((c) => c.callee.type === 'MemberExpression' && !c.callee.computed && !c.callee.optional &&
    (property === undefined || c.callee.property.name === property) && c.callee.object.type !== 'Super');
  for (const call of nearest(ctx, calls)) {
    const parent = ctx.parent(call);
    const fallback = parent?.type === 'VariableDeclarator' && ctx.key(call) === 'init' && parent.id.type === 'ArrayPattern' ? '[]' : defaultForUse(ctx, call);
    if (!fallback) continue;
    const callee = call.callee;
    const dot = ctx.source.findOperator(callee.object.end, callee.property.start, ['.', '?.']);
    if (!dot || dot.text !== '.') continue;
    const text = `${ctx.source.text.slice(call.start, dot.start)}?.${ctx.source.text.slice(dot.end, call.end)} ?? ${fallback}`;
    const mutation = ctx.addReplace('optional-call-default', PRIORS.nullSafetyAtThrow - 0.02, call, text, Precedence.nullish);
    if (mutation) mutation.description = `call \`.${callee.property.name}\` only on a value, else \`${fallback}\` at ${ctx.position(dot.start)}`;
  }
}

function receiverArrows(ctx: MutationContext, missingRead: boolean): void {
  const offset = ctx.errorInfo?.offset;
  for (const fn of ctx.nodes('FunctionExpression')) {
    const call = callbackOf(ctx, fn);
    if (!call || !readsThis(ctx, fn)) continue;
    if (ctx.contains(fn, (inner) => inner.type === 'Identifier' && inner.name === 'arguments' && thisOwner(ctx, inner) === fn)) continue;
    const lost = ctx.contains(fn, (inner) => inner.type === 'ThisExpression' && thisOwner(ctx, inner) === fn && lostReceiver(ctx, inner));
    if (!lost) continue;
    const atThrow = missingRead && offset !== undefined && fn.start <= offset && offset <= fn.end;
    const prior = atThrow ? PRIORS.receiverArrow : PRIORS.receiverArrow - 0.5;
    const params = (fn.params as SyntaxNode[]).map((p) => ctx.text(p)).join(', ');
    const header: Edit = { start: fn.start, end: fn.body.start, text: `${fn.async ? 'async ' : ''}(${params}) => ` };
    ctx.add('receiver-arrow', prior, fn, [header], `make the callback at ${ctx.position(fn.start)} an arrow function: it reads \`this\` of the function around it`);
    const callee = call.callee;
    if (call.type === 'CallExpression' && callee.type === 'MemberExpression' && !callee.computed && THIS_ARG.has(callee.property.name) &&
      call.arguments.length === 1 && call.arguments[0] === fn) {
      ctx.add('receiver-arrow', prior - 0.02, fn, [{ start: fn.end, end: fn.end, text: ', this' }], `pass \`this\` to \`.${callee.property.name}\` as its thisArg at ${ctx.position(fn.end)}`);
    }
  }
}

function skipMissing(ctx: MutationContext): void {
  const offset = ctx.errorInfo?.offset;
  const calls = ctx.nodes('CallExpression').filter((c) => {
    const callee = c.callee;
    if (callee.type !== 'MemberExpression' || callee.computed || !ITERATING.has(callee.property.name)) return false;
    const cb = c.arguments[0] as SyntaxNode | undefined;
    if (!cb || !isFunctionNode(cb) || cb.params.length === 0 || cb.params[0].type !== 'Identifier') return false;
    return offset === undefined || (cb.start <= offset && offset <= cb.end);
  });
  for (const call of nearest(ctx, calls)) {
    const callee = call.callee;
    const cb = call.arguments[0] as SyntaxNode;
    const param = cb.params[0].name as string;
    const tests = [`${param} != null`];
    ctx.contains(cb, (inner) => {
      if (inner.type === 'MemberExpression' && inner.computed && inner.property.type === 'Identifier' && inner.property.name === param &&
        ctx.scopes.resolve(inner.property)?.id === cb.params[0] && !mentions(ctx, inner.object, param)) {
        const test = `${ctx.text(inner)} != null`;
        if (!tests.includes(test)) tests.unshift(test);
      }
      return false;
    });
    const dot = ctx.source.findOperator(callee.object.end, callee.property.start, ['.', '?.']);
    if (!dot) continue;
    tests.forEach((test, i) => {
      const filter = `.filter((${param}) => ${test})`;
      ctx.add('skip-missing', PRIORS.skipMissing - i * 0.02, call, [{ start: dot.start, end: dot.start, text: filter }],
        `leave out the elements \`.${callee.property.name}\` cannot use: \`${filter}\` at ${ctx.position(dot.start)}`);
    });
  }
}

function mentions(ctx: MutationContext, node: SyntaxNode, name: string): boolean {
  return (node.type === 'Identifier' && node.name === name) || ctx.contains(node, (inner) => inner.type === 'Identifier' && inner.name === name);
}

function shortText(ctx: MutationContext, node: SyntaxNode): string {
  const text = ctx.flatText(node);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
