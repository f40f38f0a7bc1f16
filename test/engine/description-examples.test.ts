import { test } from 'node:test';
import assert from 'node:assert/strict';
import { descriptionCases, exampleName, parseDescriptionExamples } from '../../engine/oracle/description-examples.ts';
import { literalCallArguments, parseLiteral } from '../../engine/oracle/literal-values.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { repairBlock } from '../../engine/repair-engine.ts';

const read = (text: string, name = 'area') => parseDescriptionExamples(text, name).examples.map((e) => [e.args, e.expect]);

test('every recognised example form gives a case', () => {
  const forms = [
    '>>> area(2, 3)\n6',
    '>>> area(2, 3)\n\n   6\n',
    'area(2, 3) === 6',
    'area(2, 3) == 6',
    '>>> area(2, 3) == 6',
    'area(2, 3) = 6',
    'area(2, 3) // => 6',
    'area(2, 3) => 6',
    'area(2, 3) ==> 6',
    'area(2, 3) -> 6',
    'area(2, 3) ➞ 6',
    'area(2, 3) → 6',
    '* area(2, 3) => 6',
    'area(2, 3) returns 6',
    'For example, area(2, 3) returns 6.',
    'for example, area(2, 3) should return 6',
  ];
  for (const text of forms) assert.deepEqual(read(text), [[[2, 3], 6]], text);
});

test('literal arguments and values of every JSON-ish kind, strings with brackets inside', () => {
  assert.deepEqual(read(`area([1, -2.5, "a)b"], {w: 2, 'h': [3]}, null, true, undefined) === {"ok": [1, 'x']}`), [
    [[[1, -2.5, 'a)b'], { w: 2, h: [3] }, null, true, { $t: 'undefined' }], { ok: [1, 'x'] }],
  ]);
  assert.deepEqual(read('area(`tpl`) ➞ ""'), [[['tpl'], '']]);
  assert.deepEqual(read('>>> area([])\n[]\n>>> area([1])\n[1]'), [[[[]], []], [[[1]], [1]]]);
});

test('ambiguous or unreadable examples are rejected, with the reason', () => {
  const rejected = [
    ['>>> area(2, 3)\n>>> area(3, 3)\n9', 'no value follows'], // the first has no value
    ['area(2, 3) == (6, 1)', 'the value is not a literal'], // a tuple
    ['area(2) == ("six")', 'the value is not a literal'], // parenthesised: may be a 1-tuple
    ['area(2, 3) == True', 'the value is not a literal'],
    ['area(2, 3) == None', 'the value is not a literal'],
    ['area(x, 3) == 6', 'an argument is not a literal'],
    ['area(2 + 1) == 3', 'an argument is not a literal'],
    ['area(2, 3) == 6 # the product', 'the value is not a literal'],
    ['area(2, 3) == NaN', 'the value is not a literal'],
    ['area(2, 3) == [1, 2].length', 'the value is not a literal'],
    ['area(2, 3) == 6 and area(3, 3) == 9', 'the value is not a literal'], // the second, ending the line, is read
    ['area([1, 0, 2]) [0, 1, 2]', 'no separator between the call and a value'],
    ['area(2, 3) == ""6"', 'the value is not a literal'],
  ];
  for (const [text, reason] of rejected) {
    const { examples, skipped } = parseDescriptionExamples(text, 'area');
    const firstCall = text.split('\n')[0].match(/\((.*?)\)/)![1];
    assert.ok(!examples.some((e) => JSON.stringify(e.args) === `[${firstCall.replace(/\s/g, '')}]`), text);
    assert.equal(skipped[0]?.reason, reason, text);
  }
  // Another function's examples, a method call, or a longer name are not the block's.
  assert.deepEqual(read('volume(2, 3) == 6\nmath.area(2, 3) == 6\nsurfaceArea(2) == 4\nareas(2) == 4'), []);
  // The same call with two answers contradicts itself.
  const contradictory = parseDescriptionExamples('area(2, 3) == 6\narea(2, 3) == 7\narea(1, 1) == 1', 'area');
  assert.deepEqual(contradictory.examples.map((e) => e.args), [[1, 1]]);
  assert.equal(contradictory.skipped.filter((s) => s.reason === 'the same call is shown with different values').length, 2);
});

test('the literal reader accepts literals only and never evaluates', () => {
  assert.deepEqual(parseLiteral('[1, "two", {three: 3}]'), { value: [1, 'two', { three: 3 }] });
  for (const text of ['f()', 'x', '[...a]', '{get a() { return 1 }}', '{[k]: 1}', '{__proto__: {}}', '1n', '/re/', '`a${b}`', '-"1"', 'Infinity', '1e400', '(1, 2)', '{a}', '{ $t: "date" }', '[1,,2]']) {
    assert.equal(parseLiteral(text), undefined, text);
  }
  assert.deepEqual(literalCallArguments('console.assert(f([1, 2], "x") === 3); console.assert(f(y) === 1); g(1)', 'f'), [[[1, 2], 'x']]);
});

