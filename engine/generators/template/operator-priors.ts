/**
 * Prior likelihood that an edit of each kind is a real fix. Hand-set to follow the ordering in DESIGN.md's
 * literature section (operator and constant changes, null guards and variable swaps fix real bugs often;
 * statement deletion and constant returns are typical of overfitted patches): null safety at a TypeError's
 * throw site, then operator and constant changes, variable misuse, arithmetic operators, term deletion and
 * missing `+1`, swaps, method misuse, wrapping, and last the overfitting-prone deletions.
 * Only the order of the values matters.
 */
export const PRIORS = {
  nullSafetyAtThrow: 0.92,
  nullGuardAtThrow: 0.86,
  nullDefaultParam: 0.84,
  boundary: 0.74, // < ↔ <=, > ↔ >=
  logical: 0.72, // && ↔ ||
  equalityFlip: 0.72, // == ↔ !=
  relationalFlip: 0.68, // < ↔ >, <= ↔ >=
  relationalOther: 0.6,
  literalStep: 0.66, // n ± 1, true ↔ false
  literalZeroOne: 0.6,
  relationalToEquality: 0.56,
  operatorChain: 0.72, // every `&&` of a condition made `||`: as likely as one logical flip, and consistent
  operatorChainOther: 0.45, // every `<` of an expression made `<=` and the like
  variable: 0.52,
  assignmentOperator: 0.5,
  redeclarationAssign: 0.5, // `let m = x` → `m = x` where `m` is already declared
  redeclarationDelete: 0.46,
  update: 0.5,
  arithmetic: 0.48,
  arithmeticFar: 0.44,
  literalPool: 0.45,
  stringEdit: 0.42,
  nullish: 0.4,
  termDeletion: 0.4,
  offByOneExpression: 0.38,
  expressionReuse: 0.36,
  unaryDeletion: 0.35,
  literalNegation: 0.33,
  identityLiteral: 0.3, // a literal changed so its operation does nothing (`x + 0`): the term deletion, disguised
  mixedLogical: 0.47, // one `&&` of an `a && b && c` chain made `||`: mixes the two without parentheses
  equalityToRelational: 0.42, // `===` → `>=`: equality tests are rarely meant as orderings
  strictness: 0.2, // == ↔ ===
  swap: 0.3,
  consistentFlip: 0.4, // every boolean written to one flag inverted: one flip, made consistent
  consistentSwap: 0.26, // two indexed fields or two parameters swapped everywhere
  jsPitfall: 0.3, // boolean comparator, .map(parseInt), seconds vs milliseconds
  methodFamily: 0.28,
  wrapAbs: 0.24,
  wrapString: 0.2,
  wrapNumber: 0.18,
  assignBack: 0.2,
  conditionNegation: 0.18,
  methodCallDeletion: 0.17,
  nullSafetyElsewhere: 0.15,
  functionReapply: 0.1,
  loopGuard: 0.08,
  missingReset: 0.12, // `x = <its initial value>` in the branch that does not update x
  missingUpdate: 0.1, // `x = <expression of x the block computes>` as a new statement
  missingGuard: 0.09, // a statement wrapped in `if (<condition>)`
  conditionRemoval: 0.07,
  statementDeletion: 0.06,
  returnConstant: 0.05,
} as const;
