/**
 * A patch of a block with `uses` in the patch helper process: its calls to the live world come
 * back to the app and are answered there, the helper's limits still stop a hostile patch (CPU,
 * wall clock, memory) and the app then goes on, and the app answers only paths its live values
 * offer, whatever a callback asks for.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { ManifestPatch } from '../../core/wire.ts';
import { CallLog, Tracer } from '../../sdk/block-world.ts';
import { HelperExecutor } from '../../sdk/helper-executor.ts';
import type { PatchWorld } from '../../sdk/live-world.ts';
import { createSnapshotEncoder } from '../../sdk/snapshot-encoder.ts';
import { WorldHost } from '../../sdk/world-host.ts';

const encoder = createSnapshotEncoder(undefined);

function worldOf(uses: Record<string, unknown>, self?: unknown): PatchWorld {
  return { names: Object.keys(uses), values: Object.values(uses), self, tracer: new Tracer(new CallLog()), replay: null };
}

class Vault {
  #secret = 41;
  peek() {
    return this.#secret + 1;
  }
}

describe('patched calls with a world in the helper process', () => {
  const limits = { cpuMs: 300, wallMs: 600, memoryMb: 32 };
  const started: number[] = [];
  const helper = new HelperExecutor(limits, encoder, { unavailable: (m) => assert.fail(m), started: (pid) => started.push(pid) });
  after(() => helper.dispose());
  let seq = 0;
  const patch = (source: string): ManifestPatch => ({ id: `world-${++seq}`, source }) as ManifestPatch;

  it('a sync patch that loops after a live call is stopped by the CPU limit; the live call ran once; the next call works', () => {
    let ticks = 0;
    const tick = () => ++ticks;
    const t0 = Date.now();
    const run = helper.runSync(patch('() => { tick(); for (;;) {} }'), [undefined], undefined, worldOf({ tick }));
    assert.equal(run.ok, false);
    assert.equal(!run.ok && run.reason, 'timeout', String(!run.ok && run.error));
    assert.equal(ticks, 1);
    const vault = new Vault();
    const again = helper.runSync(patch('(n) => tick() + vault.peek() + n'), [undefined, 100], undefined, worldOf({ tick, vault }));
    assert.deepEqual(again, { ok: true, value: 2 + 42 + 100 });
    assert.ok(Date.now() - t0 < 15_000, `${Date.now() - t0} ms`);
  });

  it('an async patch awaiting a live promise that never settles is stopped by the wall-clock limit', async () => {
    const hang = () => new Promise(() => undefined);
    const t0 = Date.now();
    const run = await helper.runAsync(patch('async () => { await hang(); return 1; }'), [undefined], undefined, worldOf({ hang }));
    assert.equal(!run.ok && run.reason, 'timeout', String(!run.ok && run.error));
    assert.ok(Date.now() - t0 < limits.wallMs + 2_000, `${Date.now() - t0} ms`);
  });

  it('an async patch stopped by the wall-clock limit while it waits for a slow live sync call: the helper goes on', async () => {
    const slow = () => {
      const until = Date.now() + limits.wallMs + 300;
      while (Date.now() < until) {
        /* the app's own slow dependency */
      }
      return 1;
    };
    const run = await helper.runAsync(patch('async () => slow() + 1'), [undefined], undefined, worldOf({ slow }));
    assert.equal(!run.ok && run.reason, 'timeout', String(!run.ok && run.error));
    const next = await helper.runAsync(patch('async (x) => f(x)'), [undefined, 2], undefined, worldOf({ f: (x: number) => x * 10 }));
    assert.deepEqual(next, { ok: true, value: 20 });
    const sync = helper.runSync(patch('(x) => f(x)'), [undefined, 3], undefined, worldOf({ f: (x: number) => x * 10 }));
    assert.deepEqual(sync, { ok: true, value: 30 });
    assert.equal(started.length, 1, 'the same helper process all along (its isolate was replaced, not the process)');
  });

  it('a sync patch whose live call takes longer than the CPU limit still gets its answer (in process, that time is not counted either)', () => {
    const slow = () => {
      const until = Date.now() + limits.cpuMs + 200;
      while (Date.now() < until) {
        /* the app's own slow dependency */
      }
      return 1;
    };
    assert.deepEqual(helper.runSync(patch('() => slow() + 1'), [undefined], undefined, worldOf({ slow })), { ok: true, value: 2 });
  });

  it('a sync call waiting behind an async call that needs the app: the app answers it from the wait loop (no deadlock)', async () => {
    const marks: string[] = [];
    const wait = () => new Promise((r) => setTimeout(r, 5));
    const mark = () => (marks.push('a'), 7);
    // A: once its first live promise settled, it keeps the helper's isolate busy, then calls the app again.
    const a = helper.runAsync(patch('async () => { await wait(); const t = Date.now(); while (Date.now() - t < 150) {} return mark(); }'), [undefined], undefined, worldOf({ wait, mark }));
    await new Promise((r) => setTimeout(r, 60));
    // B (sync) reaches the helper while A runs: it can run only after A, and A needs its mark() answered.
    const t0 = Date.now();
    const b = helper.runSync(patch('(x) => f(x)'), [undefined, 4], undefined, worldOf({ f: (x: number) => (marks.push('b'), x * 10) }));
    const tookB = Date.now() - t0;
    assert.deepEqual(b, { ok: true, value: 40 });
    assert.deepEqual(await a, { ok: true, value: 7 });
    assert.deepEqual(marks, ['a', 'b']);
    assert.ok(tookB < 1_000, `the sync call took ${tookB} ms`);
  });

  it('a patch that fills its heap ends with memory, and its world call changes nothing', () => {
    const state = { n: 1 };
    const run = helper.runSync(patch('() => { state.n = 2; const a = []; for (;;) a.push(new Array(1e5).fill(state.n)); }'), [undefined], undefined, worldOf({ state }));
    assert.equal(run.ok, false);
    assert.equal(!run.ok && run.reason, 'memory', String(!run.ok && run.error));
    assert.deepEqual(state, { n: 1 });
  });

  it('a sync patch that returns a promise fails, as in process', () => {
    const run = helper.runSync(patch('() => Promise.resolve(f())'), [undefined], undefined, worldOf({ f: () => 1 }));
    assert.equal(run.ok, false);
    assert.match(String(!run.ok && (run.error as Error).message), /promise where the block returns a plain value/);
  });
});

describe('the app answers a callback only on paths its live values offer', () => {
  it('refuses constructor, prototype, __proto__, names outside uses and calls that ended', () => {
    const host = new WorldHost(encoder);
    const vault = new Vault();
    const args = encoder.exact.stringify(encoder.exact.encode([]));
    const { token } = host.enter(worldOf({ vault, cfg: { rate: 2 } }), encoder.exact.stringify(encoder.exact.encode([undefined])), false);
    assert.equal(host.call(token, 'vault.peek', args), `R${encoder.exact.stringify(encoder.exact.encode(42))}`);
    for (const path of ['vault.constructor', 'vault.__proto__.peek', 'vault.peek.constructor', 'cfg.constructor', 'process.exit', 'globalThis.process', 'this.constructor', 'cfg.rate', 'cfg']) {
      const out = host.call(token, path, args);
      assert.equal(out.charAt(0), 'E', `${path}: ${out}`);
      assert.match(out, /is not reachable|is not a function/, path);
    }
    host.leave(token);
    assert.match(host.call(token, 'vault.peek', args), /^E.*called after its patched call ended/);
    assert.match(host.call(12345, 'vault.peek', args), /^E.*called after its patched call ended/);
  });
});
