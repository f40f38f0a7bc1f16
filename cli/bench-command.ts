import { readFile, writeFile } from 'node:fs/promises';
import { Command, InvalidArgumentError } from 'commander';
import { runBench, type BenchReport, type BugRun } from '../suite/bench-runner.ts';
import { LlmGenerator, parseLearnedPriors, priorFactors } from '../engine/index.ts';
import { ProgressLine } from './progress-line.ts';
import { runFoldBench, type FoldBenchReport, type FoldRole } from '../suite/fold-bench.ts';

export function benchCommand(): Command {
  return new Command('bench')
    .description('Repair every bug of a suite (BugsInPy-style layout) and report plausible and correct counts')
    .requiredOption('--suite <dir>', 'suite directory (suite.json + bugs/<id>/...)')
    .option('--generators <list>', 'candidate generators: template, llm or template,llm', parseGenerators, ['template'])
    .option('--budget <seconds>', 'search budget per bug, seconds', parsePositive, 30)
    .option('--jobs <n>', 'bugs repaired at once', parsePositive, 1)
    .option('--sandboxes <n>', 'sandbox host processes (default: one per core)', parsePositive)
    .option('--only <ids>', 'comma-separated bug ids to run')
    .option('--json <file>', 'write the full report as JSON to this file')
    .option('--diffs', 'print the winning diff of every bug', false)
    .option('--priors <file>', 'learned operator priors (suture priors learn --out FILE) on top of the hand-set ones')
    .option('--folds <k>', 'split the suite into k folds (bug at position p in id order is in fold p mod k) and measure folds', parseInteger)
    .option('--fold <list>', 'with --folds: the folds to measure, comma-separated (default: all but the reserved fold 0)', parseList)
    .option('--fold-role <role>', 'with --folds: out (priors learned from the other folds), in (from all folds) or both', parseRole, 'out')
    .option('--priors-from <report>', 'with --folds: a bench JSON report of a full run of the suite, to learn the priors from')
    .option('--open-reserved', 'with --folds: allow measuring the reserved fold 0 (once, at the end)', false)
    .action(async (opts) => {
      const generators = opts.generators as ('template' | 'llm')[];
      let llm: LlmGenerator | undefined;
      if (generators.includes('llm')) {
        const model = process.env.SUTURE_LLM_MODEL;
        if (!model) throw new InvalidArgumentError('--generators llm needs SUTURE_LLM_MODEL (and OPENAI_BASE_URL / OPENAI_API_KEY)');
        llm = new LlmGenerator({ model });
      }
      const progress = new ProgressLine(process.stderr);
      const only = opts.only ? String(opts.only).split(',').map((s: string) => s.trim()).filter(Boolean) : undefined;
      if (opts.folds !== undefined) {
        if (!opts.priorsFrom) throw new InvalidArgumentError('--folds needs --priors-from REPORT.json: a full run of the suite (suture bench --suite DIR --json REPORT.json) to learn the priors from');
        if (opts.priors) throw new InvalidArgumentError('--folds learns its priors from --priors-from; --priors is for a single run');
        const folds = await runFoldBench({
          suiteDir: opts.suite,
          k: opts.folds,
          folds: opts.fold?.map((f: string) => parseInteger(f)),
          roles: opts.foldRole === 'both' ? ['in', 'out'] : [opts.foldRole],
          priorsFrom: opts.priorsFrom,
          openReserved: Boolean(opts.openReserved),
          generators,
          llm,
          budgetSeconds: opts.budget,
          jobs: opts.jobs,
          sandboxes: opts.sandboxes,
          only,
          onRunStart: (fold, role, bugs) => process.stderr.write(`fold ${fold} (${role === 'out' ? 'out-of-fold' : 'in-fold'} priors): ${bugs} bugs\n`),
          onBugDone: (o, done, total) => progress.update(done, total, `${o.id} ${grade(o)}`, line(o)),
        });
        progress.finish();
        for (const run of folds.runs) printReport(run.report, Boolean(opts.diffs));
        printFolds(folds);
        if (opts.json) {
          await writeFile(opts.json, JSON.stringify(folds, null, 2) + '\n');
          process.stderr.write(`wrote ${opts.json}\n`);
        }
        return;
      }
      if (opts.fold || opts.priorsFrom || opts.openReserved) throw new InvalidArgumentError('--fold, --priors-from and --open-reserved need --folds');
      const learned = opts.priors ? parseLearnedPriors(await readFile(opts.priors, 'utf8'), opts.priors) : undefined;
      const report = await runBench({
        suiteDir: opts.suite,
        generators,
        llm,
        budgetSeconds: opts.budget,
        jobs: opts.jobs,
        sandboxes: opts.sandboxes,
        only,
        priorFactors: learned ? priorFactors(learned) : undefined,
        onBugDone: (o, done, total) => progress.update(done, total, `${o.id} ${grade(o)}`, line(o)),
      });
      progress.finish();
      printReport(report, Boolean(opts.diffs));
      if (opts.json) {
        await writeFile(opts.json, JSON.stringify(report, null, 2) + '\n');
        process.stderr.write(`wrote ${opts.json}\n`);
      }
    });
}

