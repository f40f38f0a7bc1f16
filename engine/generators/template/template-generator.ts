import type { Block, CandidateSpec, SuspiciousRange } from '../../../core/types.ts';
import { BlockParseError, earlyErrorsOf, parsesAs } from '../../syntax/index.ts';
import { applyEdits, editsDisjoint } from './apply-edits.ts';
import { orderMutations, rankSumPairs } from './candidate-order.ts';
import { editSize, type Mutation } from './mutation.ts';
import { MutationContext, type ErrorInfo } from './mutation-context.ts';
import { normaliseSource } from './normalise-source.ts';
import { parseRepairedCandidates } from './parse-repaired.ts';
import { adjustPrior, type PriorFactors } from './learned-priors.ts';
import { assignBack } from './operators/assign-back.ts';
import { consistentEdits } from './operators/consistent-edits.ts';
import { statementInsertion } from './operators/statement-insertion.ts';
import { conditionMutation } from './operators/condition-mutation.ts';
import { expressionReuse } from './operators/expression-reuse.ts';
import { jsPitfalls } from './operators/js-pitfalls.ts';
import { literalReplacement } from './operators/literal-replacement.ts';
import { generalFamilies } from './operators/general-families.ts';
import { methodReplacement } from './operators/method-replacement.ts';
import { nullSafety } from './operators/null-safety.ts';
import { offByOne } from './operators/off-by-one.ts';
import { operatorChainReplacement, operatorReplacement } from './operators/operator-replacement.ts';
import { redeclaration } from './operators/redeclaration.ts';
import { returnConstant, statementMutation } from './operators/statement-mutation.ts';
import { swaps } from './operators/swaps.ts';
import { termDeletion } from './operators/term-deletion.ts';
import { variableReplacement } from './operators/variable-replacement.ts';
import { wrapping } from './operators/wrapping.ts';

export { applyEdits } from './apply-edits.ts';
export { normaliseSource } from './normalise-source.ts';
export type { ErrorInfo } from './mutation-context.ts';

export interface TemplateOptions {
  /** Most candidates yielded in all (singles and pairs). @defaultValue 20000 */
  maxCandidates?: number;
  /** Whether to combine two single edits once the singles are exhausted. @defaultValue true */
  pairs?: boolean;
  /** Most pair candidates yielded. @defaultValue 5000 */
  maxPairs?: number;
  /**
   * Learned factors per operator family, moving each hand-set prior in odds space (learned-priors.ts).
   * @defaultValue none: the hand-set priors
   */
  priorFactors?: PriorFactors;
}

const DEFAULT_MAX_CANDIDATES = 20_000;
const DEFAULT_MAX_PAIRS = 5_000;

/** Every mutation operator, each adding its mutations of the block to the context. */
const OPERATORS: ReadonlyArray<(ctx: MutationContext) => void> = [
  nullSafety, operatorReplacement, operatorChainReplacement, literalReplacement, offByOne, variableReplacement,
  expressionReuse, termDeletion, swaps, conditionMutation, methodReplacement, wrapping, assignBack, statementMutation, returnConstant,
  redeclaration, jsPitfalls, consistentEdits, statementInsertion, generalFamilies,
];

/** All raw single mutations of a block, unordered and not yet de-duplicated. */
export function collectMutations(block: Block, errorInfo?: ErrorInfo): Mutation[] {
  return analyse(block, errorInfo).mutations;
}

function analyse(block: Block, errorInfo?: ErrorInfo): MutationContext {
  const ctx = new MutationContext(block, errorInfo);
  for (const operator of OPERATORS) operator(ctx);
  return ctx;
}

/**
 * Suspicious ranges for the statements holding the block's early errors, above every other range: a block that
 * does not compile has no coverage, and the fix must touch one of those statements anyway.
 */
function earlyErrorRanges(ctx: MutationContext, suspicious: readonly SuspiciousRange[]): SuspiciousRange[] {
  const top = suspicious.reduce((max, r) => Math.max(max, r.score), 0) + 1;
  const ranges: SuspiciousRange[] = [];
  for (const error of ctx.earlyErrors) {
    const statement = ctx.statementAt(error.offset);
    if (statement) ranges.push({ start: statement.start, end: statement.end, score: top, reason: 'early-error' });
  }
  return ranges;
}

