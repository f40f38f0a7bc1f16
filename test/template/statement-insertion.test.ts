import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectMutations } from '../../engine/generators/template/template-generator.ts';
import { foundWithin } from './candidate-rank.ts';

const entry = (source: string, name = 'f') => ({ source, entry: name });

test('missing guard: a statement in nested loops wrapped in an equality of the loop variables', () => {
  const buggy = `function sharedTags(a, b) {\n  const out = new Set();\n  for (const x of a)\n    for (const y of b)\n      out.add(x);\n  return [...out];\n}`;
  const c = foundWithin(entry(buggy, 'sharedTags'), buggy.replace('out.add(x)', 'if (x == y) out.add(x)'), 60);
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
  const buggy = `function tooManyRepeats(xs) {\n  let run = 1\n  let prev = xs[0]\n  for (let i = 1; i < xs.length; i++) {\n    if (xs[i] == prev) {\n      run += 1;\n      if (run == 4) { return true }\n    } else {\n      prev = xs[i]\n    }\n  }\n  return false\n}`;
  const c = foundWithin(entry(buggy, 'tooManyRepeats'), buggy.replace('} else {\n', '} else { run = 1;\n'), 400);
  assert.equal(c.generator, 'template:missing-reset');
});

test('missing update: `x = <expression of x>` inserted after a statement computing it', () => {
  const buggy = `function countdown(n, step) {\n  const out = []\n  while (n > 0) {\n    const next = n - step\n    out.push(n)\n    if (next <= 0) out.push('done')\n    break\n  }\n  return out\n}`;
  const mutations = collectMutations(entry(buggy, 'countdown')).filter((m) => m.operator === 'missing-update');
  const update = mutations.filter((m) => m.edits[0].text.trim() === 'n = n - step;');
  // Anywhere after the statement computing it, up to a jump: after `const next`, `out.push(n)` and the `if`, not past the `break`.
  const ends = ['n - step', 'out.push(n)', "out.push('done')"].map((text) => buggy.indexOf(text) + text.length);
  assert.deepEqual(update.map((m) => m.edits[0].start), ends);
  assert.ok(mutations.every((m) => m.prior < 0.2));
  foundWithin(entry(buggy, 'countdown'), buggy.replace('const next = n - step', 'const next = n - step\n    n = n - step;'), 400);
});

test('missing count: a never-written counter incremented, guarded by a flag nobody reads', () => {
  const buggy = `function wordsWithoutVowel(words) {\n  let count = 0\n  let longest = 0\n  for (let i = 0; i < words.length; i++) {\n    let found = 0\n    for (const c of words[i]) {\n      if ('aeiou'.includes(c)) { found = 1 }\n    }\n    if (words[i].length > longest) { longest = words[i].length }\n  }\n  return count\n}`;
  const fixed = buggy.replace("{ longest = words[i].length }\n", "{ longest = words[i].length }\n    if (found == 0) { count++ }\n");
  const c = foundWithin(entry(buggy, 'wordsWithoutVowel'), fixed, 600);
  assert.equal(c.generator, 'template:missing-count');
  const counts = collectMutations(entry(buggy, 'wordsWithoutVowel')).filter((m) => m.operator === 'missing-count');
  // `longest` is written, `found` is read by nobody but written: only `count` is a constant accumulator.
  assert.ok(counts.length > 0 && counts.every((m) => m.edits[0].text.includes('count++')));
  // Without a dead flag there is nothing to count under: no bare `count++` is offered.
  const bare = buggy.replace("      if ('aeiou'.includes(c)) { found = 1 }\n", '');
  assert.ok(!collectMutations(entry(bare, 'wordsWithoutVowel')).some((m) => m.operator === 'missing-count'));
});
