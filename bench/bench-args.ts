/**
 * Command-line options of the benchmark scripts (node's parseArgs) with the `--help` every command
 * owes its user: `--help` / `-h` prints the usage and exits 0; an unknown option or a missing value
 * prints the reason and the usage to stderr and exits 2, instead of a stack trace.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

export function benchArgs<const O extends Options>(usage: string, options: O) {
  let parsed;
  try {
    parsed = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage}\n`);
    process.exit(2);
  }
  if ((parsed.values as Record<string, unknown>).help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return parsed.values as ReturnType<typeof parseArgs<{ options: O }>>['values'];
}
