// Developer tool: repair one bug of a suite and print what the engine tried (verdicts, times).
// Usage: node --no-node-snapshot --import tsx bench/tools/repair-one.ts <suite-dir> <bug-id> [budget-seconds]
import { loadSuite } from '../../suite/suite-loader.ts';
import { SandboxPool, repairBlock } from '../../engine/index.ts';

const [dir, id, budget] = process.argv.slice(2);
const suite = await loadSuite(dir, { only: [id] });
const bug = suite.bugs[0];
const pool = new SandboxPool({ size: 2 });
const result = await repairBlock(bug.block, bug.cases, { pool, budgetMs: Number(budget ?? 10) * 1000, keepFailed: 100000 });
const byVerdict = new Map<string, { n: number; ms: number }>();
for (const c of result.candidates) {
  const last = c.trials.at(-1)?.verdict ?? c.status;
  const e = byVerdict.get(last) ?? { n: 0, ms: 0 };
  e.n++; e.ms += c.ms;
  byVerdict.set(last, e);
}
console.log('baseline', result.baseline.results.map((r) => `${r.caseId}:${r.verdict}:${r.ms.toFixed(1)}ms`).join(' '));
console.log('localisation top', result.localisation.slice(0, 5));
console.log({ tried: result.tried, generated: result.generated, trials: result.trials, ms: result.ms.toFixed(0), stoppedBy: result.stoppedBy });
console.log('by last verdict', Object.fromEntries([...byVerdict].map(([k, v]) => [k, { n: v.n, avgMs: (v.ms / v.n).toFixed(2) }])));
for (const c of result.candidates.filter((c) => c.status === 'plausible')) console.log('PLAUSIBLE', c.rank, c.generator, c.description, c.score?.toFixed(2));
if (process.env.SHOW) for (const c of result.candidates.slice(0, Number(process.env.SHOW))) console.log(c.rank, c.generator, c.description, c.trials.at(-1)?.verdict, c.ms.toFixed(1));
await pool.close();
