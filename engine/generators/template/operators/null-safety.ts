import type { Edit } from '../../../../core/types.ts';
import type { SyntaxNode } from '../../../syntax/index.ts';
import { Precedence } from '../expression-precedence.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';
import { defaultForMember, defaultForUse, defaultReturn, STRING_MEMBERS } from './value-defaults.ts';
import { lostReceiver } from '../receiver.ts';

type Failure =
  | { kind: 'read' | 'write'; property?: string; nullish: string }
  | { kind: 'call'; callee: string }
  | { kind: 'iterate' }
  | { kind: 'convert' }
  | { kind: 'empty-reduce' };

const MAX_SITES = 3;
const LOOPS = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);

/** What a TypeError message says went wrong, in V8's and older engines' wordings. */
export function classifyTypeError(message: string): Failure | undefined {
  let m = /Cannot read propert(?:y|ies) of (undefined|null)(?: \(reading '(.*)'\))?/.exec(message);
  if (m) return { kind: 'read', nullish: m[1], property: m[2] };
  m = /Cannot read property '(.*)' of (undefined|null)/.exec(message);
  if (m) return { kind: 'read', nullish: m[2], property: m[1] };
  m = /Cannot set propert(?:y|ies) of (undefined|null)(?: \(setting '(.*)'\))?/.exec(message);
  if (m) return { kind: 'write', nullish: m[1], property: m[2] };
  m = /(\S+) is not a function/.exec(message);
  if (m) return { kind: 'call', callee: m[1] };
  if (/is not iterable|Spread syntax requires/.test(message)) return { kind: 'iterate' };
  if (/Cannot convert undefined or null to object/.test(message)) return { kind: 'convert' };
  if (/Reduce of empty array with no initial value/.test(message)) return { kind: 'empty-reduce' };
  return undefined;
}

/**
 * Null safety at a TypeError's throw site: optional chaining (at the level that threw, and at every level of
 * the chain at once, since a value one level up is often missing in the next failing call), a nullish default
 * of the type the value is used as next, `(x ?? {})`, a guard clause returning the function's empty value (or
 * `continue` in a loop), and a default parameter. Only generated when the failing run threw a TypeError these
 * edits address.
 *
 * The same throw also tells of values of the wrong type and of empty collections:
 * - `x.getTime is not a function`: `x` is not the type its method needs — a date that arrived as a string
 *   or number (JSON has no dates) becomes `new Date(x)`; a number method gets `Number(x)`, a string method
 *   `String(x)`, a list method on a keyed object `Object.values(x)`;
 * - `Reduce of empty array with no initial value`: `.reduce(f)` gets the identity of what `f` computes as its
 *   initial value (`0` for a sum, `1` for a product, `''` for a concatenation of strings, `[]`/`{}` for
 *   a spread into a new array/object, `-Infinity`/`Infinity` for `Math.max`/`Math.min`).
 */