test('cases of kind description: the entry or the function\'s own name; calls the job answers are left to the job', () => {
  assert.equal(exampleName({ source: 'function area(w, h) { return w * h; }', entry: 'area' }), 'area');
  assert.equal(exampleName({ source: 'function area(w, h) { return w * h; }' }), 'area');
  assert.equal(exampleName({ source: '(w, h) => w * h' }), undefined);
  const block = { source: 'function area(w, h) { return w + h; }', description: 'Area of a rectangle.\n>>> area(2, 3)\n6\n>>> area(4, 4)\n16' };
  const { cases, found } = descriptionCases(block, [{ id: 'job', kind: 'recorded', check: 'value', args: [4, 4], expect: 16 }]);
  assert.equal(found, 2);
  assert.deepEqual(cases, [{ id: 'description-1', kind: 'description', check: 'value', args: [2, 3], expect: 6 }]);
  assert.deepEqual(descriptionCases({ source: '(w, h) => w + h', description: block.description }, []).cases, []);
});

test('the engine judges candidates on the description\'s examples: they show a bug the job\'s one case does not', async (t) => {
  const pool = new SandboxPool({ size: 2 });
  t.after(() => pool.close());
  const source = 'function area(w, h) { return w + h; }';
  const description = 'The area of a w by h rectangle.\nFor example, area(3, 4) returns 12.\n>>> area(1, 5)\n5';
  const cases = [{ id: 'c', kind: 'test' as const, check: 'value' as const, args: [2, 2], expect: 4 }];
  const withExamples = await repairBlock({ source, entry: 'area', description }, cases, { pool, budgetMs: 10_000 });
  assert.deepEqual(withExamples.description, { examples: 2, cases: 2, skipped: [] });
  assert.deepEqual(withExamples.cases.filter((c) => c.kind === 'description').map((c) => [c.args, c.expect]), [[[3, 4], 12], [[1, 5], 5]]);
  assert.equal(withExamples.winner?.source, 'function area(w, h) { return w * h; }');
  const without = await repairBlock({ source, entry: 'area', description }, cases, { pool, budgetMs: 10_000, descriptionExamples: false });
  assert.equal(without.description, undefined);
  assert.ok(without.cases.every((c) => c.kind !== 'description'));
  assert.equal(without.stoppedBy, 'nothing-to-repair', 'the job\'s one case (2 × 2 = 2 + 2) does not even show the bug');
});

test("a description that contradicts the block's own cases (value cases, or console.assert scripts) gives no case at all", () => {
  const block = { source: 'const isBalanced = (s) => s.length % 2 === 0;', entry: 'isBalanced', description: 'Whether every "<" is closed.\n>>> isBalanced("<>")\nfalse\n>>> isBalanced("<<>>")\nfalse' };
  const script = { id: 's', kind: 'test' as const, check: 'script' as const, script: "console.assert(isBalanced('<>') === true)" };
  const refused = descriptionCases(block, [script]);
  assert.deepEqual(refused.cases, []);
  assert.equal(refused.skipped.length, 2);
  assert.match(refused.skipped[0].reason, /contradicts the block's own cases/);
  const json = { ...script, script: 'console.assert(\n  JSON.stringify(isBalanced("<>")) ===\n  JSON.stringify(false)\n)' };
  assert.deepEqual(descriptionCases(block, [json]).cases.map((c) => c.args), [['<<>>']], 'agreeing: the example the script covers is left to it, the other kept');
  const value = { id: 'v', kind: 'recorded' as const, check: 'value' as const, args: ['<<>>'], expect: true };
  assert.deepEqual(descriptionCases(block, [value]).cases, []);
});

test("a description whose answers are of another kind than every answer the block's cases expect (a formula's numbers where the block returns lists) gives no case", () => {
  const block = { source: 'const seq = (n) => [n];', entry: 'seq', description: 'seq(1) = 3\nseq(4) = 3\nExamples:\nseq(3) = [1, 3, 2, 8]' };
  const script = { id: 's', kind: 'test' as const, check: 'script' as const, script: 'console.assert(JSON.stringify(seq(5)) === JSON.stringify([1, 3, 2, 8, 3, 15]))' };
  const out = descriptionCases(block, [script]);
  assert.deepEqual(out.cases, []);
  assert.match(out.skipped.at(-1)!.reason, /not of the kind the block's cases expect/);
  const agreeing = { ...block, description: 'Examples:\nseq(3) = [1, 3, 2, 8]' };
  assert.deepEqual(descriptionCases(agreeing, [script]).cases.map((c) => c.expect), [[1, 3, 2, 8]]);
});
