import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectMutations } from '../../engine/generators/template/template-generator.ts';
import { foundWithin, rankOf } from './candidate-rank.ts';

const entry = (source: string, name = 'f') => ({ source, entry: name });
const noPairs = { template: { pairs: false } };

test('a list built by the block gets a missing `.sort()`, `.slice(1)` or dedupe appended', () => {
  const keys = `function activeRegions(stock) {\n  return Object.keys(stock).filter((r) => stock[r] > 0);\n}`;
  const sorted = foundWithin(entry(keys, 'activeRegions'), keys.replace('stock[r] > 0)', 'stock[r] > 0).sort()'), 40, noPairs);
  assert.equal(sorted.generator, 'template:chain-append');
  const rows = `function dataRows(csv) {\n  const lines = csv.split('\\n');\n  return lines;\n}`;
  foundWithin(entry(rows, 'dataRows'), rows.replace('return lines;', 'return lines.slice(1);'), 40, noPairs);
  const tags = `function tagList(posts) {\n  return posts.flatMap((p) => p.tags);\n}`;
  foundWithin(entry(tags, 'tagList'), tags.replace('posts.flatMap((p) => p.tags)', '[...new Set(posts.flatMap((p) => p.tags))]'), 40, noPairs);
  const numeric = `function amounts(orders) {\n  return orders.map((o) => o.total);\n}`;
  foundWithin(entry(numeric, 'amounts'), numeric.replace('o.total)', 'o.total).sort((a, b) => a - b)'), 40, noPairs);
});

test('a string the block builds gets `.trim()` or `.toLowerCase()`', () => {
  const name = `function fullName(u) {\n  return [u.first, u.last].join(' ');\n}`;
  foundWithin(entry(name, 'fullName'), name.replace(".join(' ')", ".join(' ').trim()"), 40, noPairs);
});

test('matching sides of a comparison are normalised together, before either side alone', () => {
  const same = `function sameMembers(a, b) {\n  return JSON.stringify(a.map((m) => m.id)) === JSON.stringify(b.map((m) => m.id));\n}`;
  const both = same.replace('a.map((m) => m.id)', 'a.map((m) => m.id).sort()').replace('b.map((m) => m.id)', 'b.map((m) => m.id).sort()');
  const c = foundWithin(entry(same, 'sameMembers'), both, 60, noPairs);
  assert.equal(c.generator, 'template:chain-append-both');
  assert.equal(c.edits?.length, 2);
  const one = rankOf(entry(same, 'sameMembers'), same.replace('a.map((m) => m.id)', 'a.map((m) => m.id).sort()'), noPairs);
  assert.ok(one.rank! > rankOf(entry(same, 'sameMembers'), both, noPairs).rank!);
});

test('values of no known kind, and calls already made, get nothing appended', () => {
  const total = `function total(a, b) {\n  return a + b;\n}`;
  assert.ok(!collectMutations(entry(total, 'total')).some((m) => m.operator.startsWith('chain-append')));
  const sorted = `function ordered(xs) {\n  return xs.slice().sort();\n}`;
  const texts = collectMutations(entry(sorted, 'ordered')).filter((m) => m.operator === 'chain-append').map((m) => m.edits[0].text);
  assert.ok(texts.length > 0);
  assert.ok(!texts.some((t) => t.endsWith('.sort().sort()')));
});
