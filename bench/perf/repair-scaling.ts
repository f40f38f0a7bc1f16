/**
 * Repair scaling: bugs per minute on a fixed subset of the HumanEvalFix-JS dev suite with the
 * engine on one sandbox host (one core) and on every core, checking both runs reach the same
 * plausible count. Two bugs are repaired at once so the parent's own work overlaps the trials.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runBench } from '../../suite/bench-runner.ts';
import { atLeast, row, type PerfRow } from './perf-row.ts';

/** Bugs the template generator repairs in well under a second each (see bench/results). */
export const SCALING_BUGS = [
  'JavaScript/30', 'JavaScript/22', 'JavaScript/54', 'JavaScript/42', 'JavaScript/60', 'JavaScript/2',
  'JavaScript/52', 'JavaScript/8', 'JavaScript/138', 'JavaScript/56', 'JavaScript/92', 'JavaScript/134',
];
const SUITE = fileURLToPath(new URL('../suites/humanevalfix-js-dev', import.meta.url));

export async function repairScaling(log: (s: string) => void): Promise<PerfRow> {
  const cores = availableParallelism();
  const once = async (sandboxes: number) => {
    const report = await runBench({ suiteDir: SUITE, only: SCALING_BUGS, budgetSeconds: 10, sandboxes, jobs: 2 });
    const perMinute = report.summary.bugs / (report.summary.seconds / 60);
    log(`repair_scaling: ${sandboxes} core(s): ${report.summary.bugs} bugs, ${report.summary.plausible} plausible in ${report.summary.seconds.toFixed(1)} s (${perMinute.toFixed(0)} bugs/min)`);
    return { perMinute, plausible: report.summary.plausible };
  };
  const one = await once(1);
  const all = await once(cores);
  const same = one.plausible === all.plausible;
  return row('repair_scaling', all.perMinute, one.perMinute, 'bugs/min', `≥ ${(cores * 0.75).toFixed(1)}× (scales with ${cores} cores)`, (ratio) => (ratio === null ? null : same && ratio >= cores * 0.75),
    `${SCALING_BUGS.length} bugs; plausible ${one.plausible} on 1 core, ${all.plausible} on ${cores}`);
}
