import { test } from 'node:test';
import assert from 'node:assert/strict';
import vm from 'node:vm';
import { parse } from 'acorn';
import { instrumentForCoverage } from '../../engine/localisation/coverage-instrumenter.ts';
import type { Block } from '../../core/types.ts';

/** Runs an instrumented block in a fresh node:vm context; returns the value and the probe ids hit. */
function run(block: Block, args: unknown[]): { value: unknown; covered: number[] } {
  const context = vm.createContext({});
  const call = block.entry ? `${block.entry}(...__args)` : `(${block.source})(...__args)`;
  const prefix = block.entry ? `${block.source}\n` : '';
  context.__args = args;
  vm.runInContext(prefix + 'globalThis.__sutureCov = [];', context);
  const value = vm.runInContext(call, context);
  const cov = vm.runInContext('__sutureCov', context) as unknown[];
  return { value, covered: Object.keys(cov).map(Number) };
}

function runOriginal(block: Block, args: unknown[]): unknown {
  const context = vm.createContext({ __args: args });
  return vm.runInContext(block.entry ? `${block.source}\n${block.entry}(...__args)` : `(${block.source})(...__args)`, context);
}

const tricky: Array<{ name: string; block: Block; args: unknown[][] }> = [
  {
    name: 'single-statement branches, else-if, labels, do-while',
    block: {
      entry: 'f',
      source: `'use strict';
function f(n) {
  'use strict';
  let total = 0
  outer: for (let i = 0; i < n; i++)
    for (const j of [1, 2, 3]) {
      if (j === 2) continue outer
      else if (j > n) break outer
      else total += j
    }
  do total++; while (total < 3)
  switch (n) { case 1: case 2: total += 10; break; default: total -= 1 }
  return total
}`,
    },
    args: [[0], [1], [2], [5]],
  },
  {
    name: 'arrow bodies, conditionals, logical operands, object-literal bodies',
    block: { source: `(xs, k) => xs.map((x) => x > k ? ({ big: x }) : x || k && -x).filter(v => v)` },
    args: [[[1, 0, 5], 2], [[], 0]],
  },
  {
    name: 'classes, getters, static blocks, async, generators, destructuring, optional chaining, templates, regex',
    block: {
      entry: 'main',
      source: `class Box {
  static count = 0;
  static { Box.count = 1 }
  #v;
  constructor({ v = 1 } = {}) { this.#v = v }
  get v() { return this.#v ?? 0 }
  set v(x) { if (x) this.#v = x; else this.#v = 0 }
}
function* gen(n) { for (let i = 0; i < n; i++) yield i }
const main = (o) => {
  const b = new Box(o);
  const [first = 'none', ...rest] = [...gen(b.v)];
  const label = \`\${first}:\${rest.length}\`;
  return /:(\\d+)/.exec(label)?.[1] + (o?.extra?.name ?? '') + Box.count;
};`,
    },
    args: [[{ v: 3 }], [undefined], [{ v: 0, extra: { name: 'x' } }]],
  },
  {
    name: 'hoisted function declarations and var',
    block: { entry: 'g', source: `function g(a) {\n  return h(a)\n  function h(x) { var y = x * 2; return y }\n}` },
    args: [[2]],
  },
];

for (const { name, block, args } of tricky) {
  test(`instrumented source parses and behaves the same: ${name}`, () => {
    const { block: instrumented, probes } = instrumentForCoverage(block);
    assert.ok(probes.length > 0);
    const wrapped = instrumented.entry ? instrumented.source : `(${instrumented.source})`;
    assert.doesNotThrow(() => parse(wrapped, { ecmaVersion: 'latest' }));
    for (const a of args) {
      const { value } = run(instrumented, a);
      // Values come from another realm: compare their JSON.
      assert.equal(JSON.stringify(value), JSON.stringify(runOriginal(block, a)));
    }
  });
}

test('probes record which branch ran and map to the original source', () => {
  const source = `(n) => {\n  if (n > 0) return 'pos'\n  else return 'neg'\n}`;
  const { block, probes } = instrumentForCoverage({ source });
  const text = (id: number) => source.slice(probes[id].start, probes[id].end);
  const pos = run(block, [1]).covered.map(text);
  const neg = run(block, [-1]).covered.map(text);
  assert.ok(pos.includes("return 'pos'"));
  assert.ok(!pos.includes("return 'neg'"));
  assert.ok(neg.includes("return 'neg'"));
  assert.ok(!neg.includes("return 'pos'"));
  assert.deepEqual(probes.map((p) => p.id), probes.map((_, i) => i));
});

test('switch cases and loop bodies get their own probes', () => {
  const source = `function f(k, n) {\n  let s = 0\n  switch (k) {\n    case 'a':\n    case 'b': s = 1; break\n    default: s = 2\n  }\n  while (n-- > 0) s++\n  return s\n}`;
  const { block, probes } = instrumentForCoverage({ source, entry: 'f' });
  const kinds = new Set(probes.map((p) => p.kind));
  assert.ok(kinds.has('case') && kinds.has('loop-body'));
  const loop = probes.find((p) => p.kind === 'loop-body')!;
  assert.ok(!run(block, ['a', 0]).covered.includes(loop.id));
  assert.ok(run(block, ['a', 2]).covered.includes(loop.id));
  assert.equal(run(block, ['a', 2]).value, 3);
});

test('originalOffset maps positions in the instrumented source back', () => {
  const source = `(a) => {\n  const x = a.b\n  return x.c\n}`;
  const { block, originalOffset } = instrumentForCoverage({ source });
  const at = block.source.indexOf('x.c');
  assert.equal(originalOffset(at), source.indexOf('x.c'));
  assert.equal(originalOffset(0), 0);
});
