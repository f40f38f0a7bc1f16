import { PRIORS } from '../operator-priors.ts';

/** Replacement operators for each operator, with the prior of each replacement. */
export type ReplacementTable = Record<string, ReadonlyArray<readonly [string, number]>>;

const P = PRIORS;

export const BINARY_REPLACEMENTS: ReplacementTable = {
  '<': [['<=', P.boundary], ['>', P.relationalFlip], ['>=', P.relationalOther], ['==', P.relationalToEquality], ['!=', P.relationalToEquality], ['===', P.relationalToEquality - 0.06], ['!==', P.relationalToEquality - 0.06]],
  '<=': [['<', P.boundary], ['>=', P.relationalFlip], ['>', P.relationalOther], ['==', P.relationalToEquality], ['!=', P.relationalToEquality], ['===', P.relationalToEquality - 0.06], ['!==', P.relationalToEquality - 0.06]],
  '>': [['>=', P.boundary], ['<', P.relationalFlip], ['<=', P.relationalOther], ['==', P.relationalToEquality], ['!=', P.relationalToEquality], ['===', P.relationalToEquality - 0.06], ['!==', P.relationalToEquality - 0.06]],
  '>=': [['>', P.boundary], ['<=', P.relationalFlip], ['<', P.relationalOther], ['==', P.relationalToEquality], ['!=', P.relationalToEquality], ['===', P.relationalToEquality - 0.06], ['!==', P.relationalToEquality - 0.06]],
  '==': [['!=', P.equalityFlip], ['<', P.equalityToRelational], ['<=', P.equalityToRelational], ['>', P.equalityToRelational], ['>=', P.equalityToRelational], ['===', P.strictness], ['!==', P.strictness]],
  '!=': [['==', P.equalityFlip], ['<', P.equalityToRelational], ['<=', P.equalityToRelational], ['>', P.equalityToRelational], ['>=', P.equalityToRelational], ['!==', P.strictness], ['===', P.strictness]],
  '===': [['!==', P.equalityFlip], ['<', P.equalityToRelational], ['<=', P.equalityToRelational], ['>', P.equalityToRelational], ['>=', P.equalityToRelational], ['==', P.strictness], ['!=', P.strictness]],
  '!==': [['===', P.equalityFlip], ['<', P.equalityToRelational], ['<=', P.equalityToRelational], ['>', P.equalityToRelational], ['>=', P.equalityToRelational], ['!=', P.strictness], ['==', P.strictness]],
  '&&': [['||', P.logical], ['??', P.nullish]],
  '||': [['&&', P.logical], ['??', P.nullish]],
  '??': [['||', P.nullish], ['&&', P.nullish - 0.1]],
  '+': [['-', P.arithmetic], ['*', P.arithmeticFar], ['/', P.arithmeticFar], ['%', P.arithmeticFar - 0.04], ['**', P.arithmeticFar - 0.08]],
  '-': [['+', P.arithmetic], ['*', P.arithmeticFar], ['/', P.arithmeticFar], ['%', P.arithmeticFar], ['**', P.arithmeticFar - 0.08]],
  '*': [['/', P.arithmetic], ['+', P.arithmetic], ['-', P.arithmeticFar], ['**', P.arithmeticFar], ['%', P.arithmeticFar - 0.04]],
  '/': [['*', P.arithmetic], ['%', P.arithmetic], ['-', P.arithmeticFar], ['+', P.arithmeticFar], ['**', P.arithmeticFar - 0.08]],
  '%': [['/', P.arithmetic], ['-', P.arithmeticFar], ['*', P.arithmeticFar], ['+', P.arithmeticFar - 0.04], ['**', P.arithmeticFar - 0.08]],
  '**': [['*', P.arithmetic], ['/', P.arithmeticFar], ['+', P.arithmeticFar - 0.04], ['-', P.arithmeticFar - 0.04], ['%', P.arithmeticFar - 0.08]],
  '&': [['|', P.arithmeticFar - 0.08], ['^', P.arithmeticFar - 0.12], ['&&', P.arithmeticFar - 0.12]],
  '|': [['&', P.arithmeticFar - 0.08], ['^', P.arithmeticFar - 0.12], ['||', P.arithmeticFar - 0.12]],
  '^': [['|', P.arithmeticFar - 0.1], ['&', P.arithmeticFar - 0.12], ['**', P.arithmeticFar - 0.1]],
  '<<': [['>>', P.arithmeticFar - 0.08], ['>>>', P.arithmeticFar - 0.12]],
  '>>': [['<<', P.arithmeticFar - 0.08], ['>>>', P.arithmeticFar - 0.08]],
  '>>>': [['>>', P.arithmeticFar - 0.08], ['<<', P.arithmeticFar - 0.12]],
};

const A = P.assignmentOperator;
export const ASSIGNMENT_REPLACEMENTS: ReplacementTable = {
  '=': [['+=', A], ['-=', A], ['*=', A - 0.04], ['/=', A - 0.08], ['%=', A - 0.1], ['||=', A - 0.14], ['??=', A - 0.14]],
  '+=': [['-=', A], ['=', A], ['*=', A - 0.04], ['/=', A - 0.1], ['%=', A - 0.12]],
  '-=': [['+=', A], ['=', A], ['*=', A - 0.08], ['/=', A - 0.1], ['%=', A - 0.12]],
  '*=': [['/=', A], ['+=', A - 0.04], ['=', A - 0.04], ['-=', A - 0.08], ['**=', A - 0.1]],
  '/=': [['*=', A], ['%=', A - 0.04], ['=', A - 0.08], ['-=', A - 0.1]],
  '%=': [['/=', A], ['=', A - 0.08], ['*=', A - 0.1]],
  '**=': [['*=', A], ['=', A - 0.08]],
  '||=': [['&&=', A - 0.08], ['??=', A - 0.08], ['=', A - 0.1]],
  '&&=': [['||=', A - 0.08], ['??=', A - 0.1], ['=', A - 0.1]],
  '??=': [['||=', A - 0.08], ['=', A - 0.1]],
  '<<=': [['>>=', A - 0.1]], '>>=': [['<<=', A - 0.1], ['>>>=', A - 0.12]], '>>>=': [['>>=', A - 0.12]],
  '&=': [['|=', A - 0.1]], '|=': [['&=', A - 0.1]], '^=': [['|=', A - 0.12]],
};

/** Every operator text a binary or logical expression may use, longest first for scanning. */
export const BINARY_OPERATOR_TOKENS = [...Object.keys(BINARY_REPLACEMENTS), 'in', 'instanceof'].sort((a, b) => b.length - a.length);
export const ASSIGNMENT_OPERATOR_TOKENS = Object.keys(ASSIGNMENT_REPLACEMENTS).sort((a, b) => b.length - a.length);

/** Replacement families: arithmetic operators change kind of value far less than they seem to. */
export function operatorKind(operator: string): string {
  if (['<', '<=', '>', '>='].includes(operator)) return 'relational';
  if (['==', '!=', '===', '!=='].includes(operator)) return 'equality';
  if (['&&', '||', '??'].includes(operator)) return 'logical';
  if (['+', '-', '*', '/', '%', '**'].includes(operator)) return 'arithmetic';
  return 'bitwise';
}
