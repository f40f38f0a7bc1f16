import { type SyntaxNode, isFunctionNode } from '../../../syntax/index.ts';
import { Precedence } from '../expression-precedence.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';

/** Methods only strings have: calling one marks the receiver expression as a string. */
const STRING_METHODS = new Set(['split', 'toLowerCase', 'toUpperCase', 'charCodeAt', 'charAt', 'trim', 'trimStart', 'trimEnd',
  'startsWith', 'endsWith', 'replace', 'replaceAll', 'padStart', 'padEnd', 'substring', 'substr', 'localeCompare', 'normalize', 'codePointAt', 'repeat']);
const STRING_WRAPS = ['toLowerCase', 'toUpperCase', 'trim'];
const MAX_FUNCTIONS = 6;

/**
 * Missing logic: `Math.abs(a - b)`, `Math.floor(a / b)`, `.toLowerCase()`/`.toUpperCase()`/`.trim()` on
 * string-valued operands, `Number(...)`/`parseInt(..., 10)` on parts of split strings, and applying a
 * one-argument function the block already calls to another argument (`f(x)` → `f(f(x))`).
 */
export function wrapping(ctx: MutationContext): void {
  for (const node of ctx.nodes('BinaryExpression')) {
    if (!ctx.inFunction(node)) continue;
    if (node.operator === '-') ctx.addReplace('wrap-abs', PRIORS.wrapAbs, node, `Math.abs(${ctx.text(node)})`, Precedence.call);
    if (node.operator === '/') ctx.addReplace('wrap-floor', PRIORS.wrapNumber, node, `Math.floor(${ctx.text(node)})`, Precedence.call);
  }
  stringWraps(ctx);
  numberWraps(ctx);
  functionReapply(ctx);
}

function stringWraps(ctx: MutationContext): void {
  const stringy = new Set<string>();
  for (const call of ctx.nodes('CallExpression')) {
    const callee = call.callee;
    if (callee.type === 'MemberExpression' && !callee.computed && STRING_METHODS.has(callee.property.name)) stringy.add(ctx.flatText(callee.object));
  }
  for (const node of ctx.nodes('BinaryExpression')) {
    if (!['==', '===', '!=', '!=='].includes(node.operator)) continue;
    if (node.right.type === 'Literal' && typeof node.right.value === 'string') stringy.add(ctx.flatText(node.left));
    if (node.left.type === 'Literal' && typeof node.left.value === 'string') stringy.add(ctx.flatText(node.right));
  }
  const params = new Set<string>();
  for (const fn of ctx.tree.nodes.filter(isFunctionNode)) for (const p of fn.params as SyntaxNode[]) if (p.type === 'Identifier') params.add(p.name);

  for (const node of ctx.nodes('Identifier', 'MemberExpression')) {
    if (!ctx.isRead(node) || !ctx.inFunction(node)) continue;
    const parent = ctx.parent(node);
    if (parent?.type === 'CallExpression' && ctx.key(node) === 'callee') continue;
    if (node.type === 'Identifier' && !ctx.scopes.resolve(node)) continue;
    const text = ctx.flatText(node);
    const known = stringy.has(text);
    // Parameters nobody calls a string method on may still be strings; try them, much later.
    if (!known && !(node.type === 'Identifier' && params.has(node.name))) continue;
    const next = parent?.type === 'MemberExpression' && ctx.key(node) === 'object' && !parent.computed ? parent.property.name : undefined;
    for (const method of STRING_WRAPS) {
      if (next === method) continue;
      if (!known && method !== 'toLowerCase') continue;
      ctx.addReplace('wrap-string', known ? PRIORS.wrapString : PRIORS.functionReapply, node, `${ctx.operand(node, Precedence.call)}.${method}()`, Precedence.call);
    }
  }
}

function numberWraps(ctx: MutationContext): void {
  // Variables holding `s.split(...)` or `s.match(...)`: their elements are strings that usually need parsing.
  const parts = new Set<string>();
  for (const declarator of ctx.nodes('VariableDeclarator')) {
    if (declarator.id.type === 'Identifier' && declarator.init && isSplitCall(declarator.init)) parts.add(declarator.id.name);
  }
  for (const node of ctx.nodes('AssignmentExpression')) {
    if (node.left.type === 'Identifier' && isSplitCall(node.right)) parts.add(node.left.name);
  }
  for (const member of ctx.nodes('MemberExpression')) {
    if (!member.computed || member.object.type !== 'Identifier' || !parts.has(member.object.name) || !ctx.isRead(member)) continue;
    const parent = ctx.parent(member);
    if (parent?.type === 'CallExpression' && ['Number', 'parseInt', 'parseFloat'].includes(ctx.text(parent.callee))) continue;
    ctx.addReplace('wrap-number', PRIORS.wrapNumber, member, `Number(${ctx.text(member)})`, Precedence.call);
    ctx.addReplace('wrap-number', PRIORS.wrapNumber - 0.02, member, `parseInt(${ctx.text(member)}, 10)`, Precedence.call);
  }
}

function isSplitCall(node: SyntaxNode): boolean {
  return node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && !node.callee.computed &&
    (node.callee.property.name === 'split' || node.callee.property.name === 'match');
}

function functionReapply(ctx: MutationContext): void {
  const functions: string[] = [];
  for (const call of ctx.nodes('CallExpression')) {
    if (call.arguments.length !== 1 || call.arguments[0].type === 'SpreadElement') continue;
    const callee = call.callee;
    const calleeText = ctx.text(callee);
    const simple = callee.type === 'Identifier' || (callee.type === 'MemberExpression' && !callee.computed && callee.object.type === 'Identifier' &&
      /^[A-Z]/.test(callee.object.name));
    if (simple && !functions.includes(calleeText) && functions.length < MAX_FUNCTIONS) functions.push(calleeText);
  }
  if (functions.length === 0) return;
  for (const call of ctx.nodes('CallExpression')) {
    for (const arg of call.arguments as SyntaxNode[]) {
      if (arg.type === 'SpreadElement' || arg.type === 'Literal' || isFunctionNode(arg) || !ctx.inFunction(arg)) continue;
      for (const fn of functions) {
        ctx.addReplace('apply-function', PRIORS.functionReapply, arg, `${fn}(${ctx.text(arg)})`, Precedence.call);
      }
    }
  }
  for (const ret of ctx.nodes('ReturnStatement')) {
    if (!ret.argument) continue;
    for (const fn of functions) ctx.addReplace('apply-function', PRIORS.functionReapply - 0.02, ret.argument, `${fn}(${ctx.text(ret.argument)})`, Precedence.call);
  }
}
