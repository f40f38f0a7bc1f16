import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import type IvmModule from 'isolated-vm';
import { classifyIsolateFailure, IsolateSlot, runScripts, type IsolateRealm } from '../../core/isolate-lifecycle.ts';

const ivm = createRequire(import.meta.url)('isolated-vm') as typeof IvmModule;

interface TestRealm extends IsolateRealm {
  context: IvmModule.Context;
  f: IvmModule.Reference<(mode: string) => unknown>;
}

function slot(): IsolateSlot<TestRealm> {
  return new IsolateSlot<TestRealm>(
    (memoryMb) => new ivm.Isolate({ memoryLimit: memoryMb }),
    (iso) => {
      const context = iso.createContextSync();
      runScripts(iso, context, [{ code: `globalThis.f = (mode) => {
        if (mode === 'fill') { globalThis.keep = []; for (let i = 0; i < 12; i++) globalThis.keep.push(new Array(2e5).fill(i)); return 0; }
        if (mode === 'blow') { const a = []; for (;;) a.push(new Array(1e5).fill(1)); }
        if (mode === 'spin') for (;;);
        if (mode === 'lie-memory') throw new Error('Isolate was disposed during execution due to memory limit');
        return 1;
      };`, filename: 'f.js' }], 1000);
      const f = context.global.getSync('f', { reference: true }) as TestRealm['f'];
      return { context, f, handles: [f, context] };
    },
  );
}

function call(realm: TestRealm, mode: string): unknown {
  try {
    return realm.f.applySync(undefined, [mode], { timeout: 200 });
  } catch (error) {
    return error;
  }
}

test('memory blow-up: lost, dropped, and the next realm is a new isolate', () => {
  const s = slot();
  const first = s.realm(16);
  assert.equal(s.realm(16), first, 'same limit, live isolate: the realm is kept');
  const error = call(first, 'blow');
  assert.equal(s.failed(error), 'memory');
  assert.equal(s.isolate, null);
  const next = s.realm(16);
  assert.notEqual(next, first);
  assert.equal(call(next, 'ok'), 1);
  assert.equal(s.created, 2);
  s.drop();
});

test('code cannot pass its own error off as a memory blow-up or a lost isolate', () => {
  const s = slot();
  const realm = s.realm(16);
  const error = call(realm, 'lie-memory');
  assert.equal(s.failed(error), 'threw');
  assert.equal(s.realm(16), realm, 'the isolate is kept');
  assert.equal(classifyIsolateFailure(s.isolate, error), 'threw');
  s.drop();
});

test('timeout is classified; dropping releases the handles and disposes the isolate', () => {
  const s = slot();
  const realm = s.realm(16);
  const iso = s.isolate as IvmModule.Isolate;
  assert.equal(s.failed(call(realm, 'spin')), 'timeout');
  assert.equal(s.isolate, iso, 'a timeout leaves the decision when to retire to the owner');
  s.drop();
  assert.equal(iso.isDisposed, true);
  assert.throws(() => realm.f.applySync(undefined, ['ok']));
  assert.equal(s.current, null);
});

test('a different memory limit starts a new isolate; a heap over half the limit is dropped', async () => {
  const s = slot();
  const a = s.realm(16);
  const b = s.realm(32);
  assert.notEqual(a, b);
  assert.equal(s.memoryMb, 32);
  s.dropIfHeapFullSync();
  assert.equal(s.current, b, 'an empty heap is kept');
  call(b, 'fill'); // about 19 MB of arrays in a 32 MB isolate
  await s.dropIfHeapFull();
  assert.equal(s.current, null);
  s.drop();
});

test('a realm whose building throws takes its isolate with it', () => {
  let made: IvmModule.Isolate | null = null;
  const s = new IsolateSlot<TestRealm>(
    (memoryMb) => (made = new ivm.Isolate({ memoryLimit: memoryMb })),
    (iso) => {
      runScripts(iso, iso.createContextSync(), [{ code: 'for (;;);', filename: 'stuck.js' }], 50);
      throw new Error('unreachable');
    },
  );
  assert.throws(() => s.realm(16), /timed out/);
  assert.equal((made as IvmModule.Isolate | null)?.isDisposed, true);
  assert.equal(s.isolate, null);
});