export function nullSafety(ctx: MutationContext): void {
  const error = ctx.errorInfo;
  if (!error) return;
  const failure = classifyTypeError(error.message);
  if (!failure) return;
  const offset = error.offset;
  switch (failure.kind) {
    case 'read':
    case 'write': {
      const members = nearest(ctx.nodes('MemberExpression').filter((m) => {
        if (m.object.type === 'Super') return false;
        if (failure.property === undefined) return true;
        return m.computed ? true : m.property.name === failure.property;
      }), offset, (m) => (m.computed ? m.property.start : m.property.start));
      for (const member of members) {
        const before = ctx.mutations.length;
        memberRepairs(ctx, member, failure.kind === 'write', failure.nullish === 'undefined');
        // `this?.fee ?? 0` in a callback that lost its receiver hides the bug (data-shape.ts restores `this`).
        if (lostReceiver(ctx, member.object)) for (const m of ctx.mutations.slice(before)) m.suspect = true;
      }
      break;
    }
    case 'call': {
      // V8 names a computed receiver `(intermediate value)`: then the method's name has to do.
      const method = failure.callee.slice(failure.callee.lastIndexOf('.') + 1);
      const named = (c: SyntaxNode) => ctx.flatText(c.callee) === failure.callee;
      const exact = ctx.nodes('CallExpression').filter(named);
      const calls = nearest(exact.length > 0 ? exact : ctx.nodes('CallExpression').filter((c) => c.callee.type === 'MemberExpression' &&
        !c.callee.computed && c.callee.property.name === method), offset, (c) => c.start);
      for (const call of calls) {
        if (call.optional) continue;
        // A method of a built-in type (`localeCompare`, `getTime`, `toFixed`, `map`) missing means a value of
        // another type, which a conversion fixes; `?.()` answers undefined instead: a suspect shape there.
        const wrongType = convertible(call);
        ctx.add('optional-call', wrongType ? PRIORS.optionalCallOnWrongType : PRIORS.nullSafetyAtThrow - 0.1, call, [{ start: call.callee.end, end: call.callee.end, text: '?.' }],
          `call \`${ctx.text(call.callee)}\` only if it is a function (\`?.()\`) at ${ctx.position(call.callee.end)}`, wrongType);
        coercions(ctx, call);
      }
      break;
    }
    case 'empty-reduce': {
      const calls = nearest(ctx.nodes('CallExpression').filter((c) => c.callee.type === 'MemberExpression' && !c.callee.computed &&
        ['reduce', 'reduceRight'].includes(c.callee.property.name) && c.arguments.length === 1), offset, (c) => c.callee.property.start);
      for (const call of calls) reduceInitial(ctx, call);
      break;
    }
    case 'iterate': {
      const sites = nearest([...ctx.nodes('ForOfStatement').map((f) => f.right), ...ctx.nodes('SpreadElement').map((s) => s.argument)], offset, (n) => n.start);
      for (const site of sites) ctx.addReplace('nullish-default', PRIORS.nullSafetyAtThrow, site, `${ctx.operand(site, Precedence.bitOr)} ?? []`, Precedence.nullish);
      break;
    }
    case 'convert': {
      const calls = nearest(ctx.nodes('CallExpression').filter((c) => /^Object\.\w+$/.test(ctx.text(c.callee)) && c.arguments.length > 0), offset, (c) => c.start);
      for (const call of calls) {
        const arg = call.arguments[0];
        ctx.addReplace('nullish-default', PRIORS.nullSafetyAtThrow, arg, `${ctx.operand(arg, Precedence.bitOr)} ?? {}`, Precedence.nullish);
      }
      break;
    }
  }
}

/** The few candidates closest to the throw offset (all of them, up to a cap, when the offset is unknown). */
function nearest(nodes: SyntaxNode[], offset: number | undefined, at: (n: SyntaxNode) => number): SyntaxNode[] {
  if (offset === undefined) return nodes.slice(0, MAX_SITES * 2);
  const containing = nodes.filter((n) => n.start <= offset && offset <= n.end);
  const pool = containing.length > 0 ? containing : nodes;
  return [...pool].sort((a, b) => Math.abs(at(a) - offset) - Math.abs(at(b) - offset) || (a.end - a.start) - (b.end - b.start)).slice(0, MAX_SITES);
}

const DATE_METHODS = /^(get|set|to)(Time|FullYear|Month|Date|Day|Hours|Minutes|Seconds|Milliseconds|UTC\w*|ISOString|JSON|Locale\w*String|DateString|TimeString|TimezoneOffset)$/;
const NUMBER_METHODS = new Set(['toFixed', 'toPrecision', 'toExponential']);
const LIST_METHODS = new Set(['map', 'filter', 'forEach', 'reduce', 'some', 'every', 'find', 'findIndex', 'flatMap', 'sort', 'join', 'includes']);

/** Whether `x.m()` calls a method of a built-in type that {@link coercions} converts `x` for. */
function convertible(call: SyntaxNode): boolean {
  const callee = call.callee;
  if (callee.type !== 'MemberExpression' || callee.computed || callee.object.type === 'Super') return false;
  const name = callee.property.name as string;
  return DATE_METHODS.test(name) || NUMBER_METHODS.has(name) || STRING_MEMBERS.has(name) || LIST_METHODS.has(name);
}

