import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import { generateTemplateCandidates } from '../../engine/generators/template/template-generator.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { repairBlock } from '../../engine/repair-engine.ts';

function sources(source: string, entry: string): string[] {
  return [...generateTemplateCandidates({ source, entry }, [], { pairs: false })].map((c) => c.source);
}

test('a boolean sort comparator becomes a subtracting one, in both directions', () => {
  const out = sources('function top(xs) {\n  return xs.sort((a, b) => b.score > a.score);\n}', 'top');
  assert.ok(out.some((s) => s.includes('(a, b) => b.score - a.score')));
  assert.ok(out.some((s) => s.includes('(a, b) => a.score - b.score')));
});

test('.map(parseInt) gets a function that ignores the index', () => {
  const out = sources("function parse(s) {\n  return s.split(',').map(parseInt);\n}", 'parse');
  assert.ok(out.some((s) => s.includes('.map(Number)')));
  assert.ok(out.some((s) => s.includes('.map((value) => parseInt(value, 10))')));
});

test('seconds passed to new Date are scaled to milliseconds, and + operands can be made numeric', () => {
  const out = sources('function expiry(token, extra) {\n  return new Date(token.exp).getTime() + extra;\n}', 'expiry');
  assert.ok(out.some((s) => s.includes('new Date(token.exp * 1000)')));
  assert.ok(out.some((s) => s.includes('+ Number(extra)')));
});

test('an arrow callback typed as a comparison with an undeclared name becomes the arrow', () => {
  const typo = `function cheap(items, limit) {\n  return items.filter(it > it.price < limit);\n}`;
  const block = { source: typo, entry: 'cheap' };
  const arrow = [...generateTemplateCandidates(block, [], { pairs: false })];
  const first = arrow.findIndex((c) => c.source === typo.replace('it > it.price', 'it => it.price'));
  assert.ok(first >= 0 && first < 5, `arrow at ${first}`);
  assert.equal(arrow[first].generator, 'template:arrow-callback');
  // With a second bug in the callback's body, the pair is reached early among the pairs.
  const both = typo.replace('it > it.price < limit', 'it => it.price <= limit');
  const pairs = [...generateTemplateCandidates(block, [])];
  const singles = arrow.length;
  const pair = pairs.findIndex((c) => c.source === both);
  assert.ok(pair >= singles && pair < singles + 60, `pair at ${pair} (${singles} singles)`);
  // `>=` for `=>`, the two characters swapped, and every method that takes a callback.
  assert.ok(sources('function f(xs) {\n  return xs.map(x >= x * 2);\n}', 'f').includes('function f(xs) {\n  return xs.map(x => x * 2);\n}'));
  assert.ok(sources('function f(xs) {\n  return xs.reduce(a > a + 1, 0);\n}', 'f').includes('function f(xs) {\n  return xs.reduce(a => a + 1, 0);\n}'));
  // Not when the name is declared, a global, or a value the block uses from outside, nor for a method taking no callback.
  const none = (source: string, uses?: string[]) =>
    ![...generateTemplateCandidates({ source, entry: 'f', uses }, [], { pairs: false })].some((c) => c.generator === 'template:arrow-callback');
  assert.ok(none('function f(xs, x) {\n  return xs.filter(x > 2);\n}'));
  assert.ok(none('function f(xs) {\n  return xs.filter(Infinity > 2);\n}'));
  assert.ok(none('function f(xs) {\n  return xs.filter(limit > 2);\n}', ['limit']));
  assert.ok(none('function f(xs) {\n  return xs.includes(x > 2);\n}'));
  assert.ok(none('function f(xs) {\n  return xs.filter(2 > x);\n}'));
});

test('the engine repairs a comparison meant as an arrow callback', { timeout: 60_000 }, async (t) => {
  const pool = new SandboxPool({ size: 1 });
  t.after(() => pool.close());
  const source = `function rare(words) {\n  const seen = {};\n  for (const w of words) seen[w] = (seen[w] ?? 0) + 1;\n  return words.filter(w > seen[w] < 2);\n}`;
  const cases: Case[] = [
    { id: 't1', kind: 'test', check: 'value', args: [['a', 'b', 'a', 'c']], expect: ['b', 'c'] },
    { id: 't2', kind: 'test', check: 'value', args: [['x', 'x', 'y', 'y', 'y', 'z']], expect: ['z'] },
    { id: 't3', kind: 'test', check: 'value', args: [[]], expect: [] },
  ];
  // The suite's world holds no `w`: the loader marks it absent, so the block is searched.
  const result = await repairBlock({ source, entry: 'rare', absent: ['w'] }, cases, { pool, budgetMs: 10_000 });
  assert.ok(result.winner, 'a winner');
  assert.equal(result.winner!.source, source.replace('w > seen', 'w => seen'));
  assert.equal(result.winner!.generator, 'template:arrow-callback');
});
