/**
 * Sandbox figures: trial throughput of the sandbox pool on all cores against a tight loop that
 * compiles the same candidate and applies it to the same copied arguments in one pre-made
 * context; the per-candidate cost of a fresh world (a compartment of the hardened context,
 * candidate evaluated, entry bound) against `isolate.createContext()` alone; and what hardening
 * costs per trial: a candidate loaded and judged on one case by the TrialRunner (SES lockdown,
 * compartments, guarded read-out) against the unhardened way of doing the same (a fresh plain
 * context from a codec snapshot, candidate and codec sharing its globals).
 */
import { availableParallelism } from 'node:os';
import ivm from 'isolated-vm';
import type { Block, Case, TrialRequest } from '../../core/types.ts';
import { SNAPSHOT_CODEC_SOURCE } from '../../core/snapshot.ts';
import { SandboxPool, DEFAULT_LIMITS, TrialRunner } from '../../engine/sandbox/index.ts';
import { atLeast, atMost, row, type PerfRow } from './perf-row.ts';

/** A small candidate like the template generator emits: distinct text each time, one case. */
function candidate(i: number): Block {
  return { source: `function add(a, b) {\n  return a + b + ${i} - ${i};\n}`, entry: 'add' };
}
const CASE: Case = { id: 'c1', kind: 'test', check: 'value', args: [2, 3], expect: 5 };

async function timeFor(ms: number, step: () => Promise<void>): Promise<{ n: number; ms: number }> {
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < ms) {
    await step();
    n++;
  }
  return { n, ms: performance.now() - t0 };
}

export async function sandboxFigures(log: (s: string) => void): Promise<PerfRow[]> {
  const cores = availableParallelism();

  // Baseline of trial throughput: compile + apply in one reused context (no isolation between candidates).
  const isolate = new ivm.Isolate({ memoryLimit: DEFAULT_LIMITS.memoryMb });
  const context = isolate.createContextSync();
  let i = 0;
  const loop = async () => {
    const script = isolate.compileScriptSync(`(${candidate(i++).source.replace('function add', 'function')})`);
    const fn = script.runSync(context, { reference: true }) as ivm.Reference<(a: number, b: number) => number>;
    const out = fn.applySync(undefined, [2, 3], { arguments: { copy: true }, result: { copy: true } });
    if (out !== 5) throw new Error('baseline candidate gave ' + String(out));
    fn.release();
    script.release();
  };
  await timeFor(200, loop);
  const tight = await timeFor(1500, loop);
  const perCore = tight.n / (tight.ms / 1000);
  const baselineRate = perCore * cores;

  // fresh-context baseline: createContext alone, in its cheapest (synchronous) form.
  await timeFor(200, async () => isolate.createContextSync().release());
  const bare = await timeFor(1500, async () => isolate.createContextSync().release());
  const bareMs = bare.ms / bare.n;
  context.release();
  isolate.dispose();

  // Fresh context per candidate, as the sandbox host does it (no cases: context set-up only).
  const runner = new TrialRunner();
  runner.warm(DEFAULT_LIMITS.memoryMb);
  let j = 0;
  const prep = async () => {
    const r = await runner.run({ block: candidate(j++), cases: [] }, DEFAULT_LIMITS);
    if (r.compileError) throw new Error(r.compileError.message);
  };
  await timeFor(300, prep);
  const fresh = await timeFor(2000, prep);
  const freshMs = fresh.ms / fresh.n;
  runner.dispose();
  log(`fresh_context ${(freshMs * 1000).toFixed(0)} µs vs createContext ${(bareMs * 1000).toFixed(0)} µs`);

  // Hardening per trial: the TrialRunner judging one case against the unhardened equivalent.
  const codecSnapshot = ivm.Isolate.createSnapshot([{ code: SNAPSHOT_CODEC_SOURCE, filename: 'snapshot-codec.js' }]);
  const plainIsolate = new ivm.Isolate({ memoryLimit: DEFAULT_LIMITS.memoryMb, snapshot: codecSnapshot });
  let m = 0;
  const unhardened = async () => {
    const ctx = plainIsolate.createContextSync();
    plainIsolate.compileScriptSync(candidate(m++).source, { filename: 'block.js' }).runSync(ctx, { timeout: 1000 });
    const text = ctx.evalClosureSync('const c = createSnapshotCodec({}); return JSON.stringify(c.encode(add(...JSON.parse($0))));', ['[2,3]'], { timeout: 1000, result: { copy: true } });
    if (text !== '5') throw new Error('unhardened candidate gave ' + String(text));
    ctx.release();
  };
  const judged = new TrialRunner();
  judged.warm(DEFAULT_LIMITS.memoryMb);
  let h = 0;
  const hardened = async () => {
    const r = await judged.run({ block: candidate(h++), cases: [CASE] }, DEFAULT_LIMITS);
    if (r.results[0]?.verdict !== 'pass') throw new Error('hardened candidate did not pass');
  };
  await timeFor(300, unhardened);
  await timeFor(300, hardened);
  const plainRun = await timeFor(2000, unhardened);
  const hardRun = await timeFor(2000, hardened);
  const plainTrialMs = plainRun.ms / plainRun.n;
  const hardTrialMs = hardRun.ms / hardRun.n;
  judged.dispose();
  plainIsolate.dispose();
  log(`hardened_trial ${(hardTrialMs * 1000).toFixed(0)} µs vs unhardened ${(plainTrialMs * 1000).toFixed(0)} µs (candidate loaded, one case judged)`);

  // The pool on every core, kept full (two requests in flight per host, as the engine does).
  const pool = new SandboxPool({ size: cores });
  let k = 0;
  let passed = 0;
  const request = (): TrialRequest => ({ block: candidate(k++), cases: [CASE], stopOnFirstFailure: true });
  const drive = async (ms: number) => {
    const t0 = performance.now();
    const lanes = Array.from({ length: cores * 2 }, async () => {
      while (performance.now() - t0 < ms) {
        const report = await pool.run(request());
        if (report.results[0]?.verdict === 'pass') passed++;
      }
    });
    await Promise.all(lanes);
    return performance.now() - t0;
  };
  await drive(500);
  const before = pool.stats.trials;
  passed = 0;
  const ms = await drive(3000);
  const trials = pool.stats.trials - before;
  await pool.close();
  if (passed !== trials) throw new Error(`only ${passed} of ${trials} trials passed`);
  const rate = trials / (ms / 1000);
  log(`trial_throughput ${rate.toFixed(0)}/s on ${cores} hosts vs tight loop ${perCore.toFixed(0)}/s per core`);

  return [
    row('trial_throughput', rate, baselineRate, 'trials/s', '≥ 0.5×', atLeast(0.5), `baseline: ${perCore.toFixed(0)}/s measured on one core × ${cores} cores`),
    row('fresh_context', freshMs * 1000, bareMs * 1000, 'µs/candidate', '≤ 1.3×', atMost(1.3), 'a compartment of the locked-down context vs a bare isolated-vm context'),
    row('hardened_trial', hardTrialMs * 1000, plainTrialMs * 1000, 'µs/trial', '≤ 1.5×', atMost(1.5), 'SES lockdown + compartments + guarded read-out vs a plain context sharing its globals with the candidate'),
  ];
}