/** `x.m()` throwing `x.m is not a function`: `x` converted to the type `m` belongs to. */
function coercions(ctx: MutationContext, call: SyntaxNode): void {
  const callee = call.callee;
  if (callee.type !== 'MemberExpression' || callee.computed || callee.object.type === 'Super') return;
  const receiver = callee.object as SyntaxNode;
  const name = callee.property.name as string;
  const conversions: string[] = [];
  if (DATE_METHODS.test(name)) conversions.push(`new Date(${ctx.text(receiver)})`);
  else if (NUMBER_METHODS.has(name)) conversions.push(`Number(${ctx.text(receiver)})`);
  else if (STRING_MEMBERS.has(name)) conversions.push(`String(${ctx.text(receiver)})`);
  else if (LIST_METHODS.has(name)) conversions.push(`Object.values(${ctx.text(receiver)})`, `Array.from(${ctx.text(receiver)})`);
  for (const text of conversions) {
    ctx.add('coercion', PRIORS.coercion, call, [ctx.replaceNode(receiver, text, Precedence.call)], `convert \`${ctx.text(receiver)}\` for \`.${name}()\`: ${text} at ${ctx.position(receiver.start)}`);
  }
}

/** The identity of the operation a reducer computes, read from what it returns. */
export function reducerIdentity(ctx: MutationContext, reducer: SyntaxNode): string | undefined {
  if (reducer.type !== 'ArrowFunctionExpression' && reducer.type !== 'FunctionExpression') return undefined;
  let result: SyntaxNode | undefined = reducer.expression ? reducer.body : undefined;
  if (!result) {
    for (const ret of ctx.nodes('ReturnStatement')) if (ctx.functionOf(ret) === reducer && ret.argument) result = ret.argument;
  }
  while (result?.type === 'ParenthesizedExpression') result = result.expression;
  if (!result) return undefined;
  switch (result.type) {
    case 'BinaryExpression': {
      if (result.operator === '*') return '1';
      if (result.operator !== '+' && result.operator !== '-') return undefined;
      return hasStringTerm(result) ? "''" : '0';
    }
    case 'TemplateLiteral': return "''";
    case 'ArrayExpression': return '[]';
    case 'ObjectExpression': return '{}';
    case 'LogicalExpression': return result.operator === '&&' ? 'true' : result.operator === '||' ? 'false' : undefined;
    case 'CallExpression': {
      const callee = ctx.flatText(result.callee);
      if (callee === 'Math.max') return '-Infinity';
      if (callee === 'Math.min') return 'Infinity';
      if (callee.endsWith('.concat')) return '[]';
      return undefined;
    }
    default: return undefined;
  }
}

/** Whether a `+` chain adds a string literal or template anywhere (`acc + ', ' + x`). */
function hasStringTerm(node: SyntaxNode): boolean {
  if (node.type === 'TemplateLiteral' || (node.type === 'Literal' && typeof node.value === 'string')) return true;
  return node.type === 'BinaryExpression' && node.operator === '+' && (hasStringTerm(node.left) || hasStringTerm(node.right));
}

function reduceInitial(ctx: MutationContext, call: SyntaxNode): void {
  const reducer = call.arguments[0] as SyntaxNode;
  const identity = reducerIdentity(ctx, reducer);
  const values = identity ? [identity] : ['0', "''", '[]'];
  values.forEach((value, i) => {
    ctx.add('reduce-initial', PRIORS.reduceInitial - i * 0.02, call, [{ start: reducer.end, end: reducer.end, text: `, ${value}` }],
      `start \`.${call.callee.property.name}\` from \`${value}\` at ${ctx.position(reducer.end)}`);
  });
}

