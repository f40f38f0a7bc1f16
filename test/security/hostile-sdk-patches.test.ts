import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRepairClient } from '../../sdk/index.ts';
import { makeKeys, manifestOf, signedPatch } from '../sdk/signed-patch.ts';
import { hostileCorpus } from './hostile-corpus.ts';
import { hostState, stateChanges } from './host-state.ts';

/**
 * Every hostile program as a signed patch run by the SDK in isolate mode, inside this very
 * process: the app's call ends within the patch limit plus a margin (falling back to the block's
 * own behaviour), nothing of this process changes (prototypes, globals, env, files, the caller's
 * argument keeps its prototype), and a normal patched call works right after.
 */
const LIMITS = { cpuMs: 200, wallMs: 500, memoryMb: 32 };
const MARGIN_MS = 2500;

const syncOriginal = (x: { v: number }) => x.v + 1;
const asyncOriginal = async (x: { v: number }) => x.v + 1;
const normalOriginal = (x: { v: number }) => x.v;

describe('hostile patches in the SDK isolate', () => {
  const dir = mkdtempSync(join(tmpdir(), 'suture-hostile-sdk-'));
  const files = mkdtempSync(join(tmpdir(), 'suture-hostile-sdk-backup-'));
  const mark = join(dir, 'pwned');
  const corpus = hostileCorpus(mark).filter((p) => p.sdkKnownGap === undefined);
  const keys = makeKeys();
  const times: { name: string; ms: number }[] = [];
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(files, { recursive: true, force: true });
    const slowest = times.reduce((a, b) => (b.ms > a.ms ? b : a), { name: '-', ms: 0 });
    console.log(`[hostile-sdk] ${times.length} patches; slowest containment ${slowest.ms.toFixed(0)} ms (${slowest.name}); limits cpu ${LIMITS.cpuMs} ms, wall ${LIMITS.wallMs} ms`);
  });

  it('contains each patch, leaves this process unchanged, and the app keeps working', { timeout: 120_000 }, async () => {
    const patches = corpus.map((p, i) =>
      signedPatch(keys.privateKey, { app: 'game', blockId: `h${i}`, original: p.async ? asyncOriginal : syncOriginal, source: p.source }),
    );
    patches.push(signedPatch(keys.privateKey, { app: 'game', blockId: 'normal', original: normalOriginal, source: '(x) => x.v * 10' }));
    const backupFile = join(files, 'manifest.json');
    writeFileSync(backupFile, JSON.stringify(manifestOf('game', patches)));
    const client = createRepairClient({
      url: 'http://127.0.0.1:9',
      app: 'game',
      publicKey: keys.publicKey,
      sync: 'off',
      backupFile,
      record: { sampleRate: 0 },
      limits: LIMITS,
    });
    // Kept so that a failing assertion says why the normal patch did not run.
    let lastFailure = '';
    client.on('error', (e: Error) => {
      lastFailure = `error ${e.message}`;
    });
    client.on('failure', (f: { error?: unknown; patchId?: string }) => {
      lastFailure = `failure of ${f.patchId ?? 'block'}: ${String((f.error as Error)?.message ?? f.error)}`;
    });
    const before = hostState(dir);
    try {
      for (const [i, program] of corpus.entries()) {
        const arg = { v: 1 };
        if (process.env.SUTURE_TRACE) console.error('>>', program.name);
        const started = performance.now();
        let value: unknown;
        try {
          value = await client.run(`h${i}`, program.name, (program.async ? asyncOriginal : syncOriginal) as typeof syncOriginal, arg);
        } catch (error) {
          value = error;
        }
        const ms = performance.now() - started;
        times.push({ name: program.name, ms });
        assert.ok(ms < LIMITS.wallMs + MARGIN_MS, `${program.name}: ${ms.toFixed(0)} ms`);
        assert.equal(stateChanges(before, hostState(dir)), '', `${program.name} changed this process or wrote a file`);
        assert.equal(Object.getPrototypeOf(arg), Object.prototype, `${program.name} changed the prototype of the caller's argument`);
        assert.equal(({} as Record<string, unknown>).polluted, undefined);
        assert.equal(([] as unknown as Record<string, unknown>).polluted, undefined);
        if (value !== null && typeof value === 'object') {
          assert.ok([Object.prototype, Array.prototype, Error.prototype, null].includes(Object.getPrototypeOf(value)) || value instanceof Error, `${program.name}: result prototype`);
        }
        lastFailure = '';
        assert.equal(client.run('normal', 'normal', normalOriginal, { v: 3 }), 30, `a normal patched call works after ${program.name} (${lastFailure})`);
      }
    } finally {
      await client.close();
    }
  });
});
