import { writeFile } from 'node:fs/promises';
import { Command, InvalidArgumentError } from 'commander';
import { learnPriors, readReportBugs, DEFAULT_SMOOTHING } from '../suite/prior-learner.ts';
import { splitFolds, suiteBugIds, trainingBugs } from '../suite/folds.ts';

export function priorsCommand(): Command {
  const priors = new Command('priors').description('Operator priors learned from bench reports');
  priors
    .command('learn')
    .description('Count which operator families produced correct and overfitted winners in a bench report and write learned priors')
    .requiredOption('--report <file>', 'a bench JSON report (suture bench --json FILE)')
    .requiredOption('--out <file>', 'where to write the learned priors (JSON)')
    .option('--suite <dir>', 'the suite the report is of (needed with --folds)')
    .option('--folds <k>', 'split the suite into k folds', (v) => positiveInteger(v, '--folds'))
    .option('--exclude-fold <f>', 'with --folds: learn from every other fold (the reserved fold 0 is left out unless it is the one excluded)', (v) => positiveInteger(v, '--exclude-fold', true))
    .option('--smoothing <m>', 'pseudo-count of the smoothing', (v) => positiveInteger(v, '--smoothing'), DEFAULT_SMOOTHING)
    .action(async (opts) => {
      const { suite, bugs } = await readReportBugs(opts.report);
      let training: Set<string> | undefined;
      if (opts.folds !== undefined || opts.excludeFold !== undefined) {
        if (opts.folds === undefined || opts.excludeFold === undefined || !opts.suite) throw new InvalidArgumentError('--folds and --exclude-fold go together, with --suite');
        training = trainingBugs(splitFolds(await suiteBugIds(opts.suite), opts.folds), opts.excludeFold, 'out');
      }
      const learned = learnPriors(bugs, { bugs: training, smoothing: opts.smoothing, suite, report: opts.report });
      await writeFile(opts.out, JSON.stringify(learned, null, 2) + '\n');
      const moved = Object.entries(learned.operators).map(([op, r]) => `${op} ×${r.factor} (${r.correct} correct, ${r.overfitted} overfitted)`);
      process.stdout.write(`learned from ${learned.trainedOn.bugs.length} bugs: ${moved.join('; ') || 'no judged template winner'}\nwrote ${opts.out}\n`);
    });
  return priors;
}

function positiveInteger(value: string, name: string, zero = false): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < (zero ? 0 : 1)) throw new InvalidArgumentError(`${name} expects ${zero ? 'a non-negative' : 'a positive'} integer, got "${value}"`);
  return n;
}
