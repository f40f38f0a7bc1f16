/**
 * Operator priors learned from bench runs, applied on top of the hand-set ones (operator-priors.ts).
 *
 * A learned table gives each operator family (the `operator` of a mutation, e.g. `boundary-flip`; the
 * generator of its candidate is `template:<operator>`) a factor. A mutation's prior p becomes the p' with
 *
 *     odds(p') = odds(p) × factor,   odds(p) = p / (1 − p)
 *
 * so the hand-set order stays the base, values stay within (0, 1), and an operator absent from the table
 * keeps its hand-set prior. A pair candidate takes the product of its two adjusted priors as before.
 * The factors come from suite/prior-learner.ts (see the formula there).
 */

export interface LearnedOperator {
  /** Training bugs whose winner used this operator and passed every hidden case. */
  correct: number;
  /** Training bugs whose winner used this operator and failed a hidden case. */
  overfitted: number;
  /** Multiplies the odds of the operator's hand-set prior. */
  factor: number;
}

export interface LearnedPriors {
  version: 1;
  /** The formula that made the factors, in words (for whoever reads the file). */
  formula: string;
  /** Pseudo-count of the smoothing (see suite/prior-learner.ts). */
  smoothing: number;
  /** Where the counts came from: the suite, the report file, and the bugs learned from. */
  trainedOn: { suite: string; report?: string; bugs: string[] };
  operators: Record<string, LearnedOperator>;
}

/** The factor for each operator family, for the template generator. */
export type PriorFactors = Readonly<Record<string, number>>;

export function priorFactors(learned: LearnedPriors): PriorFactors {
  return Object.fromEntries(Object.entries(learned.operators).map(([op, row]) => [op, row.factor]));
}

/** A hand-set prior moved by a learned factor in odds space (see the module comment). */
export function adjustPrior(prior: number, factor: number | undefined): number {
  if (factor === undefined || factor === 1 || !(factor > 0) || !Number.isFinite(factor)) return prior;
  const p = Math.min(1 - 1e-6, Math.max(1e-6, prior));
  const odds = (p / (1 - p)) * factor;
  return odds / (1 + odds);
}

/** Checks the shape of a learned-priors file; throws a message naming the first problem. */
export function parseLearnedPriors(text: string, source = 'learned priors'): LearnedPriors {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: not JSON (${(error as Error).message})`);
  }
  const v = value as Partial<LearnedPriors> | null;
  if (!v || typeof v !== 'object' || v.version !== 1) throw new Error(`${source}: expected {"version": 1, ...}`);
  if (!v.operators || typeof v.operators !== 'object') throw new Error(`${source}: "operators" must be an object`);
  for (const [op, row] of Object.entries(v.operators)) {
    if (!row || typeof row.factor !== 'number' || !(row.factor > 0) || !Number.isFinite(row.factor)) {
      throw new Error(`${source}: operators.${op}.factor must be a positive number`);
    }
  }
  return v as LearnedPriors;
}
