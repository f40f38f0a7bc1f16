import type { SyntaxNode } from '../../../syntax/index.ts';
import type { Mutation } from '../mutation.ts';
import { Precedence } from '../expression-precedence.ts';
import type { MutationContext } from '../mutation-context.ts';
import { PRIORS } from '../operator-priors.ts';
import { numberLike, quoteLike } from '../source-text.ts';
import { literalPool, numericValue, valueLiterals } from './literal-pools.ts';

/** Literal replacement: numbers ±1, 0/1, negation and other numbers of the block; booleans; strings; null. */
export function literalReplacement(ctx: MutationContext): void {
  const pool = literalPool(ctx);
  const numbers = pool.filter((l) => l.kind === 'number').map((l) => l.value as number);
  const strings = pool.filter((l) => l.kind === 'string').map((l) => l.value as string);

  for (const literal of valueLiterals(ctx)) {
    const parent = ctx.parent(literal);
    if (typeof literal.value === 'number') {
      // `-2` is one constant: mutate the negation as a whole.
      const negated = parent?.type === 'UnaryExpression' && parent.operator === '-';
      numberMutations(ctx, negated ? parent : literal, numericValue(negated ? parent : literal)!, literal.raw, numbers);
    } else if (typeof literal.value === 'boolean') {
      markSafe(ctx.addReplace('literal', PRIORS.literalStep, literal, String(!literal.value), Precedence.primary), literal);
    } else if (typeof literal.value === 'string') {
      stringMutations(ctx, literal, strings);
    } else if (literal.value === null && literal.raw === 'null') {
      ctx.addReplace('literal', PRIORS.literalPool, literal, 'undefined', Precedence.primary);
    }
  }
  for (const id of ctx.nodes('Identifier')) {
    if (id.name === 'undefined' && ctx.scopes.role(id) === 'read' && !ctx.scopes.declaredNames.has('undefined')) {
      ctx.addReplace('literal', PRIORS.literalPool, id, 'null', Precedence.primary);
    }
  }
}

function numberMutations(ctx: MutationContext, node: SyntaxNode, value: number, raw: string, pool: number[]): void {
  const seen = new Set<number>([value]);
  const offer = (next: number, prior: number): void => {
    if (!Number.isFinite(next) || seen.has(next)) return;
    seen.add(next);
    const text = numberLike(raw, next);
    // `j + 1` → `j + 0` is the term deletion `j` written as a no-op: real fixes do not leave `+ 0` or `* 1` behind.
    if (makesIdentity(ctx, node, next)) prior = Math.min(prior, PRIORS.identityLiteral);
    const mutation = ctx.addReplace('literal', prior, node, text, next < 0 ? Precedence.unary : Precedence.primary);
    // `1..toString()` and `-x ** 2` are the cases where a number's spelling changes the parse.
    const parent = ctx.parent(node);
    if (next >= 0 && node.type === 'Literal' && !(parent?.type === 'MemberExpression' && ctx.key(node) === 'object')) markSafe(mutation, node);
  };
  offer(value + 1, PRIORS.literalStep);
  offer(value - 1, PRIORS.literalStep);
  offer(0, PRIORS.literalZeroOne);
  offer(1, PRIORS.literalZeroOne);
  for (const other of pool) offer(other, PRIORS.literalPool);
  offer(-value, PRIORS.literalNegation);
}

/** Whether `node` becoming `value` turns its binary parent into an identity (`x + 0`, `0 + x`, `x - 0`, `x * 1`, `x / 1`, `x ** 1`). */
function makesIdentity(ctx: MutationContext, node: SyntaxNode, value: number): boolean {
  const parent = ctx.parent(node);
  if (parent?.type !== 'BinaryExpression') return false;
  const right = ctx.key(node) === 'right';
  switch (parent.operator) {
    case '+': return value === 0;
    case '-': return value === 0 && right;
    case '*': return value === 1;
    case '/':
    case '**': return value === 1 && right;
    default: return false;
  }
}

const CHARACTER_FAMILIES = ['()[]{}<>', ',;:.', ' _-', '+-*/%', '\'"`'];

function stringMutations(ctx: MutationContext, literal: SyntaxNode, pool: string[]): void {
  const value = literal.value as string;
  const seen = new Set<string>([value]);
  const offer = (next: string, prior: number): void => {
    if (seen.has(next)) return;
    seen.add(next);
    markSafe(ctx.addReplace('string', prior, literal, quoteLike(literal.raw, next), Precedence.primary), literal);
  };
  if (value === '') offer(' ', PRIORS.stringEdit);
  if (value === ' ') offer('', PRIORS.stringEdit);
  // A run of one character (`'--'`, `'  '`) is a count written out: step it like a number.
  if (/^(.)\1*$/su.test(value)) {
    offer(value.slice(0, -1), PRIORS.stringEdit);
    offer(value + value[0], PRIORS.stringEdit - 0.04);
  }
  // One punctuation character confused with a sibling: `'('` for `'['`, `'>'` for `'<'`, `','` for `';'`.
  for (const family of CHARACTER_FAMILIES) {
    if (value.length === 1 && family.includes(value)) for (const other of family) offer(other, PRIORS.stringEdit - 0.04);
  }
  offer(value.toUpperCase(), PRIORS.stringEdit - 0.06);
  offer(value.toLowerCase(), PRIORS.stringEdit - 0.06);
  for (const other of pool) offer(other, PRIORS.literalPool);
  if (value.trim() !== value) offer(value.trim(), PRIORS.stringEdit - 0.06);
}

/** A literal swapped for a literal in place (no shorthand or spacing adjustments) cannot break the syntax. */
function markSafe(mutation: Mutation | undefined, node: SyntaxNode): void {
  if (mutation && mutation.edits.length === 1 && mutation.edits[0].start === node.start && mutation.edits[0].end === node.end) mutation.safe = true;
}
