import { availableParallelism } from 'node:os';
import type { Case } from '../core/types.ts';
import { SandboxPool, repairBlock, type RepairResult, type LlmGenerator, type PriorFactors } from '../engine/index.ts';
import { loadSuite, type SuiteBug } from './suite-loader.ts';

export interface BenchOptions {
  suiteDir: string;
  /** @defaultValue ['template'] */
  generators?: ('template' | 'llm')[];
  llm?: LlmGenerator;
  /** Search budget per bug, seconds. @defaultValue 30 */
  budgetSeconds?: number;
  /** Bugs repaired at once. @defaultValue 1 */
  jobs?: number;
  /** Sandbox host processes. @defaultValue os.availableParallelism() */
  sandboxes?: number;
  /** Only these bug ids. */
  only?: string[];
  /** Learned factors per template operator family (see suite/prior-learner.ts). @defaultValue the hand-set priors */
  priorFactors?: PriorFactors;
  onBugStart?: (bug: SuiteBug) => void;
  onBugDone?: (run: BugRun, done: number, total: number) => void;
}

/**
 * A bench run's grade of one bug, what its winner is worth: `correct` passes hidden cases the search never saw;
 * `overfitted` is plausible but fails one; `unverified` is plausible for a bug with no hidden case,
 * so nothing beyond the visible cases vouches for it (never counted as correct).
 */
export type BugGrade = 'correct' | 'overfitted' | 'unverified' | 'not-fixed' | 'error';

export interface BugRun {
  id: string;
  bugType?: string;
  grade: BugGrade;
  plausible: boolean;
  /** Plausible and passes every hidden case, of which there is at least one. */
  correct: boolean;
  seconds: number;
  /** Seconds to the first plausible candidate. */
  firstPlausibleSeconds?: number;
  /** Candidates tried. */
  candidates: number;
  /** Case executions in the sandbox (search, baseline and localisation; not the hidden-case judging). */
  trials: number;
  visibleCases: number;
  hiddenCases: number;
  hiddenPassed: number;
  generator?: string;
  description?: string;
  diff?: string;
  plausibleCount: number;
  /** Whether the cases decided between the plausible candidates (engine/oracle/confidence.ts). */
  confidence?: 'high' | 'low';
  confidenceReason?: string;
  stoppedBy: RepairResult['stoppedBy'] | 'error';
  error?: string;
}

export interface BenchReport {
  suite: string;
  summary: {
    bugs: number;
    plausible: number;
    /** Plausible and passing every hidden case (bugs with hidden cases only). */
    correct: number;
    /** Plausible for a bug without hidden cases: nothing judged the winner beyond the visible cases. */
    unverified: number;
    /** Plausible bugs with hidden cases (correct + overfitted): what overfitting is measured against. */
    verifiedPlausible: number;
    /** Plausible but failing a hidden case: overfitted patches. */
    overfitted: number;
    /** overfitted / verifiedPlausible, 0..1; null when no plausible bug had hidden cases. */
    overfittedShare: number | null;
    /** Plausible with low confidence (published only with approval); counted in plausible, correct and overfitted too. */
    lowConfidence: number;
    lowConfidenceCorrect: number;
    lowConfidenceOverfitted: number;
    /**
     * Overfitted among the judged plausible winners with high confidence (those a policy would publish
     * without approval), 0..1; null when there is none. Not a replacement for overfittedShare, which counts all.
     */
    highConfidenceOverfittedShare: number | null;
    medianSecondsToPlausible: number | null;
    trialsPerSecond: number;
    seconds: number;
    generators: string[];
    budgetSeconds: number;
  };
  bugs: BugRun[];
}

