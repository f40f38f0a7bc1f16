import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectMutations } from '../../engine/generators/template/template-generator.ts';
import { foundWithin, rankOf } from './candidate-rank.ts';

const entry = (source: string, name = 'f') => ({ source, entry: name });
const noPairs = { template: { pairs: false } };

test('a missing guard with an early return, built from the names in scope and the values returned', () => {
  const average = `function average(xs) {\n  const total = xs.reduce((a, b) => a + b, 0);\n  return total / xs.length;\n}`;
  const fixed = average.replace('  const total', '  if (xs.length === 0) return 0;\n  const total');
  const c = foundWithin(entry(average, 'average'), fixed, 400, noPairs);
  assert.equal(c.generator, 'template:early-exit');
  const first = `function firstName(user) {\n  const parts = user.name.split(' ');\n  return parts[0];\n}`;
  foundWithin(entry(first, 'firstName'), first.replace('  const parts', "  if (user == null) return null;\n  const parts"), 400, noPairs);
});

test('a missing `continue` in a loop body', () => {
  const sum = `function totalWeight(rows) {\n  let w = 0;\n  for (const row of rows) {\n    w += row.kg;\n  }\n  return w;\n}`;
  const fixed = sum.replace('    w += row.kg;', '    if (row == null) continue;\n    w += row.kg;');
  foundWithin(entry(sum, 'totalWeight'), fixed, 400, noPairs);
});

test('a condition given a missing-value test in front, or a loop-counter case after', () => {
  const adult = `function isAdult(user) {\n  if (user.age >= 18) return true;\n  return false;\n}`;
  const c = foundWithin(entry(adult, 'isAdult'), adult.replace('user.age >= 18', 'user != null && user.age >= 18'), 400, noPairs);
  assert.equal(c.generator, 'template:extend-condition');
  const every = `function marks(xs) {\n  const out = [];\n  for (let i = 0; i < xs.length; i++) {\n    if (i % 3 == 0) out.push(xs[i]);\n  }\n  return out;\n}`;
  foundWithin(entry(every, 'marks'), every.replace('i % 3 == 0', 'i % 3 == 0 && i > 0'), 600, noPairs);
});

test('new conditions come after the edits of the existing condition', () => {
  const adult = `function isAdult(user) {\n  if (user.age > 18) return true;\n  return false;\n}`;
  const boundary = rankOf(entry(adult, 'isAdult'), adult.replace('>', '>='), noPairs).rank!;
  const extended = rankOf(entry(adult, 'isAdult'), adult.replace('user.age > 18', 'user != null && user.age > 18'), noPairs).rank!;
  assert.ok(boundary < extended);
  // Names declared after the guard's place are not used in it.
  const late = `function f(a) {\n  const b = a.items;\n  return b.length;\n}`;
  const guards = collectMutations(entry(late)).filter((m) => m.operator === 'early-exit' && m.edits[0].start === late.indexOf('const b'));
  assert.ok(guards.length > 0);
  assert.ok(!guards.some((m) => m.edits[0].text.includes('b.length')));
});
