/**
 * Every performance figure of the README's "Performance" section in one run, each as a ratio against a baseline measured in
 * the same run (the machines are shared and noisy, absolute numbers drift).
 *
 *   npm run bench:perf [-- --json FILE] [-- --only sdk,sandbox,service,scaling] [-- --help]
 */
import { writeFileSync } from 'node:fs';
import { benchArgs } from '../bench-args.ts';
import { formatTable, type PerfRow } from './perf-row.ts';
import { repairScaling } from './repair-scaling.ts';
import { sandboxFigures } from './sandbox-figures.ts';
import { sdkFigures } from './sdk-figures.ts';
import { serviceFigures } from './service-figures.ts';

const GROUPS = ['sdk', 'sandbox', 'service', 'scaling'];
const USAGE = `Usage: npm run bench:perf [-- --only GROUPS] [-- --json FILE]

Every performance figure of the README's "Performance" section, each as a ratio against a
baseline measured in the same run.

Options:
  --only GROUPS  comma-separated groups to run (default: all): ${GROUPS.join(', ')}
                   sdk      run() overhead, recording, uses, argument size, patched and
                            fallback-patched calls, the patch helper process
                   sandbox  trial throughput of the sandbox pool, fresh-world and hardening costs
                   service  ingest under load, failure-to-manifest and patch-to-1,000-clients
                            times with the real daemon, worker and Redis
                   scaling  bugs per minute on a HumanEvalFix-JS subset, one core against all
  --json FILE    also write the rows (figure, value, baseline, ratio, unit) to FILE
  -h, --help     print this and exit`;

const values = benchArgs(USAGE, { json: { type: 'string' }, only: { type: 'string' } });
const only = new Set((values.only ?? GROUPS.join(',')).split(','));
const unknown = [...only].filter((g) => !GROUPS.includes(g));
if (unknown.length > 0) {
  process.stderr.write(`unknown group(s) in --only: ${unknown.join(', ')}\n\n${USAGE}\n`);
  process.exit(2);
}
const log = (s: string) => process.stderr.write(`  ${s}\n`);

const started = performance.now();
const rows: PerfRow[] = [];
if (only.has('sdk')) rows.push(...(await sdkFigures(log)));
if (only.has('sandbox')) rows.push(...(await sandboxFigures(log)));
if (only.has('service')) rows.push(...(await serviceFigures(log)));
if (only.has('scaling')) rows.push(await repairScaling(log));

console.log(formatTable(rows));
const notes = rows.filter((r) => r.note);
if (notes.length) console.log('\n' + notes.map((r) => `- ${r.figure}: ${r.note}`).join('\n'));
console.log(`\n${rows.length} figures in ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (values.json) {
  writeFileSync(values.json, JSON.stringify({ rows: rows.map(({ figure, value, baseline, ratio, unit }) => ({ figure, value, baseline, ratio, unit })) }, null, 2) + '\n');
}
// Sandbox hosts, sockets and SSE streams are closed; anything left is not ours to wait for.
process.exit(0);
