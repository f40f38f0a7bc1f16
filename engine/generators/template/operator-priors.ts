/**
 * Prior likelihood that an edit of each kind is a real fix. Hand-set to follow the program-repair
 * literature (operator and constant changes, null guards and variable swaps fix real bugs often;
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
  arrowTypedAsComparison: 0.7, // `xs.filter(x > e)` with `x` undeclared: the comparison can only throw; `x => e` was meant
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
  // New families, each after the cheaper edits it could be confused with.
  chainAppend: 0.14, // `.sort()`, `.slice(1)`, `[...new Set(x)]`, `.trim()` appended to a value of the fitting kind
  chainAppendBoth: 0.22, // the same call appended to both matching sides of a comparison
  flipReturns: 0.32, // every boolean a function returns inverted: one flip, made consistent
  consistentLiteral: 0.27, // every occurrence of one literal in comparisons changed by one step
  earlyExit: 0.085, // a new `if (<condition>) return <value>` / `continue` / `break`
  conditionExtension: 0.11, // `cond && x != null`, `cond || i === 0`: a condition given a new sub-expression
  coercion: 0.8, // `new Date(x)`, `Number(x)`, `String(x)` where the throw says the value has the wrong type
  reduceInitial: 0.84, // `.reduce(f)` on an empty list given the identity of its operation
  optionalChainAll: 0.91, // `?.` at every later level of the chain that threw, not one level short
  reusedDefault: 0.5, // a fallback the block applies to a value elsewhere applied where it is missing
  templatePartSkip: 0.16, // the part of a template or object built from a missing value left out
  parseRepair: 0.9, // token edits that make a block parse: the block cannot run without one
  // Data of a shape the block did not expect (operators/data-shape.ts).
  localDefault: 0.93, // a later read of a value the block keeps defaulted in a variable reads the variable: before `?.` there
  receiverArrow: 0.93, // a `function` callback that lost the receiver made an arrow (at the throw)
  siblingFallback: 0.85, // `a.b?.c ?? a.c` for a printed value of a missing object
  keyNormalisationShared: 0.9, // `T[k.toUpperCase()]` where every key of the table the block declares is upper-case
  keyNormalisation: 0.6, // `T[k.toUpperCase()]`, `.toLowerCase()`, `.trim()` for a lookup that missed
  skipMissing: 0.7, // `.filter((x) => x != null)` (or the callback's lookup) before the `.map` whose callback threw
  optionalCallOnWrongType: 0.45, // `x.trim?.()` where `x` is of another type than its method's: after the conversion
} as const;
