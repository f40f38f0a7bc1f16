/**
 * Learns operator priors from a bench report: which operator families produced winners that passed the
 * hidden cases (correct) and which produced winners that failed one (overfitted), on the training bugs.
 *
 * Formula, per operator family o (a pair winner `template:a+b` counts for a and for b; LLM winners and
 * bugs without a judged winner count for nothing):
 *
 *     c(o) = correct winners using o,  v(o) = overfitted winners using o,  m = smoothing pseudo-count (2)
 *     factor(o) = clamp((c(o) + m) / (v(o) + m), 1/4, 4)
 *
 * and the template generator moves o's hand-set prior p by that factor in odds space
 * (engine/generators/template/learned-priors.ts): odds(p') = odds(p) × factor(o). With m = 2 an operator
 * seen on one bug moves its odds by 1.5 (or 1/1.5), never past another operator's hand-set prior on its
 * own; it takes several bugs agreeing to move an operator far, and never beyond a factor of 4.
 */
import { readFile } from 'node:fs/promises';
import type { LearnedOperator, LearnedPriors } from '../engine/index.ts';
import { compareBugIds } from './suite-loader.ts';

export const DEFAULT_SMOOTHING = 2;
const MAX_FACTOR = 4;

/** What the learner reads of each bug of a bench report. */
export interface ReportBug {
  id: string;
  grade: string;
  generator?: string;
}

export interface LearnOptions {
  /** Learn only from these bug ids (the training folds). @defaultValue every bug of the report */
  bugs?: ReadonlySet<string>;
  /** @defaultValue 2 */
  smoothing?: number;
  suite: string;
  report?: string;
}

/** Operator families of a winner's generator: `template:a+b` → [a, b]; not a template winner → []. */
export function operatorFamilies(generator: string | undefined): string[] {
  if (!generator?.startsWith('template:')) return [];
  return [...new Set(generator.slice('template:'.length).split('+').filter(Boolean))];
}

export function learnPriors(bugs: readonly ReportBug[], options: LearnOptions): LearnedPriors {
  const m = options.smoothing ?? DEFAULT_SMOOTHING;
  if (!(m > 0) || !Number.isFinite(m)) throw new RangeError(`smoothing must be a positive number, got ${m}`);
  const counts = new Map<string, { correct: number; overfitted: number }>();
  const used: string[] = [];
  for (const bug of bugs) {
    if (options.bugs && !options.bugs.has(bug.id)) continue;
    used.push(bug.id);
    if (bug.grade !== 'correct' && bug.grade !== 'overfitted') continue;
    for (const op of operatorFamilies(bug.generator)) {
      const row = counts.get(op) ?? { correct: 0, overfitted: 0 };
      row[bug.grade]++;
      counts.set(op, row);
    }
  }
  const operators: Record<string, LearnedOperator> = {};
  for (const op of [...counts.keys()].sort()) {
    const { correct, overfitted } = counts.get(op)!;
    const factor = Math.min(MAX_FACTOR, Math.max(1 / MAX_FACTOR, (correct + m) / (overfitted + m)));
    operators[op] = { correct, overfitted, factor: Number(factor.toFixed(4)) };
  }
  return {
    version: 1,
    formula: `factor = clamp((correct + ${m}) / (overfitted + ${m}), 1/${MAX_FACTOR}, ${MAX_FACTOR}); odds(prior) × factor`,
    smoothing: m,
    trainedOn: { suite: options.suite, ...(options.report ? { report: options.report } : {}), bugs: used.sort(compareBugIds) },
    operators,
  };
}

/** The bugs of a bench report JSON file (as `suture bench --json` writes it; reports written before a bug's grade was named so say `verdict`). */
export async function readReportBugs(file: string): Promise<{ suite: string; bugs: ReportBug[] }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: cannot read a bench report (${(error as Error).message})`);
  }
  const report = parsed as { suite?: unknown; bugs?: unknown };
  if (!report || typeof report.suite !== 'string' || !Array.isArray(report.bugs)) throw new Error(`${file}: not a bench report (expected "suite" and "bugs")`);
  const bugs: ReportBug[] = [];
  for (const [i, b] of (report.bugs as Record<string, unknown>[]).entries()) {
    const grade = b?.grade ?? b?.verdict;
    if (!b || typeof b.id !== 'string' || typeof grade !== 'string') throw new Error(`${file}: bugs[${i}] needs "id" and "grade"`);
    bugs.push({ id: b.id, grade, ...(typeof b.generator === 'string' ? { generator: b.generator } : {}) });
  }
  return { suite: report.suite, bugs };
}
