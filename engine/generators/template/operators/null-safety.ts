import type { Edit } from '../../../../core/types.ts';
import type { SyntaxNode } from '../../../syntax/syntax-tree.ts';
import { Precedence } from '../expression-precedence.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';
import { defaultForMember, defaultForUse, defaultReturn } from './value-defaults.ts';

type Failure =
  | { kind: 'read' | 'write'; property?: string; nullish: string }
  | { kind: 'call'; callee: string }
  | { kind: 'iterate' }
  | { kind: 'convert' };

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
  return undefined;
}

/**
 * Null safety at a TypeError's throw site: optional chaining, a nullish default of the type the value is used
 * as next, `(x ?? {})`, a guard clause returning the function's empty value (or `continue` in a loop), and a
 * default parameter. Only generated when the failing run threw a TypeError these edits address.
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
      for (const member of members) memberRepairs(ctx, member, failure.kind === 'write', failure.nullish === 'undefined');
      break;
    }
    case 'call': {
      const calls = nearest(ctx.nodes('CallExpression').filter((c) => ctx.text(c.callee).replace(/\s+/g, '') === failure.callee || !failure.callee), offset, (c) => c.start);
      for (const call of calls) {
        if (call.optional) continue;
        ctx.add('optional-call', PRIORS.nullSafetyAtThrow - 0.1, call, [{ start: call.callee.end, end: call.callee.end, text: '?.' }],
          `call \`${ctx.text(call.callee)}\` only if it is a function (\`?.()\`) at ${ctx.position(call.callee.end)}`);
      }
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
