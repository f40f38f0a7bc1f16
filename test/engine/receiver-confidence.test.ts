import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { assessConfidence } from '../../engine/oracle/confidence.ts';
import { readPaths } from '../../engine/oracle/read-paths.ts';
import type { CandidateReport } from '../../engine/repair-report.ts';

const plausible = (rank: number, source: string) =>
  ({ rank, source, suspect: false, generator: 'template:test', description: `candidate ${rank}`, status: 'plausible', prior: 0.5, editSize: 1, diff: '', passed: 1, total: 1, trials: [], ms: 0 }) as CandidateReport;

test('read paths: with receiver, the function\'s own this is a trailing parameter; a nested function\'s this is not', () => {
  const block = { source: 'function () {\n  let t = 0;\n  this.lines.forEach(function (line) { t += line.qty * this.fee; });\n  const add = () => this.bonus;\n  return t + add();\n}' };
  const reads = readPaths(block, { receiver: true });
  assert.deepEqual(reads.params, ['this']);
  const shown = reads.paths.map((p) => [p.arg, p.keys.map((k) => (typeof k === 'string' ? k : '[]')).join('.')]);
  assert.deepEqual(shown.sort(), [[0, 'bonus'], [0, 'lines'], [0, 'lines.[].qty']].sort());
  assert.deepEqual(readPaths(block).paths, [], 'without receiver nothing is read from a parameter');
});

test('confidence: a method without arguments is compared on generated receivers, not left with no input', async (t) => {
  const pool = new SandboxPool({ size: 1 });
  t.after(() => pool.close());
  const block = { source: 'function () {\n  return this.price * this.qty;\n}' };
  const world = (price: number, qty: number) => ({ uses: {}, calls: [], this: { $t: 'object', class: 'Line', props: { price, qty } } });
  const cases: Case[] = [
    { id: 'f', kind: 'failure', check: 'no-throw', args: [], world: world(2, 2) },
    { id: 'r', kind: 'recorded', check: 'value', args: [], expect: 6, world: world(3, 2) },
  ];
  const failing = new Set(['f']);
  const alike = await assessConfidence(block, cases, failing, [plausible(1, 'function () {\n  return this.price * this.qty;\n}'), plausible(2, 'function () {\n  return this.qty * this.price;\n}')], pool, {}, true);
  assert.equal(alike.confidence.level, 'high', alike.confidence.reason);
  assert.ok(alike.confidence.inputs > 0);

  const differ = await assessConfidence(block, cases, failing, [plausible(1, 'function () {\n  return this.price * this.qty;\n}'), plausible(2, 'function () {\n  return this.price + this.qty + 1;\n}')], pool, {}, true);
  assert.equal(differ.confidence.level, 'low');
  assert.match(differ.confidence.reason, /answer differently/);
  for (const d of differ.confidence.disagreements) {
    const receiver = d.args[d.args.length - 1] as { props: { price: number; qty: number } };
    const { price, qty } = receiver.props;
    assert.deepEqual(d.answers.map((a) => a.answer), [JSON.stringify(price * qty), JSON.stringify(price + qty + 1)], 'each answer is the candidate\'s on that receiver');
  }
});
