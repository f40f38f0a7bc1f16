import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';

function value(args: unknown[], expect: unknown): Case {
  return { id: `c${String(args[0])}`, kind: 'test', check: 'value', args, expect };
}
const slow = { source: '(n) => { const end = Date.now() + n; while (Date.now() < end) {} return n; }' };

// A host is sent its next request while one runs; these pin down what that must not change.
describe('SandboxPool requests sent ahead to a busy host', () => {
  it('run in order, each in its own report', async () => {
    const pool = new SandboxPool({ size: 1 });
    try {
      const reports = await Promise.all([1, 2, 3, 4, 5].map((n) => pool.run({ block: { source: `(x) => x + ${n}` }, cases: [value([1], 1 + n)] })));
      assert.deepEqual(reports.map((r) => r.results[0].verdict), ['pass', 'pass', 'pass', 'pass', 'pass']);
      assert.equal(pool.stats.requests, 5);
    } finally {
      await pool.close();
    }
  });

  it('a request waiting behind one whose host dies runs again on a new host, not reported crashed', async () => {
    const pool = new SandboxPool({ size: 1, limits: { cpuMs: 3000, wallMs: 3000 } });
    try {
      await pool.run({ block: slow, cases: [value([0], 0)] }); // host up and idle
      const running = pool.run({ block: slow, cases: [value([2000], 2000)] });
      const waiting = pool.run({ block: { source: '(x) => x * 2' }, cases: [value([21], 42)] });
      await new Promise((r) => setTimeout(r, 300));
      const [pid] = pool.hostPids();
      process.kill(pid, 'SIGKILL');
      const [first, second] = await Promise.all([running, waiting]);
      assert.equal(first.results[0].verdict, 'crashed');
      assert.equal(second.results[0].verdict, 'pass');
      assert.notEqual(pool.hostPids()[0], pid);
      assert.equal(pool.stats.crashes, 1);
    } finally {
      await pool.close();
    }
  });
});
