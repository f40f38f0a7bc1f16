/**
 * Offline reach of the template generator on HumanEvalFix-JS dev problems: for each buggy program, the rank at
 * which the reference fix first appears among the generated candidates (by normalised token stream), and,
 * with --run, the rank of the first candidate that passes the problem's tests in a node:vm context.
 * An upper bound on what the engine can fix with template candidates alone (uniform fault localisation).
 *
 *   node --import tsx bench/tools/template-reach.ts [--run] [--limit N] [--show]
 */
import { readFileSync } from 'node:fs';
import type { SuspiciousRange } from '../../core/types.ts';
import vm from 'node:vm';
import { instrumentForCoverage, rankSuspicious } from '../../engine/localisation/index.ts';
import { generateTemplateCandidates, normaliseSource } from '../../engine/generators/template/index.ts';

interface Problem {
  task_id: string;
  declaration: string;
  buggy_solution: string;
  canonical_solution: string;
  entry_point: string;
  bug_type: string;
  test: string;
}

const args = process.argv.slice(2);
const run = args.includes('--run');
const show = args.includes('--show');
const limitAt = args.indexOf('--limit');
const limit = limitAt >= 0 ? Number(args[limitAt + 1]) : 20_000;
const file = new URL('../../../shared/benchmarks/humanevalfix-js/dev.jsonl', import.meta.url);
const problems = readFileSync(process.env.REACH_FILE ?? file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Problem);

function passes(source: string, test: string): boolean {
  const context = vm.createContext({ console: { assert: (ok: unknown) => { if (!ok) throw new Error('assertion failed'); }, log() {} } });
  try {
    new vm.Script(`(function () {\n${source}\n${test}\n})()`).runInContext(context, { timeout: 25 });
    return true;
  } catch {
    return false;
  }
}

const exactRanks: Array<number | undefined> = [];
const passRanks: Array<number | undefined> = [];
const byType = new Map<string, { total: number; exact: number; pass: number }>();
const started = performance.now();
for (const problem of problems) {
  const block = { source: problem.declaration + problem.buggy_solution, entry: problem.entry_point };
  const target = normaliseSource(problem.declaration + problem.canonical_solution);
  let uniform: SuspiciousRange[];
  try {
    uniform = rankSuspicious(instrumentForCoverage(block).probes, [], []);
  } catch {
    uniform = [];
  }
  let exact: number | undefined;
  let pass: number | undefined;
  let rank = 0;
  const candidates = (function* () {
    try {
      yield* generateTemplateCandidates(block, uniform, { maxCandidates: limit });
    } catch (error) {
      if (show) console.log(`${problem.task_id}: ${(error as Error).message}`);
    }
  })();
  for (const candidate of candidates) {
    rank++;
    if (exact === undefined && normaliseSource(candidate.source) === target) exact = rank;
    if (run && pass === undefined && rank <= 3000 && !problem.test.includes('require(') && passes(candidate.source, problem.test)) {
      pass = rank;
      if (show) console.log(`${problem.task_id} plausible #${rank}: ${candidate.generator} ${candidate.description}`);
    }
    if (exact !== undefined && (!run || pass !== undefined || rank > 3000)) break;
  }
  exactRanks.push(exact);
  passRanks.push(pass);
  const stats = byType.get(problem.bug_type) ?? { total: 0, exact: 0, pass: 0 };
  stats.total++;
  if (exact !== undefined) stats.exact++;
  if (pass !== undefined) stats.pass++;
  byType.set(problem.bug_type, stats);
  if (show) console.log(`${problem.task_id.padEnd(16)} ${problem.bug_type.padEnd(16)} exact=${exact ?? '-'} pass=${run ? pass ?? '-' : 'n/a'}`);
}

function summary(name: string, ranks: Array<number | undefined>): void {
  const found = ranks.filter((r): r is number => r !== undefined).sort((a, b) => a - b);
  const within = (n: number) => found.filter((r) => r <= n).length;
  console.log(`${name}: ${found.length}/${ranks.length} reached; ≤10: ${within(10)}, ≤100: ${within(100)}, ≤1000: ${within(1000)}, ≤5000: ${within(5000)}; median rank ${found[Math.floor(found.length / 2)] ?? '-'}`);
}
summary('reference fix (normalised source)', exactRanks);
if (run) summary('first test-passing candidate (first 3000)', passRanks);
for (const [type, s] of byType) console.log(`  ${type.padEnd(16)} ${s.exact}/${s.total} exact${run ? `, ${s.pass}/${s.total} passing` : ''}`);
console.log(`${((performance.now() - started) / 1000).toFixed(1)} s`);