/** Repairs every bug of a suite with the engine and judges the winners on the hidden cases. */
export async function runBench(options: BenchOptions): Promise<BenchReport> {
  const suite = await loadSuite(options.suiteDir, { only: options.only });
  const budgetSeconds = options.budgetSeconds ?? 30;
  const generators = options.generators ?? ['template'];
  const pool = new SandboxPool({ size: options.sandboxes ?? availableParallelism() });
  const started = performance.now();
  const runs: BugRun[] = new Array(suite.bugs.length);
  let next = 0;
  let done = 0;
  try {
    const worker = async () => {
      while (next < suite.bugs.length) {
        const index = next++;
        const bug = suite.bugs[index];
        options.onBugStart?.(bug);
        runs[index] = await repairOne(bug, pool, generators, budgetSeconds, options.llm, options.priorFactors);
        options.onBugDone?.(runs[index], ++done, suite.bugs.length);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.jobs ?? 1) }, worker));
  } finally {
    await pool.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const firsts = runs.flatMap((o) => (o.firstPlausibleSeconds !== undefined ? [o.firstPlausibleSeconds] : []));
  const searchSeconds = runs.reduce((s, o) => s + o.seconds, 0);
  const trialCount = runs.reduce((s, o) => s + o.trials, 0);
  const count = (v: BugGrade) => runs.filter((o) => o.grade === v).length;
  const verifiedPlausible = count('correct') + count('overfitted');
  const low = runs.filter((o) => o.plausible && o.confidence === 'low');
  const lowCount = (v: BugGrade) => low.filter((o) => o.grade === v).length;
  const highJudged = verifiedPlausible - lowCount('correct') - lowCount('overfitted');
  return {
    suite: suite.name,
    summary: {
      bugs: runs.length,
      plausible: runs.filter((o) => o.plausible).length,
      correct: count('correct'),
      unverified: count('unverified'),
      verifiedPlausible,
      overfitted: count('overfitted'),
      overfittedShare: verifiedPlausible > 0 ? count('overfitted') / verifiedPlausible : null,
      lowConfidence: low.length,
      lowConfidenceCorrect: lowCount('correct'),
      lowConfidenceOverfitted: lowCount('overfitted'),
      highConfidenceOverfittedShare: highJudged > 0 ? (count('overfitted') - lowCount('overfitted')) / highJudged : null,
      medianSecondsToPlausible: median(firsts),
      trialsPerSecond: searchSeconds > 0 ? trialCount / (searchSeconds / Math.max(1, options.jobs ?? 1)) : 0,
      seconds,
      generators,
      budgetSeconds,
    },
    bugs: runs,
  };
}

async function repairOne(bug: SuiteBug, pool: SandboxPool, generators: ('template' | 'llm')[], budgetSeconds: number, llm?: LlmGenerator, priorFactors?: PriorFactors): Promise<BugRun> {
  const started = performance.now();
  const base = { id: bug.id, bugType: bug.bugType, visibleCases: bug.cases.length, hiddenCases: bug.hidden.length };
  try {
    const result = await repairBlock(bug.block, bug.cases, { pool, generators, llm, budgetMs: budgetSeconds * 1000, priorFactors });
    const winner = result.winner;
    let hiddenPassed = 0;
    if (winner && bug.hidden.length > 0) hiddenPassed = await countPasses(pool, { ...bug.block, source: winner.source }, bug.hidden);
    const plausible = result.plausible;
    const grade: BugGrade = !plausible ? 'not-fixed' : bug.hidden.length === 0 ? 'unverified' : hiddenPassed === bug.hidden.length ? 'correct' : 'overfitted';
    return {
      ...base,
      grade,
      plausible,
      correct: grade === 'correct',
      seconds: (performance.now() - started) / 1000,
      firstPlausibleSeconds: result.firstPlausibleMs !== undefined ? result.firstPlausibleMs / 1000 : undefined,
      candidates: result.tried,
      trials: result.trials,
      hiddenPassed,
      generator: winner?.generator,
      description: winner?.description,
      diff: winner?.diff,
      plausibleCount: result.candidates.filter((c) => c.status === 'plausible').length,
      ...(result.confidence ? { confidence: result.confidence.level, confidenceReason: result.confidence.reason } : {}),
      stoppedBy: result.stoppedBy,
    };
  } catch (error) {
    return { ...base, grade: 'error', plausible: false, correct: false, seconds: (performance.now() - started) / 1000, candidates: 0, trials: 0, hiddenPassed: 0, plausibleCount: 0, stoppedBy: 'error', error: String((error as Error)?.message ?? error) };
  }
}

async function countPasses(pool: SandboxPool, block: SuiteBug['block'], cases: Case[]): Promise<number> {
  const report = await pool.run({ block, cases });
  if (report.compileError) return 0;
  return report.results.filter((r) => r.verdict === 'pass').length;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
