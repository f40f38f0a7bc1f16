import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Case } from '../../core/types.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { hostileCorpus } from './hostile-corpus.ts';
import { hostState, stateChanges } from './host-state.ts';

/**
 * Every hostile program as a worker candidate: contained (the sandbox host and this process
 * unchanged, no file written), the pool still answers a normal trial right after, and the trial
 * ends within its limit plus a margin generous enough for a shared 2-core machine.
 */
const LIMITS = { cpuMs: 250, wallMs: 500, memoryMb: 32, maxResultBytes: 1_000_000 };
const MARGIN_MS = 2500;
/**
 * The pool's watchdog (WATCHDOG_MARGIN_MS in sandbox-pool.ts) kills a host silent this long past
 * the case's limits: the bound for code V8 cannot interrupt (see `sdkKnownGap` in the corpus).
 */
const WATCHDOG_MS = 5000;

describe('hostile candidates in the worker sandbox', () => {
  const dir = mkdtempSync(join(tmpdir(), 'suture-hostile-'));
  const mark = join(dir, 'pwned');
  const corpus = hostileCorpus(mark);
  let pool: SandboxPool;
  const times: { name: string; ms: number; verdict: string }[] = [];

  before(async () => {
    pool = new SandboxPool({ size: 1, limits: LIMITS });
    await pool.run({ block: { source: '() => 1' }, cases: [] });
  });
  after(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
    const interruptible = times.filter((t) => !corpus.find((p) => p.name === t.name)?.sdkKnownGap);
    const slowestInterruptible = interruptible.reduce((a, b) => (b.ms > a.ms ? b : a), { name: '-', ms: 0, verdict: '-' });
    console.log(`[hostile-sandbox] slowest containment of interruptible code ${slowestInterruptible.ms.toFixed(0)} ms (${slowestInterruptible.name}, ${slowestInterruptible.verdict})`);
    const slowest = times.reduce((a, b) => (b.ms > a.ms ? b : a), { name: '-', ms: 0, verdict: '-' });
    console.log(`[hostile-sandbox] ${times.length} programs; slowest containment ${slowest.ms.toFixed(0)} ms (${slowest.name}, ${slowest.verdict}); limits cpu ${LIMITS.cpuMs} ms, wall ${LIMITS.wallMs} ms`);
  });

  it('has at least 40 programs covering every family', () => {
    assert.ok(corpus.length >= 40, `${corpus.length} programs`);
    assert.deepEqual(new Set(corpus.map((p) => p.family)).size, 8);
  });

  it('contains each program within its limit, changes nothing, and the pool carries on', async () => {
    const before = hostState(dir);
    const normal: Case = { id: 'normal', kind: 'test', check: 'value', args: [{ v: 4 }], expect: 5 };
    for (const program of corpus) {
      const c: Case = { id: 'h', kind: 'test', check: 'value', args: [{ v: 1 }], expect: 2 };
      const started = performance.now();
      const report = await pool.run({ block: { source: program.source }, cases: [c] });
      const ms = performance.now() - started;
      const verdict = report.compileError ? `compile:${report.compileError.name}` : report.results[0].verdict;
      times.push({ name: program.name, ms, verdict });
      const bound = Math.max(LIMITS.cpuMs, LIMITS.wallMs) + (program.sdkKnownGap ? WATCHDOG_MS : 0) + MARGIN_MS;
      assert.ok(ms < bound, `${program.name}: ${ms.toFixed(0)} ms`);
      assert.notEqual(verdict, 'pass', `${program.name} cannot pass a case it does not solve`);
      assert.equal(stateChanges(before, hostState(dir)), '', `${program.name} changed this process or wrote a file`);
      const next = await pool.run({ block: { source: '(x) => x.v + 1' }, cases: [normal] });
      assert.equal(next.results[0]?.verdict, 'pass', `the pool answers a normal trial after ${program.name}`);
    }
    // The escapes report what stopped them rather than succeeding.
    const escapes = corpus.filter((p) => p.family === 'escape').map((p) => p.name);
    const escaped = times.filter((t) => escapes.includes(t.name) && t.verdict === 'crashed');
    assert.deepEqual(escaped, [], 'no escape attempt kills its host');
  });
});
