import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { repairBlock } from '../../engine/repair-engine.ts';
import { assessConfidence } from '../../engine/oracle/confidence.ts';
import type { CandidateReport } from '../../engine/repair-report.ts';

const plausible = (rank: number, source: string, suspect = false) =>
  ({ rank, source, suspect, generator: 'template:test', description: `candidate ${rank}`, status: 'plausible', prior: 0.5, editSize: 1, diff: '', passed: 1, total: 1, trials: [], ms: 0 }) as CandidateReport;

test('confidence: plausible candidates that answer differently on generated inputs give low, with the inputs; one behaviour gives high', async (t) => {
  const pool = new SandboxPool({ size: 1 });
  t.after(() => pool.close());
  const block = { source: 'function f(a, b) { return a - b; }', entry: 'f' };
  const cases: Case[] = [{ id: 'c', kind: 'test', check: 'value', args: [2, 2], expect: 4 }];
  const failing = new Set(['c']);

  const differ = await assessConfidence(block, cases, failing, [plausible(1, 'function f(a, b) { return a + b; }'), plausible(2, 'function f(a, b) { return a * b; }')], pool, {}, true);
  assert.equal(differ.confidence.level, 'low');
  assert.match(differ.confidence.reason, /answer differently on \d+ of \d+ generated inputs/);
  assert.deepEqual(differ.confidence.alternatives?.map((a) => a.rank), [2]);
  assert.ok(differ.confidence.disagreements.length > 0);
  for (const d of differ.confidence.disagreements) {
    const [a, b] = d.args as number[];
    assert.deepEqual(d.answers, [{ rank: 1, answer: String(a + b) }, { rank: 2, answer: String(a * b) }], 'each answer as the candidate gives it');
    assert.notEqual(a + b, a * b);
  }
  assert.ok(differ.trials > 0);

  const alike = await assessConfidence(block, cases, failing, [plausible(1, 'function f(a, b) { return a + b; }'), plausible(2, 'function f(a, b) { return b + a; }')], pool, {}, true);
  assert.equal(alike.confidence.level, 'high');
  assert.match(alike.confidence.reason, /answer alike on \d+ generated inputs/);
  assert.ok(alike.confidence.inputs > 0);

  const single = await assessConfidence(block, cases, failing, [plausible(1, 'function f(a, b) { return a + b; }')], pool, {}, true);
  assert.deepEqual([single.confidence.level, single.trials], ['high', 0]);

  const suspectRival = await assessConfidence(block, cases, failing, [plausible(1, 'function f(a, b) { return a + b; }'), plausible(2, 'function f(a, b) { return 4; }', true)], pool, {}, true);
  assert.equal(suspectRival.confidence.level, 'high', 'a known overfitting shape does not count against a winner that is not one');

  // Only inputs of the kinds the job's own inputs show: numbers here, never null or a string.
  for (const d of differ.confidence.disagreements) assert.ok((d.args as unknown[]).every((a) => typeof a === 'number'), JSON.stringify(d.args));
});

test('the engine sets the confidence of its winner: low where one case leaves the operator open, high where the cases pin it', async (t) => {
  const pool = new SandboxPool({ size: 2 });
  t.after(() => pool.close());
  const open = await repairBlock({ source: 'function f(a, b) { return a - b; }', entry: 'f' }, [{ id: 'c', kind: 'test', check: 'value', args: [2, 2], expect: 4 }], { pool, budgetMs: 10_000 });
  assert.ok(open.winner);
  assert.equal(open.confidence?.level, 'low');
  assert.ok((open.confidence?.alternatives?.length ?? 0) > 0);

  const pinned: Case[] = [[2, 2, 4], [5, 1, 6], [0, 3, 3], [-4, 1, -3]].map(([a, b, sum], i) => ({ id: `c${i}`, kind: 'test', check: 'value', args: [a, b], expect: sum }));
  const sure = await repairBlock({ source: 'function f(a, b) { return a - b; }', entry: 'f' }, pinned, { pool, budgetMs: 10_000 });
  assert.equal(sure.winner?.source, 'function f(a, b) { return a + b; }');
  assert.equal(sure.confidence?.level, 'high', sure.confidence?.reason);

  const off = await repairBlock({ source: 'function f(a, b) { return a - b; }', entry: 'f' }, pinned, { pool, budgetMs: 10_000, confidence: false });
  assert.equal(off.confidence, undefined);
});

test('confidence of a block that reads uses: candidates are compared in the job\'s world, not in an empty one where both only throw ReferenceError', async (t) => {
  const pool = new SandboxPool({ size: 1 });
  t.after(() => pool.close());
  const block = { source: 'function price(qty) { return qty - RATE; }', entry: 'price', uses: ['RATE'] };
  const world = { uses: { RATE: 3 }, calls: [] };
  const cases: Case[] = [{ id: 'c', kind: 'test', check: 'value', args: [3], expect: 9, world }];
  const differ = await assessConfidence(block, cases, new Set(['c']), [plausible(1, 'function price(qty) { return qty * RATE; }'), plausible(2, 'function price(qty) { return qty + 6; }')], pool, {}, true);
  assert.equal(differ.confidence.level, 'low', differ.confidence.reason);
  assert.ok(differ.confidence.disagreements.every((d) => d.answers.every((a) => !/ReferenceError/.test(a.answer))));
});
