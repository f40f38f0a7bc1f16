import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import { TrialRunner } from '../../engine/sandbox/trial-runner.ts';

const LIMITS = { cpuMs: 250, wallMs: 500, memoryMb: 32, maxResultBytes: 1_000_000 };
const valueCase = (args: unknown[], expect: unknown): Case => ({ id: 'c', kind: 'test', check: 'value', args, expect });

// A compartment answers `undefined` for a name nobody declared; Node throws. The harness makes
// the block's free names throw, found per scope (core/block-free-names.ts).
it('a name declared only in an inner scope throws ReferenceError where it is read outside it, as in Node', async () => {
  const runner = new TrialRunner(false);
  try {
    const source = 'function f(x) { { let RATE = 2; x += RATE } return x * RATE }';
    assert.throws(() => new Function(`${source}; return f(1)`)(), /RATE is not defined/);
    const r = await runner.run({ block: { source, entry: 'f' }, cases: [valueCase([1], 6)] }, LIMITS);
    assert.equal(r.results[0].verdict, 'threw');
    assert.match(r.results[0].error?.message ?? '', /RATE is not defined/);
    // A name only tested with typeof, or tested and then read, must not throw.
    const probe = "function g() { return typeof FLAG !== 'undefined' && FLAG ? 1 : 2 }";
    const p = await runner.run({ block: { source: probe, entry: 'g' }, cases: [valueCase([], 2)] }, LIMITS);
    assert.equal(p.results[0].verdict, 'pass');
  } finally {
    runner.dispose();
  }
});