/** The `.`/`[` tokens of a member chain from `member` out to its end (`a.b.c.d` at `.c`: `.c`, `.d`). */
function laterLevels(ctx: MutationContext, member: SyntaxNode): SyntaxNode[] {
  const levels: SyntaxNode[] = [member];
  let current = member;
  for (;;) {
    const parent = ctx.parent(current);
    if (!parent) break;
    if (parent.type === 'MemberExpression' && ctx.key(current) === 'object') levels.push(parent);
    else if (!(parent.type === 'CallExpression' && ctx.key(current) === 'callee')) break;
    current = parent;
  }
  return levels;
}

/** The member levels of the chain `member` reads from, root first (`a.b.c`: `a.b`, `a.b.c`). */
function earlierLevels(member: SyntaxNode): SyntaxNode[] {
  const levels: SyntaxNode[] = [];
  for (let current: SyntaxNode = member; current.type === 'MemberExpression'; current = current.object) levels.unshift(current);
  return levels;
}

/** An edit making one member level optional, or undefined when it is already or cannot be. */
function optionalEdit(ctx: MutationContext, level: SyntaxNode): Edit | undefined {
  if (level.optional || level.object.type === 'Super') return undefined;
  const dot = level.computed
    ? ctx.source.findOperator(level.object.end, level.property.start, ['[', '?.['])
    : ctx.source.findOperator(level.object.end, level.property.start, ['.', '?.']);
  if (!dot || (dot.text !== '.' && dot.text !== '[')) return undefined;
  return dot.text === '.' ? { start: dot.start, end: dot.end, text: '?.' } : { start: dot.start, end: dot.start, text: '?.' };
}

/** `?.` at every level from the one that threw to the end of the chain, and at every level of the chain. */
function chainsAtEveryLevel(ctx: MutationContext, member: SyntaxNode): void {
  const single = optionalEdit(ctx, member);
  if (!single) return;
  const later = laterLevels(ctx, member).map((l) => optionalEdit(ctx, l)).filter((e): e is Edit => e !== undefined);
  const all = [...earlierLevels(member), ...laterLevels(ctx, member).slice(1)].map((l) => optionalEdit(ctx, l)).filter((e): e is Edit => e !== undefined);
  const variants: Array<[Edit[], string]> = [[later, 'from the level that threw on'], [all, 'at every level of the chain']];
  for (const [edits, where] of variants) {
    if (edits.length < 2) continue;
    ctx.add('optional-chain-all', PRIORS.optionalChainAll, member, edits, `use optional chaining \`?.\` ${where} (${edits.length} levels) at ${ctx.position(edits[0].start)}`);
  }
}

function memberRepairs(ctx: MutationContext, member: SyntaxNode, isWrite: boolean, wasUndefined: boolean): void {
  const object = member.object as SyntaxNode;
  const property = member.computed ? undefined : (member.property.name as string);
  const objectDefault = property === undefined ? '[]' : defaultForMember(property);
  const anchor = member;

  if (!isWrite && !member.optional) {
    // `a.b` → `a?.b` (computed: `a?.[k]`).
    const dot = member.computed
      ? ctx.source.findOperator(object.end, member.property.start, ['[', '?.['])
      : ctx.source.findOperator(object.end, member.property.start, ['.', '?.']);
    if (dot && (dot.text === '.' || dot.text === '[')) {
      const edit: Edit = dot.text === '.' ? { start: dot.start, end: dot.end, text: '?.' } : { start: dot.start, end: dot.start, text: '?.' };
      ctx.add('optional-chain', PRIORS.nullSafetyAtThrow, anchor, [edit], `use optional chaining \`?.\` at ${ctx.position(dot.start)}`);
      chainsAtEveryLevel(ctx, member);
      // What the member is used as next decides the fallback: `(a?.b ?? 0) * 2`.
      const usedAs = defaultForUse(ctx, member);
      if (usedAs) {
        const chained = ctx.source.text.slice(member.start, dot.start) + (dot.text === '.' ? '?.' : '?.[') + ctx.source.text.slice(dot.end, member.end);
        ctx.addReplace('nullish-default', PRIORS.nullSafetyAtThrow - 0.01, member, `${chained} ?? ${usedAs}`, Precedence.nullish);
      }
    }
  }
  // `(a ?? {}).b`
  if (!isWrite) {
    ctx.add('nullish-default', PRIORS.nullSafetyAtThrow - 0.03, anchor, [ctx.replaceNode(object, `(${ctx.operand(object, Precedence.bitOr)} ?? ${objectDefault})`, Precedence.primary)],
      `default \`${ctx.text(object)}\` to \`${objectDefault}\` at ${ctx.position(object.start)}`);
  }
  guardClauses(ctx, member, object);
  if (wasUndefined) defaultParameter(ctx, member, object, objectDefault);
}

