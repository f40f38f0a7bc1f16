/**
 * Every performance figure of the README's "Performance" section in one run, each as a ratio against a baseline measured in
 * the same run (the machines are shared and noisy, absolute numbers drift).
 *
 *   npm run bench:perf [-- --json FILE] [-- --only sdk,sandbox,service,scaling]
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatTable, type PerfRow } from './perf-row.ts';
import { repairScaling } from './repair-scaling.ts';
import { sandboxFigures } from './sandbox-figures.ts';
import { sdkFigures } from './sdk-figures.ts';
import { serviceFigures } from './service-figures.ts';

const { values } = parseArgs({ options: { json: { type: 'string' }, only: { type: 'string' } } });
const only = new Set((values.only ?? 'sdk,sandbox,service,scaling').split(','));
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
