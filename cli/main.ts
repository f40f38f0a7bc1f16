import { Command, CommanderError, InvalidArgumentError } from 'commander';

type Loader = () => Promise<Command>;

/**
 * One line per command. A command's module is loaded only when that command runs (all of them for
 * the top-level help), so `suture status` answers without loading the engine, daemon and sandbox.
 */
const COMMANDS: Record<string, Loader> = {
  demo: async () => (await import('./demo-command.ts')).demoCommand(),
  repair: async () => (await import('./repair-command.ts')).repairCommand(),
  bench: async () => (await import('./bench-command.ts')).benchCommand(),
  priors: async () => (await import('./priors-command.ts')).priorsCommand(),
  import: async () => (await import('./import-command.ts')).importCommand(),
  daemon: async () => (await import('./daemon-command.ts')).daemonCommand(),
  worker: async () => (await import('./worker-command.ts')).workerCommand(),
  status: async () => (await import('./status-command.ts')).statusCommand(),
  patches: async () => (await import('./patch-commands.ts')).patchesCommand(),
  approve: async () => (await import('./patch-commands.ts')).decisionCommand('approve'),
  reject: async () => (await import('./patch-commands.ts')).decisionCommand('reject'),
  promote: async () => (await import('./patch-commands.ts')).decisionCommand('promote'),
  rollback: async () => (await import('./patch-commands.ts')).decisionCommand('rollback'),
  replace: async () => (await import('./patch-commands.ts')).decisionCommand('replace'),
  fallback: async () => (await import('./patch-commands.ts')).decisionCommand('fallback'),
  keys: async () => (await import('./keys-command.ts')).keysCommand(),
  export: async () => (await import('./export-command.ts')).exportCommand(),
};

const program = new Command('suture')
  .description('Sandboxed fork-and-trial repair for JavaScript')
  .version('0.1.0')
  .showHelpAfterError();

const wanted = process.argv[2];
const chosen = wanted !== undefined && Object.hasOwn(COMMANDS, wanted) ? [COMMANDS[wanted]] : Object.values(COMMANDS);
for (const command of await Promise.all(chosen.map((load) => load()))) program.addCommand(command);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // Commander has printed its own parse errors before throwing them; an InvalidArgumentError an action threw it has not.
  if (error instanceof CommanderError && !(error instanceof InvalidArgumentError)) process.exit(error.exitCode);
  process.stderr.write(`suture: ${(error as Error)?.message ?? error}\n`);
  process.exit(1);
}
