import type { SyntaxNode } from '../../../syntax/index.ts';
import { Precedence } from '../expression-precedence.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';
import { REALM_GLOBALS } from '../../../../core/block-free-names.ts';
import { operatorRange } from './operator-replacement.ts';

const RELATIONAL = new Set(['<', '<=', '>', '>=']);
/** Built-ins whose second parameter changes their meaning when passed straight to map/forEach/filter. */
const ARITY_TRAPS: Record<string, string[]> = {
  parseInt: ['Number', '(value) => parseInt(value, 10)'],
  parseFloat: ['Number'],
};
const ITERATION_METHODS = new Set(['map', 'forEach', 'filter', 'flatMap', 'some', 'every', 'find', 'findIndex']);
/** Methods whose first argument is a callback. */
const CALLBACK_METHODS = new Set([...ITERATION_METHODS, 'findLast', 'findLastIndex', 'reduce', 'reduceRight', 'sort', 'toSorted']);
/** Variable and property names that hold a time in seconds or milliseconds. */
const TIME_NAME = /(exp|iat|nbf|at|time|timestamp|epoch|seconds|secs|ms|millis|deadline|expires?)$/i;

/**
 * Bugs that come from JavaScript itself rather than from the program's logic, each a known pitfall:
 * - a sort comparator returning a boolean (`(a, b) => a > b`) instead of a signed number: `a - b`, `b - a`;
 * - a function whose optional second parameter receives the iteration index (`.map(parseInt)`);
 * - string concatenation where numbers were meant (`a + b` with a numeric string): `Number(b)`;
 * - seconds where milliseconds were meant in `new Date(...)` and time arithmetic: `× 1000` and `÷ 1000`;
 * - an arrow callback typed as a comparison (`xs.filter(x > limit)` for `xs.filter(x => limit)`, or `x >= …`
 *   with the two characters swapped): the first argument of a method that takes a callback starts with a
 *   name nothing declares, no global provides and the block does not use from outside, followed by `>` or
 *   `>=`. Read as a comparison it can only throw ReferenceError; the operator becomes `=>` and the rest of
 *   the argument is the callback's body.
 */
export function jsPitfalls(ctx: MutationContext): void {
  for (const call of ctx.nodes('CallExpression')) {
    const callee = call.callee;
    if (callee.type !== 'MemberExpression' || callee.computed) continue;
    const method = callee.property.name as string;
    const fn = call.arguments[0] as SyntaxNode | undefined;
    if (!fn) continue;
    if ((method === 'sort' || method === 'toSorted') && isFunction(fn)) booleanComparator(ctx, fn);
    if (CALLBACK_METHODS.has(method)) arrowTypedAsComparison(ctx, fn);
    if (ITERATION_METHODS.has(method) && fn.type === 'Identifier' && ARITY_TRAPS[fn.name]) {
      for (const replacement of ARITY_TRAPS[fn.name]) {
        ctx.addReplace('arity-trap', PRIORS.jsPitfall, fn, replacement, Precedence.assignment);
      }
    }
  }
  for (const node of ctx.nodes('BinaryExpression')) {
    if (node.operator !== '+' || !ctx.inFunction(node)) continue;
    for (const side of [node.left, node.right] as SyntaxNode[]) {
      if (side.type === 'Literal' || side.type === 'TemplateLiteral') continue;
      if (side.type === 'CallExpression' && side.callee.type === 'Identifier' && side.callee.name === 'Number') continue;
      ctx.addReplace('wrap-number', PRIORS.wrapNumber, side, `Number(${ctx.text(side)})`, Precedence.call);
    }
  }
  for (const node of ctx.nodes('NewExpression')) {
    if (node.callee.type !== 'Identifier' || node.callee.name !== 'Date' || node.arguments.length !== 1) continue;
    const arg = node.arguments[0] as SyntaxNode;
    if (arg.type === 'Literal' && typeof arg.value === 'string') continue;
    unitScaling(ctx, arg);
  }
}

function isFunction(node: SyntaxNode): boolean {
  return node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression';
}

function booleanComparator(ctx: MutationContext, fn: SyntaxNode): void {
  const returned: SyntaxNode[] = [];
  if (fn.body.type !== 'BlockStatement') returned.push(fn.body);
  else for (const ret of ctx.nodes('ReturnStatement')) if (ret.argument && ctx.functionOf(ret) === fn) returned.push(ret.argument);
  for (const value of returned) {
    if (value.type !== 'BinaryExpression' || !RELATIONAL.has(value.operator)) continue;
    const left = ctx.operand(value.left, Precedence.additive + 1);
    const right = ctx.operand(value.right, Precedence.additive + 1);
    // `a > b` sorts descending when true means "a first": b - a; ascending otherwise.
    const [first, second] = value.operator.startsWith('>') ? [right, left] : [left, right];
    ctx.addReplace('comparator', PRIORS.jsPitfall, value, `${first} - ${second}`, Precedence.additive);
    ctx.addReplace('comparator', PRIORS.jsPitfall - 0.05, value, `${second} - ${first}`, Precedence.additive);
  }
}

function unitScaling(ctx: MutationContext, arg: SyntaxNode): void {
  const name = arg.type === 'Identifier' ? arg.name : arg.type === 'MemberExpression' && !arg.computed ? arg.property.name : '';
  const prior = TIME_NAME.test(String(name)) ? PRIORS.jsPitfall : PRIORS.wrapNumber;
  ctx.addReplace('time-unit', prior, arg, `${ctx.operand(arg, Precedence.multiplicative)} * 1000`, Precedence.multiplicative);
  ctx.addReplace('time-unit', prior - 0.05, arg, `${ctx.operand(arg, Precedence.multiplicative)} / 1000`, Precedence.multiplicative);
}

/** `x > body` (or `x >= body`) as the callback argument `arg`, `x` undeclared: `x => body`. */
function arrowTypedAsComparison(ctx: MutationContext, arg: SyntaxNode): void {
  // The comparison whose left operand is the argument's first token: `x > a < 1` is `(x > a) < 1`.
  let node = arg;
  while ((node.type === 'BinaryExpression' || node.type === 'LogicalExpression') && node.left.type !== 'Identifier') node = node.left;
  if (node.type !== 'BinaryExpression' || (node.operator !== '>' && node.operator !== '>=')) return;
  const param = node.left;
  if (param.type !== 'Identifier' || param.start !== arg.start) return;
  if (ctx.scopes.resolve(param) || REALM_GLOBALS.has(param.name) || ctx.block.uses?.includes(param.name)) return;
  const range = operatorRange(ctx, node);
  if (!range) return;
  ctx.add('arrow-callback', node.operator === '>' ? PRIORS.arrowTypedAsComparison : PRIORS.arrowTypedAsComparison - 0.1, arg,
    [{ start: range.start, end: range.end, text: '=>' }],
    `make \`${param.name} ${node.operator} …\` the callback \`${param.name} => …\` at ${ctx.position(param.start)}`);
}
