import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Case, TrialReport, TrialRequest } from '../../core/types.ts';
import { DEFAULT_LIMITS, SandboxClosedError, SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';

const LIMITS = { cpuMs: 250, wallMs: 500, memoryMb: 32 };
/** Containment must end within its limit plus this (IPC, probing, a new isolate). */
const MARGIN_MS = 700;

let seq = 0;
function value(args: unknown[], expect: unknown, extra: Partial<Case> = {}): Case {
  return { id: `c${++seq}`, kind: 'test', check: 'value', args, expect, ...extra };
}
/** A value case whose expectation doesn't matter: the test reads `actual`. */
function noThrowValue(): Case {
  return { id: `c${++seq}`, kind: 'test', check: 'value', args: [], expect: null };
}
function noThrow(args: unknown[] = []): Case {
  return { id: `c${++seq}`, kind: 'test', check: 'no-throw', args };
}
async function timed(pool: SandboxPool, request: TrialRequest): Promise<{ report: TrialReport; ms: number }> {
  const started = performance.now();
  const report = await pool.run({ limits: LIMITS, ...request });
  return { report, ms: performance.now() - started };
}

describe('SandboxPool', () => {
  let pool: SandboxPool;
  const protoKeysBefore = Object.getOwnPropertyNames(Object.prototype).sort();
  const globalKeysBefore = Object.getOwnPropertyNames(globalThis).sort();

  before(async () => {
    pool = new SandboxPool({ size: 2, limits: LIMITS });
    // Start both hosts.
    await Promise.all([pool.run({ block: { source: '() => 1' }, cases: [] }), pool.run({ block: { source: '() => 1' }, cases: [] })]);
  });
  after(async () => {
    await pool.close();
    assert.deepEqual(pool.hostPids(), []);
    await assert.rejects(pool.run({ block: { source: '() => 1' }, cases: [] }), SandboxClosedError);
  });

  it('exports the documented default limits', () => {
    assert.deepEqual(DEFAULT_LIMITS, { cpuMs: 1000, wallMs: 2000, memoryMb: 64, maxResultBytes: 1_000_000 });
  });

  it('reports pass, wrong-result and threw with the throw position in the block', async () => {
    const source = 'function total(items) {\n  let sum = 0;\n  for (const it of items) sum += it.price;\n  return sum;\n}';
    const { report } = await timed(pool, {
      block: { source, entry: 'total' },
      cases: [value([[{ price: 2 }, { price: 3 }]], 5), value([[{ price: 2 }]], 3), noThrow([[null]])],
    });
    assert.equal(report.compileError, undefined);
    assert.deepEqual(report.results.map((r) => r.verdict), ['pass', 'wrong-result', 'threw']);
    assert.equal(report.results[1].actual, 2);
    const err = report.results[2].error!;
    assert.equal(err.name, 'TypeError');
    assert.equal(err.line, 3);
    assert.equal(source.slice(err.offset!, err.offset! + 5), 'price');
  });

  it('maps positions of an entry-less function expression to its own source', async () => {
    const source = 'async (user) => {\n  await null;\n  return user.name.trim();\n}';
    const { report } = await timed(pool, { block: { source }, cases: [value([{ name: ' a ' }], 'a'), noThrow([{}])] });
    assert.equal(report.results[0].verdict, 'pass');
    const err = report.results[1].error!;
    assert.equal(report.results[1].verdict, 'threw');
    assert.equal(err.line, 3);
    assert.equal(source.slice(err.offset!, err.offset! + 4), 'trim');
  });

  it('reports compile errors with a position, and a missing entry', async () => {
    const bad = await pool.run({ block: { source: 'function f() {\n  return 1 +;\n}', entry: 'f' }, cases: [noThrow()] });
    assert.equal(bad.compileError?.name, 'SyntaxError');
    assert.equal(bad.compileError?.line, 2);
    assert.equal(bad.results.length, 0);
    const missing = await pool.run({ block: { source: 'const g = () => 1;', entry: 'f' }, cases: [noThrow()] });
    assert.equal(missing.compileError?.name, 'EntryNotFound');
    const lexical = await pool.run({ block: { source: 'const f = (a) => a * 2;', entry: 'f' }, cases: [value([4], 8)] });
    assert.equal(lexical.results[0].verdict, 'pass', 'a top-level const is found by name');
  });

  it('runs script cases with console.assert, awaiting promises', async () => {
    const block = { source: 'const double = async (x) => x * 2;', entry: 'double' };
    const { report } = await timed(pool, {
      block,
      cases: [
        { id: 'ok', kind: 'test', check: 'script', script: 'double(2).then((v) => console.assert(v === 4, "2*2"))' },
        { id: 'bad', kind: 'test', check: 'script', script: 'console.log("quiet"); (async () => console.assert((await double(2)) === 5, "want", 5))()' },
      ],
    });
    assert.deepEqual(report.results.map((r) => r.verdict), ['pass', 'threw']);
    assert.equal(report.results[1].error?.name, 'AssertionError');
    assert.equal(report.results[1].error?.message, 'want 5');
  });

  it('compares argument state after the call and rich return values', async () => {
    const block = { source: '(list, tag) => { list.items.push(tag); return new Map([[tag, new Set([NaN])]]); }' };
    const expectMap = { $t: 'map', entries: [['x', { $t: 'set', values: [{ $t: 'number', v: 'NaN' }] }]] };
    const { report } = await timed(pool, {
      block,
      cases: [
        value([{ items: [] }, 'x'], expectMap, { argsAfter: [{ items: ['x'] }, 'x'] }),
        value([{ items: [] }, 'x'], expectMap, { argsAfter: [{ items: [] }, 'x'] }),
      ],
    });
    assert.deepEqual(report.results.map((r) => r.verdict), ['pass', 'wrong-result']);
    assert.deepEqual(report.results[1].actualArgsAfter, [{ items: ['x'] }, 'x']);
  });

  it('redacts secrets in results the same way as in expectations', async () => {
    const { report } = await timed(pool, { block: { source: '() => ({ user: "a", password: "real" })' }, cases: [value([], { user: 'a', password: 'recorded' })] });
    assert.equal(report.results[0].verdict, 'pass');
    assert.deepEqual(report.results[0].actual, { user: 'a', password: { $t: 'redacted' } });
  });

  it('reports coverage probes and stops at the first failure when asked', async () => {
    const source = '(x) => { __sutureCov[0] = 1; if (x > 0) { __sutureCov[2] = 1; return 1; } __sutureCov[5] = 1; return 0; }';
    const { report } = await timed(pool, { block: { source }, coverage: true, cases: [value([1], 1), value([-1], 0)] });
    assert.deepEqual(report.results.map((r) => r.covered), [[0, 2], [0, 5]]);
    const stop = await pool.run({ block: { source: '(x) => x' }, stopOnFirstFailure: true, cases: [value([1], 1), value([2], 3), value([3], 3)] });
    assert.deepEqual(stop.results.map((r) => r.verdict), ['pass', 'wrong-result']);
  });

  it('stops an endless synchronous loop at the CPU limit and keeps the context usable', async () => {
    const { report, ms } = await timed(pool, { block: { source: '(n) => { if (n) for (;;) {} return 7; }' }, cases: [noThrow([1]), value([0], 7)] });
    assert.deepEqual(report.results.map((r) => r.verdict), ['timeout', 'pass']);
    assert.ok(ms < LIMITS.cpuMs + MARGIN_MS, `took ${ms} ms`);
  });

  it('stops a promise that never settles at the wall-clock limit', async () => {
    const { report, ms } = await timed(pool, { block: { source: '(n) => n ? new Promise(() => {}) : 1' }, cases: [noThrow([1]), value([0], 1)] });
    assert.deepEqual(report.results.map((r) => r.verdict), ['timeout', 'pass']);
    assert.match(report.results[0].error!.message, /wall-clock/);
    assert.ok(ms < LIMITS.wallMs + MARGIN_MS, `took ${ms} ms`);
  });

  it('stops an endless loop after an await (microtasks)', async () => {
    const { report, ms } = await timed(pool, { block: { source: 'async () => { await null; await Promise.resolve(); for (;;) {} }' }, cases: [noThrow()] });
    assert.equal(report.results[0].verdict, 'timeout');
    assert.ok(ms < LIMITS.cpuMs + MARGIN_MS, `took ${ms} ms`);
    const spin = await timed(pool, { block: { source: 'async () => { for (;;) await null; }' }, cases: [noThrow()] });
    assert.equal(spin.report.results[0].verdict, 'timeout');
    assert.ok(spin.ms < LIMITS.wallMs + MARGIN_MS, `took ${spin.ms} ms`);
  });

  it('stops code still running at the wall-clock limit (CPU limit above it) by replacing the isolate', async () => {
    const { report, ms } = await timed(pool, {
      block: { source: '(n) => { if (n) for (;;) {} return 2; }' },
      limits: { cpuMs: 5000, wallMs: 300 },
      cases: [noThrow([1]), value([0], 2)],
    });
    assert.deepEqual(report.results.map((r) => r.verdict), ['timeout', 'pass']);
    assert.ok(ms < 300 + MARGIN_MS, `took ${ms} ms`);
  });

  it('reports a memory bomb as memory and carries on in a new isolate', async () => {
    // Generous time limits: on a loaded machine the bomb must still hit memory before time.
    const limits = { cpuMs: 3000, wallMs: 3000 };
    const { report, ms } = await timed(pool, {
      block: { source: '(n) => { if (!n) return 3; const a = []; for (;;) a.push(new Array(1e5).fill(1.5)); }' },
      limits,
      cases: [noThrow([1]), value([0], 3)],
    });
    assert.deepEqual(report.results.map((r) => r.verdict), ['memory', 'pass']);
    assert.ok(ms < limits.cpuMs, `took ${ms} ms`);
  });

  it('reports deep recursion as a RangeError with its position', async () => {
    const source = 'function down(n) {\n  return down(n + 1) + 1;\n}';
    const limits = { cpuMs: 3000, wallMs: 3000 };
    const { report, ms } = await timed(pool, { block: { source, entry: 'down' }, limits, cases: [noThrow([0])] });
    const r = report.results[0];
    assert.equal(r.verdict, 'threw');
    assert.equal(r.error?.name, 'RangeError');
    assert.equal(r.error?.line, 2);
    assert.ok(ms < limits.cpuMs, `took ${ms} ms`);
  });

  it('refuses a result over maxResultBytes', async () => {
    const { report } = await timed(pool, {
      block: { source: '() => Array.from({ length: 5000 }, (_, i) => "x".repeat(100) + i)' },
      limits: { maxResultBytes: 100_000 },
      cases: [value([], [])],
    });
    assert.equal(report.results[0].verdict, 'memory');
    assert.equal(report.results[0].error?.name, 'ResultTooLarge');
  });

  it('contains escape attempts and leaves this process unchanged', async () => {
    const source = `async () => {
      const attempt = async (f) => { try { const v = await f(); return v === undefined ? 'undefined' : typeof v; } catch (e) { return e.name; } };
      return {
        polluteProto: await attempt(() => { Object.prototype.pollutedInside = 1; }),
        fnCtor: await attempt(() => (() => {}).constructor('return typeof process')()),
        globalFunction: await attempt(() => Function('return typeof process')()),
        process: typeof globalThis.process,
        require: typeof require,
        evalRequire: await attempt(() => (0, eval)('require("fs")')),
        proto: JSON.parse('{"__proto__":{"polluted":"yes"}}'),
      };
    }`;
    const { report } = await timed(pool, { block: { source }, cases: [value([], null)] });
    const actual = report.results[0].actual as Record<string, unknown>;
    // Intrinsics are frozen: writing to Object.prototype throws in strict code.
    assert.equal(actual.polluteProto, 'TypeError');
    // SES replaces the Function constructor reachable from functions; the compartment's own
    // Function evaluates inside the compartment, which has no process.
    assert.equal(actual.fnCtor, 'TypeError');
    assert.equal(actual.globalFunction, 'string');
    assert.equal(actual.process, 'undefined');
    assert.equal(actual.require, 'undefined');
    // Code built at run time reads names the block's text does not show: a compartment answers
    // undefined for them (there is no require to call).
    assert.equal(actual.evalRequire, 'TypeError');
    assert.ok(Object.hasOwn(actual.proto as object, '__proto__'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(({} as Record<string, unknown>).pollutedInside, undefined);
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), protoKeysBefore);
    assert.deepEqual(Object.getOwnPropertyNames(globalThis).sort(), globalKeysBefore);
    const next = await pool.run({ block: { source: '() => ({}).pollutedInside' }, cases: [value([], { $t: 'undefined' })] });
    assert.equal(next.results[0].verdict, 'pass');
  });

  it('refuses dynamic import and direct eval in a candidate before it runs', async () => {
    for (const source of ['async () => import("node:fs")', '() => eval("1 + 1")']) {
      const report = await pool.run({ block: { source }, cases: [value([], 2)] });
      assert.equal(report.compileError?.name, 'SyntaxError', source);
      assert.match(report.compileError?.message ?? '', /SES_(IMPORT|EVAL)_REJECTED/);
    }
  });

  it('a candidate that tampers with built-ins cannot forge its own verdict', async () => {
    const source = `() => {
      const forged = '{"status":"returned","actual":3}';
      const attempt = (fn) => { try { fn(); } catch {} };
      attempt(() => { JSON.stringify = () => forged; });
      attempt(() => { Object.prototype.toJSON = () => 3; });
      attempt(() => { Object.keys = () => []; });
      attempt(() => { Array.isArray = () => false; });
      attempt(() => { Reflect.apply = () => 3; });
      return 2;
    }`;
    const { report } = await timed(pool, { block: { source }, cases: [value([], 3)] });
    assert.equal(report.results[0].verdict, 'wrong-result');
    assert.equal(report.results[0].actual, 2);
  });

  it('runs two requests on two hosts at the same time', async () => {
    // Each trial reports when it ran; overlapping intervals prove parallel hosts whatever the machine's load.
    const busy = { source: '() => { const start = Date.now(); const end = start + 300; while (Date.now() < end) {} return { start, end: Date.now() }; }' };
    const limits = { cpuMs: 5000, wallMs: 5000 };
    const reports = await Promise.all([pool.run({ block: busy, limits, cases: [noThrowValue()] }), pool.run({ block: busy, limits, cases: [noThrowValue()] })]);
    const [a, b] = reports.map((r) => r.results[0].actual as { start: number; end: number });
    assert.ok(a.start < b.end && b.start < a.end, `intervals ${JSON.stringify([a, b])} do not overlap`);
  });
});

describe('SandboxPool host crashes', () => {
  it('idle hosts do not keep the parent alive, and leave with it', async () => {
    const { spawnSync } = await import('node:child_process');
    const poolUrl = new URL('../../engine/sandbox/sandbox-pool.ts', import.meta.url).href;
    const script = `import { SandboxPool } from ${JSON.stringify(poolUrl)};
      const pool = new SandboxPool({ size: 1 });
      const report = await pool.run({ block: { source: '() => 41 + 1' }, cases: [{ id: 'a', kind: 'test', check: 'value', args: [], expect: 42 }] });
      console.log(JSON.stringify({ verdict: report.results[0].verdict, pids: pool.hostPids() }));
      // no close(): the process must still end by itself`;
    const started = performance.now();
    const child = spawnSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(child.status, 0, child.stderr);
    assert.ok(performance.now() - started < 15_000);
    const { verdict, pids } = JSON.parse(child.stdout.trim().split('\n').pop()!) as { verdict: string; pids: number[] };
    assert.equal(verdict, 'pass');
    // Gone, or a zombie waiting for init to reap it: either way it has exited.
    const { readFileSync } = await import('node:fs');
    const exited = (pid: number) => {
      try {
        return /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
      } catch {
        return true;
      }
    };
    const deadline = performance.now() + 3000;
    while (pids.some((pid) => !exited(pid)) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    for (const pid of pids) assert.ok(exited(pid), `host ${pid} left with its parent`);
  });

  it('reports crashed when a host is killed mid-request, then carries on', async () => {
    const pool = new SandboxPool({ size: 1, limits: { cpuMs: 3000, wallMs: 3000 } });
    try {
      const slow = { source: '(n) => { const end = Date.now() + n; while (Date.now() < end) {} return n; }' };
      await pool.run({ block: slow, cases: [value([0], 0)] }); // host up and idle
      const running = pool.run({ block: slow, cases: [value([0], 0), value([2000], 2000), value([0], 0)] });
      // Wait until the host has the request and has finished the first case.
      await new Promise((r) => setTimeout(r, 300));
      const [pid] = pool.hostPids();
      assert.ok(pid > 0);
      const killedAt = performance.now();
      process.kill(pid, 'SIGKILL');
      const report = await running;
      assert.ok(performance.now() - killedAt < 1000, 'the crash is reported promptly');
      assert.deepEqual(report.results.map((r) => r.verdict), ['pass', 'crashed', 'crashed']);
      assert.match(report.results[1].error!.message, /SIGKILL/);
      const again = await pool.run({ block: slow, cases: [value([1], 1)] });
      assert.equal(again.results[0].verdict, 'pass');
      assert.notEqual(pool.hostPids()[0], pid);
      assert.equal(pool.stats.crashes, 1);
      assert.equal(pool.stats.restarts, 1);
      assert.equal(pool.stats.requests, 3);
      assert.equal(pool.stats.trials, 5);
    } finally {
      await pool.close();
    }
  });
});
