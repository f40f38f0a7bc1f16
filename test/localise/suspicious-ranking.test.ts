import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rankSuspicious, UNIFORM_SCORE } from '../../engine/localisation/suspicious-ranking.ts';
import type { Probe } from '../../engine/localisation/coverage-instrumenter.ts';

const probes: Probe[] = [
  { id: 0, start: 0, end: 10, kind: 'statement' },
  { id: 1, start: 10, end: 20, kind: 'statement' },
  { id: 2, start: 20, end: 30, kind: 'statement' },
  { id: 3, start: 30, end: 40, kind: 'statement' },
];

test('Ochiai ranks the statement covered only by failing runs first', () => {
  const ranked = rankSuspicious(probes, [
    { passed: true, covered: [0, 1] },
    { passed: true, covered: [0, 1, 3] },
    { passed: false, covered: [0, 2] },
  ], []);
  assert.equal(ranked[0].start, 20);
  assert.equal(ranked[0].score, 1);
  // probe 0: failed 1 / sqrt(1 × 3)
  assert.ok(Math.abs(ranked.find((r) => r.start === 0)!.score - 1 / Math.sqrt(3)) < 1e-12);
  assert.equal(ranked.find((r) => r.start === 10)!.score, 0);
  assert.ok(ranked.every((r) => r.reason === 'ochiai'));
});

test('equal scores keep source order and throw sites come first', () => {
  const ranked = rankSuspicious(probes, [{ passed: false, covered: [0, 1, 2, 3] }], [35]);
  assert.deepEqual(ranked.map((r) => r.start), [30, 0, 10, 20]);
  assert.equal(ranked[0].reason, 'throw-site');
});

test('falls back to a uniform ranking when nothing failed or coverage is empty', () => {
  for (const runs of [[{ passed: true, covered: [0] }], [{ passed: false, covered: [] }]]) {
    const ranked = rankSuspicious(probes, runs, []);
    assert.equal(ranked.length, 4);
    assert.ok(ranked.every((r) => r.reason === 'all' && r.score === UNIFORM_SCORE));
    assert.deepEqual(ranked.map((r) => r.start), [0, 10, 20, 30]);
  }
});

test('a throw site picks the innermost probe', () => {
  const nested: Probe[] = [{ id: 0, start: 0, end: 50, kind: 'statement' }, { id: 1, start: 5, end: 15, kind: 'branch' }];
  const ranked = rankSuspicious(nested, [{ passed: false, covered: [0, 1] }], [7]);
  assert.deepEqual([ranked[0].start, ranked[0].end, ranked[0].reason], [5, 15, 'throw-site']);
});
