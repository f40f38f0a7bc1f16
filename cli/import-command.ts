import { Command } from 'commander';
import { importHumanEvalFix } from '../suite/import/humanevalfix.ts';

export function importCommand(): Command {
  const cmd = new Command('import').description('Convert an external bug benchmark into the suite layout');
  cmd
    .command('humanevalfix')
    .description('Convert HumanEvalPack JavaScript records (JSONL) into a suite; splits tests into visible and hidden cases')
    .argument('<file>', 'HumanEvalPack JavaScript JSONL file')
    .requiredOption('--out <dir>', 'suite directory to write')
    .action(async (file: string, opts: { out: string }) => {
      const result = await importHumanEvalFix(file, opts.out, {
        onProgress: (done: number, total: number) => {
          if (done === total || done % 10 === 0) process.stderr.write(`imported ${done}/${total}\n`);
        },
      });
      for (const w of result.warnings) process.stderr.write(`warning: ${w}\n`);
      process.stdout.write(`${result.bugs} bugs, ${result.visible} visible and ${result.hidden} hidden cases written to ${opts.out}\n`);
    });
  return cmd;
}