function isSimplePath(node: SyntaxNode): boolean {
  if (node.type === 'Identifier' || node.type === 'ThisExpression') return true;
  if (node.type !== 'MemberExpression') return false;
  if (node.computed && !['Identifier', 'Literal'].includes(node.property.type)) return false;
  return isSimplePath(node.object);
}

function guardClauses(ctx: MutationContext, member: SyntaxNode, object: SyntaxNode): void {
  if (!isSimplePath(object)) return;
  const statement = ctx.statementOf(member);
  if (!statement) return;
  const fn = ctx.functionOf(member);
  // Stop at the function boundary: `continue` must target a loop of the same function.
  let inLoop = false;
  for (let current = ctx.parent(statement); current && current !== fn; current = ctx.parent(current)) {
    if (LOOPS.has(current.type)) {
      inLoop = true;
      break;
    }
  }
  const test = `${ctx.text(object)} == null`;
  const fallback = defaultReturn(ctx, fn);
  const guards: Array<[string, number]> = [];
  if (inLoop) guards.push([`if (${test}) continue;`, PRIORS.nullGuardAtThrow]);
  if (fn) {
    if (fallback) guards.push([`if (${test}) return ${fallback};`, PRIORS.nullGuardAtThrow - (inLoop ? 0.02 : 0)]);
    guards.push([`if (${test}) return;`, PRIORS.nullGuardAtThrow - 0.04]);
  }
  for (const [guard, prior] of guards) {
    ctx.add('guard-clause', prior, member, insertBefore(ctx, statement, guard), `insert \`${guard}\` before ${ctx.position(statement.start)}`);
  }
}

/** Edits putting `statementText` before `statement`, on its own line when the statement starts one. */
export function insertBefore(ctx: MutationContext, statement: SyntaxNode, statementText: string): Edit[] {
  const key = ctx.key(statement);
  const parent = ctx.parent(statement);
  const inList = parent && Array.isArray(parent[key ?? '']);
  if (!inList) {
    return [{ start: statement.start, end: statement.start, text: `{ ${statementText} ` }, { start: statement.end, end: statement.end, text: ' }' }];
  }
  const text = ctx.source.text;
  const lineStart = text.lastIndexOf('\n', statement.start - 1) + 1;
  const indent = text.slice(lineStart, statement.start);
  const separator = /^[ \t]*$/.test(indent) ? `\n${indent}` : ' ';
  return [{ start: statement.start, end: statement.start, text: `${statementText}${separator}` }];
}

function defaultParameter(ctx: MutationContext, member: SyntaxNode, object: SyntaxNode, objectDefault: string): void {
  let root = object;
  while (root.type === 'MemberExpression') root = root.object;
  if (root.type !== 'Identifier') return;
  const binding = ctx.scopes.resolve(root);
  if (!binding || binding.kind !== 'param') return;
  const fn = binding.scope;
  const param = (fn.params as SyntaxNode[]).find((p) => p === binding.id);
  if (!param) return; // destructured or already defaulted
  const value = root === object ? objectDefault : '{}';
  const bareArrow = fn.type === 'ArrowFunctionExpression' && !ctx.source.text.slice(fn.start, param.start).includes('(');
  const edits: Edit[] = bareArrow
    ? [{ start: param.start, end: param.end, text: `(${param.name} = ${value})` }]
    : [{ start: param.end, end: param.end, text: ` = ${value}` }];
  ctx.add('default-parameter', PRIORS.nullDefaultParam, member, edits, `default parameter \`${param.name} = ${value}\` at ${ctx.position(param.start)}`);
}
