import { Command, CommanderError } from 'commander';
import { benchCommand } from './bench-command.ts';
import { daemonCommand } from './daemon-command.ts';
import { workerCommand } from './worker-command.ts';
import { importCommand } from './import-command.ts';
import { repairCommand } from './repair-command.ts';
import { demoCommand } from './demo-command.ts';
import { statusCommand } from './status-command.ts';
import { decisionCommands, patchesCommand } from './patch-commands.ts';
import { keysCommand } from './keys-command.ts';
import { exportCommand } from './export-command.ts';

const program = new Command('suture')
  .description('Sandboxed fork-and-trial repair for JavaScript')
  .version('0.1.0')
  .showHelpAfterError()
  .addCommand(demoCommand())
  .addCommand(repairCommand())
  .addCommand(benchCommand())
  .addCommand(importCommand())
  .addCommand(daemonCommand())
  .addCommand(workerCommand())
  .addCommand(statusCommand())
  .addCommand(patchesCommand())
  .addCommand(keysCommand())
  .addCommand(exportCommand());
for (const c of decisionCommands()) program.addCommand(c);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  process.stderr.write(`suture: ${(error as Error)?.message ?? error}\n`);
  process.exit(1);
}
