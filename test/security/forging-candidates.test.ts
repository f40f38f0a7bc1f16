import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Case, TrialReport } from '../../core/types.ts';
import type { ManifestPatch } from '../../core/wire.ts';
import { encodeSnapshot, snapshotEqual } from '../../core/snapshot.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { IsolateExecutor, loadIsolatedVm } from '../../sdk/isolate-executor.ts';
import { createSnapshotEncoder } from '../../sdk/snapshot-encoder.ts';
import { CONSISTENCY, SCRIPT_FORGERIES, SWALLOWED_ASSERTION, VALUE_FORGERIES, type ForgingCandidate } from './forging-corpus.ts';

const LIMITS = { cpuMs: 500, wallMs: 1000, memoryMb: 64 };

function verdicts(report: TrialReport): Record<string, string> {
  return Object.fromEntries(report.results.map((r) => [r.caseId, r.verdict]));
}

// Every forging candidate is wrong; each adds a trick aimed at the judge. The judge is the
// sandbox the worker searches with and the one the bench judges hidden cases with (the same
// SandboxPool), so a pass here would be a forged verdict in both.
describe('forging candidates', () => {
  let pool: SandboxPool;
  before(() => {
    pool = new SandboxPool({ size: 1, limits: LIMITS });
  });
  after(async () => {
    await pool.close();
  });

  const run = (c: ForgingCandidate) => pool.run({ block: { source: c.source, ...(c.entry ? { entry: c.entry } : {}) }, cases: c.cases, limits: LIMITS });

  for (const c of SCRIPT_FORGERIES) {
    it(`script cases: ${c.name}`, async () => {
      const report = await run(c);
      assert.equal(report.compileError, undefined, JSON.stringify(report.compileError));
      const o = verdicts(report);
      // add() subtracts and pair() swaps in every one of them: each assertion on them must fail.
      for (const id of ['strict-equal', 'loose-equal', 'template', 'json']) assert.notEqual(o[id], 'pass', `${id}: ${JSON.stringify(report.results)}`);
    });
  }

  it('script cases: a failed assertion fails the case even when the candidate catches its throw', async () => {
    const report = await run(SWALLOWED_ASSERTION);
    assert.equal(report.results[0].verdict, 'threw');
    assert.equal(report.results[0].error?.name, 'AssertionError');
    assert.equal(report.results[0].error?.message, 'x too small');
  });

  it('script cases: an honest candidate still passes every case (the judge is not just refusing)', async () => {
    const honest: ForgingCandidate = { ...SCRIPT_FORGERIES[0], source: 'function add(a, b) { return a + b; }\nfunction pair(a, b) { return [a, b]; }' };
    const report = await run(honest);
    assert.deepEqual(Object.values(verdicts(report)), ['pass', 'pass', 'pass', 'pass', 'pass']);
  });

  for (const c of VALUE_FORGERIES) {
    it(`value cases: ${c.name}`, async () => {
      const report = await run(c);
      const o = verdicts(report);
      assert.ok(Object.values(o).some((x) => x !== 'pass'), JSON.stringify(report.results));
      if (o['failure-1'] !== undefined) assert.equal(o['failure-1'], 'threw', JSON.stringify(report.results));
    });
  }

  it('value cases: a thenable answer of a block that answers synchronously is wrong, however it resolves', async () => {
    const source = "(user) => { let thens = 0; return { then(resolve) { resolve(thens++ === 0 ? 'BOB, Paris' : 'wrong'); } }; }";
    const recorded: Case = { id: 'r', kind: 'recorded', check: 'value', args: [{ name: 'bob' }], expect: 'BOB, Paris' };
    const sync = await pool.run({ block: { source }, cases: [recorded], limits: LIMITS, synchronous: true });
    assert.equal(sync.results[0].verdict, 'wrong-result');
    assert.equal(sync.results[0].error?.name, 'AsyncAnswer');
    // For an asynchronous block the app awaits the answer once, as the judge does.
    const async = await pool.run({ block: { source }, cases: [recorded], limits: LIMITS });
    assert.equal(async.results[0].verdict, 'pass');
    assert.equal(async.results[0].awaited, true);
  });

  it('value cases: what the candidate returns is reported, whatever it did to the built-ins', async () => {
    const report = await run({
      name: 'poisoner',
      source: "(user) => { for (const k of ['status', 'actual', 'argsAfter']) { try { Object.defineProperty(Object.prototype, k, { get() { return 'x'; } }); } catch {} } return user.name; }",
      cases: [{ id: 'v', kind: 'recorded', check: 'value', args: [{ name: 'bob' }], expect: 'BOB' }],
    });
    assert.equal(report.results[0].verdict, 'wrong-result');
    assert.equal(report.results[0].actual, 'bob');
  });
});

// The judge and the app read a result the same way: the trial's verdict is about the very copy
// the SDK hands the app from a signed patch.
describe('what the judge sees is what the app gets', () => {
  let pool: SandboxPool;
  let executor: IsolateExecutor;
  before(() => {
    pool = new SandboxPool({ size: 1, limits: LIMITS });
    const loaded = loadIsolatedVm();
    if (!('ivm' in loaded)) throw new Error(loaded.error);
    executor = new IsolateExecutor(loaded.ivm, { cpuMs: 500, wallMs: 1000, memoryMb: 64 }, createSnapshotEncoder(undefined));
  });
  after(async () => {
    executor.dispose();
    await pool.close();
  });

  for (const c of CONSISTENCY) {
    it(c.name, async () => {
      const probe: Case = { id: 'probe', kind: 'test', check: 'value', args: [], expect: null };
      const report = await pool.run({ block: { source: c.source }, cases: [probe], limits: LIMITS });
      const judged = report.results[0].actual;
      const patch = { id: `p-${c.name}`, source: c.source } as ManifestPatch;
      const run = executor.runSync(patch, [undefined]);
      assert.ok(run.ok, String(run.ok ? '' : run.error));
      assert.ok(snapshotEqual(encodeSnapshot(run.value), judged), `${JSON.stringify(encodeSnapshot(run.value))} vs ${JSON.stringify(judged)}`);
    });
  }

  it('a patch sees the world a trial saw: frozen intrinsics, no harness, no host', async () => {
    const source = "() => [Object.isFrozen(Array.prototype), typeof __sutureRunSync, typeof __suturePatch, typeof __sutureCall, typeof process, typeof require, String(new Error('e').stack)].join('|')";
    const report = await pool.run({ block: { source }, cases: [{ id: 'probe', kind: 'test', check: 'value', args: [], expect: null }], limits: LIMITS });
    const run = executor.runSync({ id: 'world', source } as ManifestPatch, [undefined]);
    assert.ok(run.ok);
    assert.equal(run.value, report.results[0].actual);
    assert.match(String(run.value), /^true\|undefined\|undefined\|undefined\|undefined\|undefined\|Error: e\n {4}at eval \(block\.js:2:\d+\)$/);
  });
});
