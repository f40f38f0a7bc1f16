import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import { TrialRunner } from '../../engine/sandbox/trial-runner.ts';

const LIMITS = { cpuMs: 250, wallMs: 500, memoryMb: 32, maxResultBytes: 1_000_000 };

function valueCase(args: unknown[], expect: unknown): Case {
  return { id: 'c', kind: 'test', check: 'value', args, expect };
}

// One runner is one isolate with one hardened context: every candidate below runs in the same
// context as the one before it, each in a compartment of its own, so these show that what a
// candidate changes stays in its own compartment (with and without the start-up snapshot).
describe('TrialRunner fresh contexts', () => {
  for (const useSnapshot of [true, false]) {
    it(`a candidate sees nothing of the previous one (snapshot ${useSnapshot ? 'on' : 'off'})`, async () => {
      const runner = new TrialRunner(useSnapshot);
      runner.warm(LIMITS.memoryMb);
      try {
        // Intrinsics are frozen (SES lockdown) and code runs in strict mode: each attempt on a
        // built-in throws; what is left (its own globals) must not reach the next candidate.
        const tamper = `function f(a) {
          const attempt = (fn) => { try { fn(); } catch {} };
          globalThis.leaked = 'yes';
          attempt(() => { Object.prototype.polluted = 'yes'; });
          attempt(() => { Array.prototype.push = function () { return 0; }; });
          attempt(() => { JSON.stringify = () => '{"status":"returned","actual":42}'; });
          attempt(() => { Map.prototype.get = () => 42; });
          console.log = () => { throw new Error('console replaced'); };
          globalThis.__sutureCov = 'hostile';
          return a;
        }`;
        const first = await runner.run({ block: { source: tamper, entry: 'f' }, cases: [valueCase([1], 1)] }, LIMITS);
        assert.equal(first.results[0].verdict, 'pass');

        const probe = `function g() {
          const arr = []; arr.push(1);
          return {
            leaked: typeof globalThis.leaked,
            polluted: ({}).polluted === undefined,
            push: arr.length,
            json: JSON.stringify({ a: 1 }),
            map: new Map([[1, 2]]).get(1),
            log: (() => { try { console.log('x'); return 'quiet'; } catch (e) { return e.message; } })(),
            f: typeof f,
          };
        }`;
        const expected = { leaked: 'undefined', polluted: true, push: 1, json: '{"a":1}', map: 2, log: 'quiet', f: 'undefined' };
        const second = await runner.run({ block: { source: probe, entry: 'g' }, cases: [valueCase([], expected)] }, LIMITS);
        assert.equal(second.results[0].verdict, 'pass', JSON.stringify(second.results[0].actual));

        // The previous candidate's bound entry is not reachable: a block without the entry is refused.
        const missing = await runner.run({ block: { source: 'const other = 1;', entry: 'f' }, cases: [valueCase([1], 1)] }, LIMITS);
        assert.equal(missing.compileError?.name, 'EntryNotFound');
      } finally {
        runner.dispose();
      }
    });
  }

  it('a pending async case of one candidate does not answer for the next', async () => {
    const runner = new TrialRunner();
    runner.warm(LIMITS.memoryMb);
    try {
      const never = await runner.run({ block: { source: '() => new Promise(() => {})' }, cases: [valueCase([], 1)] }, LIMITS);
      assert.equal(never.results[0].verdict, 'timeout');
      const next = await runner.run({ block: { source: 'async (x) => x * 2' }, cases: [valueCase([4], 8)] }, LIMITS);
      assert.equal(next.results[0].verdict, 'pass');
      const sync = await runner.run({ block: { source: '(x) => x + 1' }, cases: [valueCase([4], 5), valueCase([5], 6)] }, LIMITS);
      assert.deepEqual(sync.results.map((r) => r.verdict), ['pass', 'pass']);
    } finally {
      runner.dispose();
    }
  });
});