/**
 * Offline repair candidates for a block, lazily, in the order to try them: single edits at the most suspicious
 * locations first (all operators at one location tier, by prior, before the next tier), then pairs of the best
 * single edits. Each candidate is a minimal textual edit of the original, parses in the block's form, and is
 * distinct from the original and every earlier candidate after token normalisation.
 *
 * `suspicious` offsets and `errorInfo.offset` index the ORIGINAL source (map offsets from an instrumented run
 * back with `instrumentForCoverage(...).originalOffset`). With an empty `suspicious` list all locations tie.
 * A block that does not parse gets token-level parse repairs first, then the search on each repaired block
 * (`parse-repaired.ts`); `BlockParseError` (code `SUTURE_BLOCK_PARSE`) is thrown on the first `next()` only when
 * no repair of up to three token edits makes it parse.
 */
export function* generateTemplateCandidates(
  block: Block,
  suspicious: SuspiciousRange[],
  options: TemplateOptions = {},
  errorInfo?: ErrorInfo,
): Generator<CandidateSpec> {
  const maxCandidates = options.maxCandidates ?? DEFAULT_MAX_CANDIDATES;
  const maxPairs = options.maxPairs ?? DEFAULT_MAX_PAIRS;
  const form = block.entry === undefined ? 'expression' : 'entry';
  let ctx: MutationContext;
  try {
    ctx = analyse(block, errorInfo);
  } catch (error) {
    if (!(error instanceof BlockParseError)) throw error;
    yield* parseRepairedCandidates(block, error, options, errorInfo, generateTemplateCandidates);
    return;
  }
  const originalErrors = ctx.earlyErrors.length;
  const ranges = originalErrors > 0 ? [...suspicious, ...earlyErrorRanges(ctx, suspicious)] : suspicious;
  const factors = options.priorFactors;
  const mutations = factors ? ctx.mutations.map((m) => ({ ...m, prior: adjustPrior(m.prior, factors[m.operator]) })) : ctx.mutations;
  const ordered = orderMutations(mutations, ranges);
  const seen = new Set<string>([normaliseSource(block.source)]);
  let yielded = 0;

  /** The candidate for some edits, or undefined when it does not parse or repeats an earlier one. */
  const admit = (mutation: Mutation): CandidateSpec | undefined => {
    let source: string;
    try {
      source = applyEdits(block.source, mutation.edits);
    } catch {
      return undefined;
    }
    const key = normaliseSource(source);
    if (seen.has(key)) return undefined;
    seen.add(key);
    if (originalErrors > 0) {
      // The original does not compile: keep only candidates that remove some of its early errors (pairs of
      // them may remove all), since nothing else can pass.
      const errors = earlyErrorsOf(source, form);
      if (!errors || errors.length >= originalErrors) return undefined;
    } else if (!mutation.safe && !parsesAs(source, form)) return undefined;
    return {
      source,
      generator: `template:${mutation.operator}`,
      edits: mutation.edits,
      description: mutation.description,
      prior: mutation.prior,
      ...(mutation.suspect ? { suspect: true } : {}),
    };
  };

  const accepted: Mutation[] = [];
  for (const mutation of ordered) {
    if (yielded >= maxCandidates) return;
    const candidate = admit(mutation);
    if (!candidate) continue;
    if (!mutation.suspect) accepted.push(mutation);
    yielded++;
    yield candidate;
  }

  if (options.pairs === false || maxPairs <= 0) return;
  // Enough of the best singles that their pairs can fill the budget even after overlapping pairs are skipped.
  const poolSize = Math.min(accepted.length, Math.ceil(Math.sqrt(4 * maxPairs)) + 2);
  let pairs = 0;
  for (const [i, j] of rankSumPairs(poolSize)) {
    if (yielded >= maxCandidates || pairs >= maxPairs) return;
    const a = accepted[i];
    const b = accepted[j];
    if (!editsDisjoint(a.edits, b.edits)) continue;
    const edits = [...a.edits, ...b.edits];
    const pair: Mutation = {
      operator: `${a.operator}+${b.operator}`,
      edits,
      prior: a.prior * b.prior,
      description: `${a.description}; ${b.description}`,
      anchorStart: Math.min(a.anchorStart, b.anchorStart),
      anchorEnd: Math.max(a.anchorEnd, b.anchorEnd),
      size: editSize(edits),
      safe: a.safe && b.safe,
    };
    const candidate = admit(pair);
    if (!candidate) continue;
    pairs++;
    yielded++;
    yield candidate;
  }
}
