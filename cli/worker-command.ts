import { Command } from 'commander';
import { describeConfig, settingsHelp } from '../config/load-config.ts';
import { startRepairWorker } from '../worker/repair-worker.ts';
import { configFromCli } from './service-config-option.ts';

export function workerCommand(): Command {
  return new Command('worker')
    .description('Run a repair worker: takes jobs from the BullMQ queue, runs the engine in sandboxes, publishes signed patches')
    .option('--config <file>', 'JSON config file (also SUTURE_CONFIG)')
    .option('--print-config', 'print the resolved configuration (secrets hidden) and exit')
    .addHelpText('after', `\n${settingsHelp()}`)
    .action(async (opts) => {
      const config = configFromCli(opts);
      if (opts.printConfig) {
        process.stdout.write(`${JSON.stringify(describeConfig(config), null, 2)}\n`);
        return;
      }
      const handle = await startRepairWorker(config);
      process.stderr.write(`suture worker ready (prefix ${config.prefix}, ${handle.pool.size} sandboxes, generators ${config.generators.join(',')})\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          handle.close().then(resolve, resolve);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
