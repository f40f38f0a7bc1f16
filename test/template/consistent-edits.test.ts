import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectMutations } from '../../engine/generators/template/template-generator.ts';
import { foundWithin } from './candidate-rank.ts';

const entry = (source: string, name = 'f') => ({ source, entry: name });

test('every boolean written to one flag flipped as one candidate', () => {
  const buggy = `function pal(t) {\n  let ok = false\n  for (let i = 0; i < t.length; i++) {\n    if (t[i] != t[t.length - i - 1]) { ok = true; break }\n  }\n  return ok\n}`;
  const fixed = buggy.replace('ok = false', 'ok = true').replace('ok = true;', 'ok = false;');
  const c = foundWithin(entry(buggy, 'pal'), fixed, 80, { template: { pairs: false } });
  assert.equal(c.generator, 'template:flip-flag');
  assert.equal(c.edits?.length, 2);
});

test('two indexed fields swapped at every read', () => {
  const buggy = `(t) => t[1] < 1 || t[1] > 12 || t[0] < 1 || (t[1] == 2 && t[0] > 29)`;
  const fixed = `(t) => t[0] < 1 || t[0] > 12 || t[1] < 1 || (t[0] == 2 && t[1] > 29)`;
  const c = foundWithin({ source: buggy }, fixed, 400, { template: { pairs: false } });
  assert.equal(c.generator, 'template:swap-everywhere');
  assert.equal(c.edits?.length, 5);
});

test('parameters swapped; a lone pair of index reads is left to the ordinary swap', () => {
  const buggy = `function sub(a, b) { return b - a * 2; }`;
  foundWithin(entry(buggy, 'sub'), `function sub(b, a) { return b - a * 2; }`, 200, { template: { pairs: false } });
  const pair = `(t) => t[0] - t[1]`;
  assert.ok(!collectMutations({ source: pair }).some((m) => m.operator === 'swap-everywhere'));
});

test('a search returning from its loop may return -1 when nothing is found', () => {
  const buggy = `const chooseNum = (x, y) => {\n  for (let i = y; i >= x; i--) {\n    if (i % 2 == 0) { return i }\n  }\n  return x\n}`;
  const c = foundWithin(entry(buggy, 'chooseNum'), buggy.replace('return x', 'return -1'), 200);
  assert.equal(c.generator, 'template:return-constant');
});
