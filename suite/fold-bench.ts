/**
 * The bench on folds of a suite (folds.ts): each measured fold is repaired with operator priors learned
 * (prior-learner.ts) from a previous full run of the suite, either from the other folds (out-of-fold: what
 * the engine does on bugs the priors never saw) or from every fold (in-fold: what it does on bugs the
 * priors were learned from). The gap between the two is how much the learning flatters itself.
 */
import { loadSuite } from './suite-loader.ts';
import { runBench, type BenchOptions, type BenchReport } from './bench-runner.ts';
import { bugsOfFold, checkFold, RESERVED_FOLD, splitFolds, suiteBugIds, trainingBugs } from './folds.ts';
import { learnPriors, readReportBugs } from './prior-learner.ts';
import { priorFactors, type LearnedPriors } from '../engine/index.ts';

export type FoldRole = 'in' | 'out';

export interface FoldBenchOptions extends Omit<BenchOptions, 'only' | 'priorFactors'> {
  /** Number of folds. */
  k: number;
  /** Folds to measure. @defaultValue every fold but the reserved one */
  folds?: number[];
  /** @defaultValue ['out'] */
  roles?: FoldRole[];
  /** A bench report (JSON) of a full run of the same suite: what the priors are learned from. */
  priorsFrom: string;
  /** The reserved fold is measured only with this set. */
  openReserved?: boolean;
  /** Only these bugs of the measured folds (development runs). */
  only?: string[];
  onRunStart?: (fold: number, role: FoldRole, bugs: number) => void;
}

export interface FoldRun {
  fold: number;
  role: FoldRole;
  bugs: string[];
  /** Bugs of the training folds that the report had (learned from). */
  trainedOn: number;
  priors: LearnedPriors;
  summary: BenchReport['summary'];
  report: BenchReport;
}

export interface FoldBenchReport {
  suite: string;
  k: number;
  reservedFold: number;
  split: string;
  priorsFrom: string;
  runs: FoldRun[];
}

export const SPLIT_RULE = 'bugs in natural id order; the bug at position p (in the whole suite) is in fold p mod k';

export async function runFoldBench(options: FoldBenchOptions): Promise<FoldBenchReport> {
  const ids = await suiteBugIds(options.suiteDir);
  const split = splitFolds(ids, options.k);
  const folds = options.folds ?? Array.from({ length: options.k }, (_, f) => f).filter((f) => f !== RESERVED_FOLD);
  for (const f of folds) {
    checkFold(options.k, f);
    if (f === RESERVED_FOLD && !options.openReserved) {
      throw new Error(`fold ${RESERVED_FOLD} is the reserved fold, measured once at the end: pass --open-reserved to run it`);
    }
  }
  const roles = options.roles ?? ['out'];
  const { suite: reportSuite, bugs: reportBugs } = await readReportBugs(options.priorsFrom);
  const suiteName = (await loadSuite(options.suiteDir, { only: [ids[0]] })).name;
  if (reportSuite !== suiteName) throw new Error(`${options.priorsFrom} is a report of suite "${reportSuite}", not "${suiteName}"`);
  const inReport = new Set(reportBugs.map((b) => b.id));

  const runs: FoldRun[] = [];
  for (const fold of folds) {
    let bugs = bugsOfFold(split, fold);
    if (options.only) {
      const wanted = new Set(options.only);
      bugs = bugs.filter((id) => wanted.has(id) || wanted.has(id.replaceAll('/', '-')));
      if (bugs.length === 0) continue;
    }
    for (const role of roles) {
      const training = trainingBugs(split, fold, role);
      const priors = learnPriors(reportBugs, { bugs: training, suite: suiteName, report: options.priorsFrom });
      options.onRunStart?.(fold, role, bugs.length);
      const report = await runBench({ ...options, only: bugs, priorFactors: priorFactors(priors) });
      runs.push({ fold, role, bugs, trainedOn: [...training].filter((id) => inReport.has(id)).length, priors, summary: report.summary, report });
    }
  }
  return { suite: suiteName, k: options.k, reservedFold: RESERVED_FOLD, split: SPLIT_RULE, priorsFrom: options.priorsFrom, runs };
}