function grade(o: BugRun): string {
  const v = o.grade === 'not-fixed' ? 'not fixed' : o.grade;
  return o.plausible && o.confidence === 'low' ? `${v}?` : v;
}

function line(o: BugRun): string {
  return [
    o.id.padEnd(16),
    grade(o).padEnd(11),
    `${o.seconds.toFixed(1)}s`.padStart(7),
    String(o.candidates).padStart(7),
    String(o.trials).padStart(8),
    `${o.hiddenPassed}/${o.hiddenCases}`.padStart(7),
    ' ' + (o.error ?? o.description ?? ''),
  ].join(' ');
}

function printReport(report: BenchReport, diffs: boolean) {
  const out = process.stdout;
  out.write(`\n(a grade ending in ? is a plausible winner with low confidence)\n${'bug'.padEnd(16)} ${'grade'.padEnd(11)} ${'time'.padStart(7)} ${'cands'.padStart(7)} ${'trials'.padStart(8)} ${'hidden'.padStart(7)}  winner\n`);
  for (const o of report.bugs) {
    out.write(line(o) + '\n');
    if (diffs && o.diff) out.write(o.diff.split('\n').slice(2).map((l) => '    ' + l).join('\n') + '\n');
  }
  const s = report.summary;
  out.write(`\nsuite ${report.suite}: ${s.bugs} bugs, generators ${s.generators.join(',')}, budget ${s.budgetSeconds}s per bug\n`);
  out.write(`${benchFigures(s)}\n`);
  out.write(`median seconds to first plausible ${s.medianSecondsToPlausible?.toFixed(2) ?? '-'}, trials per second ${s.trialsPerSecond.toFixed(0)}, total ${s.seconds.toFixed(1)} s\n`);
}

/**
 * The headline: `correct` counts only winners judged on hidden cases; a plausible winner for a bug
 * without hidden cases is `unverified`, apart; overfitting is a share of the judged plausible ones.
 */
export function benchFigures(s: BenchReport['summary']): string {
  const pct = (n: number, of: number) => (of ? ((100 * n) / of).toFixed(1) : '0.0');
  return [
    `plausible ${s.plausible} (${pct(s.plausible, s.bugs)} %)`,
    `correct ${s.correct} (${pct(s.correct, s.bugs)} %)`,
    `unverified ${s.unverified} (plausible, no hidden case to judge)`,
    `overfitted ${s.overfitted} (${pct(s.overfitted, s.verifiedPlausible)} % of the ${s.verifiedPlausible} plausible with hidden cases)`,
  ].join(', ') + `\nplausible, low confidence ${s.lowConfidence} (held for approval; ${s.lowConfidenceCorrect} correct, ${s.lowConfidenceOverfitted} overfitted); ` +
    `overfitted among high-confidence judged winners ${s.highConfidenceOverfittedShare === null ? '-' : `${(100 * s.highConfidenceOverfittedShare).toFixed(1)} %`}`;
}

/** Per fold, in-fold and out-of-fold side by side. */
export function foldTable(report: FoldBenchReport): string {
  const cell = (s: FoldBenchReport['runs'][number]['summary'] | undefined) =>
    s ? `${s.plausible}/${s.correct}/${s.overfitted}/${s.lowConfidence}/${s.trialsPerSecond.toFixed(0)}`.padStart(22) : '-'.padStart(22);
  const folds = [...new Set(report.runs.map((r) => r.fold))];
  const rows = folds.map((fold) => {
    const get = (role: FoldRole) => report.runs.find((r) => r.fold === fold && r.role === role);
    const n = (get('out') ?? get('in'))!.bugs.length;
    return `${String(fold).padStart(4)} ${String(n).padStart(5)} ${cell(get('in')?.summary)} ${cell(get('out')?.summary)}`;
  });
  return [
    `folds: ${report.k} (${report.split}); reserved fold ${report.reservedFold}; priors learned from ${report.priorsFrom}`,
    `${'fold'.padStart(4)} ${'bugs'.padStart(5)} ${'in-fold'.padStart(22)} ${'out-of-fold'.padStart(22)}`,
    `${''.padStart(10)} ${'plaus/corr/over/low/tps'.padStart(22)} ${'plaus/corr/over/low/tps'.padStart(22)}`,
    ...rows,
  ].join('\n');
}

function printFolds(report: FoldBenchReport) {
  process.stdout.write(`\n${foldTable(report)}\n`);
}

function parseInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  return n;
}

function parseList(value: string): string[] {
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (list.length === 0) throw new InvalidArgumentError('expected a comma-separated list');
  return list;
}

function parseRole(value: string): string {
  if (value !== 'in' && value !== 'out' && value !== 'both') throw new InvalidArgumentError(`--fold-role is in, out or both, got "${value}"`);
  return value;
}

function parseGenerators(value: string): string[] {
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  for (const g of list) if (g !== 'template' && g !== 'llm') throw new InvalidArgumentError(`unknown generator "${g}" (template, llm)`);
  if (list.length === 0) throw new InvalidArgumentError('at least one generator');
  return list;
}

function parsePositive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`expected a positive number, got "${value}"`);
  return n;
}
