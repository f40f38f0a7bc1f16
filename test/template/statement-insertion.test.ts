import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectMutations } from '../../engine/generators/template/template-generator.ts';
import { foundWithin } from './candidate-rank.ts';

const entry = (source: string, name = 'f') => ({ source, entry: name });

test('missing guard: a statement in nested loops wrapped in an equality of the loop variables', () => {
  const buggy = `const common = (l1, l2) => {\n  var ret = new Set();\n  for (const e1 of l1)\n    for (const e2 of l2)\n      ret.add(e1);\n  return [...ret].sort();\n}`;
  const c = foundWithin(entry(buggy, 'common'), buggy.replace('ret.add(e1)', 'if (e1 == e2) ret.add(e1)'), 60);
  assert.equal(c.generator, 'template:missing-guard');
});

test('missing guard reuses an existing condition only where its variables are visible', () => {
  const buggy = `function f(xs) {\n  let n = 0;\n  for (const x of xs) { if (x > 0) { let k = x; } n += x; }\n  for (const y of xs) { out(y); }\n  return n;\n}`;
  const guards = collectMutations(entry(buggy)).filter((m) => m.operator === 'missing-guard').map((m) => m.edits[0].text);
  assert.ok(guards.includes('if (x > 0) '));
  // `x` is not in scope at `out(y)`: that guard would throw a ReferenceError.
  const outAt = buggy.indexOf('out(y)');
  assert.ok(!collectMutations(entry(buggy)).some((m) => m.operator === 'missing-guard' && m.edits[0].start === outAt && m.edits[0].text.includes('x')));
});

test('missing reset: a counter set back to its initial value in the branch that does not update it', () => {
  const buggy = `const isSorted = (lst) => {\n  let dup = 1\n  let pre = lst[0]\n  for (let i = 1; i < lst.length; i++) {\n    if (lst[i] == pre) {\n      dup += 1;\n      if (dup == 3) { return false }\n    } else {\n      pre = lst[i]\n    }\n  }\n  return true\n}`;
  const c = foundWithin(entry(buggy, 'isSorted'), buggy.replace('} else {\n', '} else { dup = 1;\n'), 400);
  assert.equal(c.generator, 'template:missing-reset');
});

test('missing update: `x = <expression of x>` inserted after a statement computing it', () => {
  const buggy = `function roman(number) {\n  let i = 2\n  let res = ''\n  while (number) {\n    let div = (number - number % [1, 5, 10][i]) / [1, 5, 10][i]\n    res += div\n    i -= 1\n  }\n  return res\n}`;
  const mutations = collectMutations(entry(buggy, 'roman')).filter((m) => m.operator === 'missing-update');
  const texts = mutations.map((m) => m.edits[0].text.trim());
  assert.ok(texts.includes('number = number % [1, 5, 10][i];'));
  // Never after the statement that changes what the expression reads? It may be anywhere before a jump: here
  // after `let div`, `res += div` and `i -= 1`.
  assert.equal(mutations.filter((m) => m.edits[0].text.trim() === 'number = number % [1, 5, 10][i];').length, 3);
  assert.ok(mutations.every((m) => m.prior < 0.2));
});

test('missing count: a never-written counter incremented, guarded by a flag nobody reads', () => {
  const buggy = `function uniq(words) {\n  let best = -1\n  for (let i = 0; i < words.length; i++) {\n    let p = 0\n    for (let j = 0; j < words[i].length; j++) {\n      let y = 1\n      for (let k = 0; k < j; k++) {\n        if (words[i][j] == words[i][k]) { y = 0 }\n      }\n    }\n    if (p > best) { best = p }\n  }\n  return best\n}`;
  const fixed = buggy.replace('{ y = 0 }\n      }\n', '{ y = 0 }\n      }\n      if (y == 1) { p++ }\n');
  const c = foundWithin(entry(buggy, 'uniq'), fixed, 600);
  assert.equal(c.generator, 'template:missing-count');
  const counts = collectMutations(entry(buggy, 'uniq')).filter((m) => m.operator === 'missing-count');
  // `best` is written, `y` is read by nobody but written: only `p` is a constant accumulator.
  assert.ok(counts.every((m) => m.edits[0].text.includes('p++')));
});
