import { writeFile } from 'node:fs/promises';
import { Command, InvalidArgumentError } from 'commander';
import { runBench, type BenchReport, type BugOutcome } from '../suite/bench-runner.ts';
import { LlmGenerator } from '../engine/generators/llm/llm-generator.ts';
import { ProgressLine } from './progress-line.ts';

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
    .action(async (opts) => {
      const generators = opts.generators as ('template' | 'llm')[];
      let llm: LlmGenerator | undefined;
      if (generators.includes('llm')) {
        const model = process.env.SUTURE_LLM_MODEL;
        if (!model) throw new InvalidArgumentError('--generators llm needs SUTURE_LLM_MODEL (and OPENAI_BASE_URL / OPENAI_API_KEY)');
        llm = new LlmGenerator({ model });
      }
      const progress = new ProgressLine(process.stderr);
      const report = await runBench({
        suiteDir: opts.suite,
        generators,
        llm,
        budgetSeconds: opts.budget,
        jobs: opts.jobs,
        sandboxes: opts.sandboxes,
        only: opts.only ? String(opts.only).split(',').map((s: string) => s.trim()).filter(Boolean) : undefined,
        onBugDone: (o, done, total) => progress.update(done, total, `${o.id} ${verdict(o)}`, line(o)),
      });
      progress.finish();
      printReport(report, Boolean(opts.diffs));
      if (opts.json) {
        await writeFile(opts.json, JSON.stringify(report, null, 2) + '\n');
        process.stderr.write(`wrote ${opts.json}\n`);
      }
    });
}

function verdict(o: BugOutcome): string {
  return o.verdict === 'not-fixed' ? 'not fixed' : o.verdict;
}

function line(o: BugOutcome): string {
  return [
    o.id.padEnd(16),
    verdict(o).padEnd(10),
    `${o.seconds.toFixed(1)}s`.padStart(7),
    String(o.candidates).padStart(7),
    String(o.trials).padStart(8),
    `${o.hiddenPassed}/${o.hiddenCases}`.padStart(7),
    ' ' + (o.error ?? o.description ?? ''),
  ].join(' ');
}

function printReport(report: BenchReport, diffs: boolean) {
  const out = process.stdout;
  out.write(`\n${'bug'.padEnd(16)} ${'verdict'.padEnd(10)} ${'time'.padStart(7)} ${'cands'.padStart(7)} ${'trials'.padStart(8)} ${'hidden'.padStart(7)}  winner\n`);
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
  ].join(', ');
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
