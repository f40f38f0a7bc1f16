import { Command } from 'commander';
import { describeConfig, settingsHelp } from '../config/load-config.ts';
import { createDaemon } from '../daemon/daemon-server.ts';
import { configFromCli } from './service-config-option.ts';

export function daemonCommand(): Command {
  return new Command('daemon')
    .description('Run the HTTP daemon: failure ingest, signed patch registry, rollout, approvals, admin API')
    .option('--config <file>', 'JSON config file (also SUTURE_CONFIG)')
    .option('--port <port>', 'HTTP port (overrides SUTURE_PORT)')
    .option('--print-config', 'print the resolved configuration (secrets hidden) and exit')
    .addHelpText('after', `\n${settingsHelp()}`)
    .action(async (opts) => {
      const config = configFromCli(opts);
      if (opts.printConfig) {
        process.stdout.write(`${JSON.stringify(describeConfig(config), null, 2)}\n`);
        return;
      }
      const daemon = await createDaemon(config);
      const url = await daemon.listen();
      process.stderr.write(`suture daemon on ${url} (prefix ${config.prefix}), dashboard at ${url}/dashboard\npatch signing public key (also at ${url}/v1/public-key):\n${daemon.context.keys.publicKeyPem}`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          daemon.close().then(resolve, resolve);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
