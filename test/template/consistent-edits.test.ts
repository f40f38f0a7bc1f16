import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectMutations } from '../../engine/generators/template/template-generator.ts';
import { foundWithin } from './candidate-rank.ts';

const entry = (source: string, name = 'f') => ({ source, entry: name });

test('every boolean written to one flag flipped as one candidate', () => {
  const buggy = `function allEven(xs) {\n  let ok = false\n  for (let i = 0; i < xs.length; i++) {\n    if (xs[i] % 2 != 0) { ok = true; break }\n  }\n  return ok\n}`;
  const fixed = buggy.replace('ok = false', 'ok = true').replace('ok = true;', 'ok = false;');
  const c = foundWithin(entry(buggy, 'allEven'), fixed, 80, { template: { pairs: false } });
  assert.equal(c.generator, 'template:flip-flag');
  assert.equal(c.edits?.length, 2);
});

test('two indexed fields swapped at every read', () => {
  const buggy = `(size) => size[1] > 1920 || size[0] > 1080 || (size[1] == 0 && size[0] > 0)`;
  const fixed = `(size) => size[0] > 1920 || size[1] > 1080 || (size[0] == 0 && size[1] > 0)`;
  const c = foundWithin({ source: buggy }, fixed, 400, { template: { pairs: false } });
  assert.equal(c.generator, 'template:swap-everywhere');
  assert.equal(c.edits?.length, 4);
});

test('parameters swapped; a lone pair of index reads is left to the ordinary swap', () => {
  const buggy = `function sub(a, b) { return b - a * 2; }`;
  foundWithin(entry(buggy, 'sub'), `function sub(b, a) { return b - a * 2; }`, 200, { template: { pairs: false } });
  const pair = `(t) => t[0] - t[1]`;
  assert.ok(!collectMutations({ source: pair }).some((m) => m.operator === 'swap-everywhere'));
});

test('a search returning from its loop may return -1 when nothing is found', () => {
  const buggy = `function firstNegative(xs) {\n  for (let i = 0; i < xs.length; i++) {\n    if (xs[i] < 0) { return i }\n  }\n  return xs.length\n}`;
  const block = entry(buggy, 'firstNegative');
  const c = foundWithin(block, buggy.replace('return xs.length', 'return -1'), 200);
  assert.equal(c.generator, 'template:return-constant');
  // The search's "not found" comes before the constants the block holds (`0`) at that return.
  const at = buggy.indexOf('xs.length\n}');
  const constants = collectMutations(block).filter((m) => m.operator === 'return-constant' && m.edits[0].start === at).map((m) => m.edits[0].text);
  assert.deepEqual(constants.slice(0, 2), ['-1', '0']);
  // A search that already holds `-1` gets no second one.
  const held = buggy.replace('i < xs.length', 'i < xs.length && i > -1');
  const heldAt = held.indexOf('xs.length\n}');
  assert.equal(collectMutations(entry(held, 'firstNegative')).filter((m) => m.operator === 'return-constant' && m.edits[0].start === heldAt && m.edits[0].text === '-1').length, 1);
});

test('every boolean a predicate returns inverted as one candidate', () => {
  const buggy = `function allAllowed(users) {\n  for (const u of users) {\n    if (u.banned) return true;\n  }\n  return false;\n}`;
  const fixed = buggy.replace('return true', 'return false').replace('return false;\n}', 'return true;\n}');
  const c = foundWithin(entry(buggy, 'allAllowed'), fixed, 60, { template: { pairs: false } });
  assert.equal(c.generator, 'template:flip-returns');
  assert.equal(c.edits?.length, 2);
  // A function returning one boolean value only is no predicate to invert.
  const one = `function f(x) { if (x) return true; if (!x) return true; return 1; }`;
  assert.ok(!collectMutations(entry(one)).some((m) => m.operator === 'flip-returns'));
});

test('one bound compared against in several places moved by one step everywhere', () => {
  const buggy = `function tier(points) {\n  if (points > 100) return 'gold';\n  if (points == 100) return 'silver';\n  return points < 100 ? 'bronze' : 'none';\n}`;
  const fixed = buggy.replaceAll('100', '99');
  const c = foundWithin(entry(buggy, 'tier'), fixed, 120, { template: { pairs: false } });
  assert.equal(c.generator, 'template:consistent-bound');
  assert.equal(c.edits?.length, 3);
});
