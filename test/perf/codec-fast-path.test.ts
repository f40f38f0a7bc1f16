import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSnapshotCodec } from '../../core/snapshot.ts';

const codec = createSnapshotCodec({});

test('objects that skip the brand checks still encode by what they are', () => {
  class Player { name = 'hero'; }
  class Stamp extends Date {}
  class Bag extends Map<string, number> {}
  const nullProto = Object.assign(Object.create(null), { a: 1 });
  const out = codec.encode([{ a: 1 }, new Player(), new Stamp(0), new Bag([['k', 1]]), nullProto, new Set([1]), new Uint8Array([1])]) as unknown[];
  assert.deepEqual(out[0], { a: 1 });
  assert.deepEqual(out[1], { $t: 'object', class: 'Player', props: { name: 'hero' } });
  assert.equal((out[2] as { $t: string }).$t, 'date');
  assert.equal((out[3] as { $t: string }).$t, 'map');
  assert.equal((out[4] as { class: null }).class, null);
  assert.equal((out[5] as { $t: string }).$t, 'set');
  assert.equal((out[6] as { $t: string }).$t, 'typed');
});

test('encoding a small argument list costs microseconds, not hundreds of them', () => {
  const args = [{ name: 'hero', stats: { strength: 10 } }, { name: 'orc', health: 100, stats: { armor: 4 } }];
  for (let i = 0; i < 500; i++) codec.encode(args);
  const n = 2000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) codec.encode(args);
  const us = ((performance.now() - t0) / n) * 1000;
  // ~6 µs here; the throwing brand checks cost ~115 µs. A wide margin for a loaded machine.
  assert.ok(us < 60, `encode took ${us.toFixed(1)} µs`);
});
