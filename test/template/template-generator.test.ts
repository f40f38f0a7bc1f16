import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'acorn';
import type { Block } from '../../core/types.ts';
import { applyEdits, generateTemplateCandidates, normaliseSource } from '../../engine/generators/template/template-generator.ts';
import { OverlappingEditsError } from '../../engine/generators/template/apply-edits.ts';
import { instrumentForCoverage } from '../../engine/localisation/coverage-instrumenter.ts';
import { rankSuspicious } from '../../engine/localisation/suspicious-ranking.ts';
import { foundWithin, rankOf } from './candidate-rank.ts';

function parses(block: Block, source: string): boolean {
  try {
    parse(block.entry ? source : `(${source})`, { ecmaVersion: 'latest' });
    return true;
  } catch {
    return false;
  }
}

const MODERN: Block = {
  entry: 'main',
  source: `'use strict';
class Inventory {
  #items = new Map();
  static empty() { return new Inventory(); }
  get size() { return this.#items.size; }
  set limit(v) { this.max = v ?? 10; }
  add({ name, count = 1, ...rest }, [first, , third] = []) {
    const prev = this.#items.get(name)?.count ?? 0;
    this.#items.set(name, { count: prev + count, ...rest, tag: \`\${name}:\${first ?? third}\` });
    return this;
  }
}
async function* pages(n) { for (let i = 0; i < n; i++) yield await Promise.resolve(i); }
const main = async (order) => {
  const inv = Inventory.empty();
  outer: for (const line of order.lines) {
    for (const part of line.split(/[,;]\\s*/u)) {
      if (!part) continue outer;
      inv.add({ name: part.trim().toLowerCase(), count: line.length > 3 ? 2 : 1 });
    }
  }
  let total = 0;
  for await (const p of pages(inv.size)) total += p ** 2;
  return { total, big: order?.lines?.[0]?.length >= 10n ? 'yes' : 'no' };
};`,
};

test('every candidate parses, differs from the original, and none repeats after normalisation', () => {
  const blocks: Block[] = [MODERN, { source: `async (xs, { k = 2 } = {}) => xs.filter(x => x?.v > k).map(({ v }) => \`\${v}\`)` },
    { source: `function* (n) { let [a, b] = [0, 1]; while (n-- > 0) { yield a; [a, b] = [b, a + b]; } }` }];
  for (const block of blocks) {
    const seen = new Set<string>([normaliseSource(block.source)]);
    let count = 0;
    for (const c of generateTemplateCandidates(block, [], { maxCandidates: 3000 })) {
      count++;
      assert.ok(parses(block, c.source), `does not parse: ${c.description}\n${c.source}`);
      assert.equal(applyEdits(block.source, c.edits!), c.source);
      const key = normaliseSource(c.source);
      assert.ok(!seen.has(key), `duplicate: ${c.description}`);
      seen.add(key);
      assert.match(c.generator, /^template:[a-z-]+(\+[a-z-]+)?$/);
      assert.ok(c.prior > 0 && c.prior <= 1);
    }
    assert.ok(count > 100, `only ${count} candidates`);
  }
});

test('edits keep all formatting and comments outside the edited range', () => {
  const source = `function f(a, b) {\n  // keep me\n  if (a > b) {   /* and me */\n    return a;\n  }\n  return b;\n}`;
  const first = generateTemplateCandidates({ source, entry: 'f' }, []).next().value!;
  assert.equal(first.source, source.replace('a > b', 'a >= b'));
  assert.equal(first.description, 'replace `>` with `>=` at 3:9');
});

test('candidates at the most suspicious location come first, then the next location', () => {
  const source = `function f(xs) {\n  let s = 0;\n  for (const x of xs) s += x;\n  return s > 10 ? s : 0;\n}`;
  const block = { source, entry: 'f' };
  const ret = source.indexOf('return');
  const suspicious = [
    { start: ret, end: source.indexOf(';', ret) + 1, score: 1, reason: 'ochiai' },
    { start: source.indexOf('let'), end: source.indexOf('let') + 10, score: 0.5, reason: 'ochiai' },
  ];
  const all = [...generateTemplateCandidates(block, suspicious, { pairs: false })];
  const inside = (c: (typeof all)[number], r: { start: number; end: number }) => c.edits!.every((e) => e.start >= r.start && e.end <= r.end);
  const location = (c: (typeof all)[number]) => (inside(c, suspicious[0]) ? 0 : inside(c, suspicious[1]) ? 1 : 2);
  const locations = all.map(location);
  const firstOther = locations.findIndex((l) => l !== 0);
  assert.ok(firstOther > 5);
  assert.ok(locations.slice(firstOther).every((l) => l !== 0), 'a top-location edit came after another location');
  assert.ok(locations.indexOf(2) > locations.lastIndexOf(1), 'unranked location before a ranked one');
  // Within one location, priors never increase.
  const top = all.slice(0, firstOther).map((c) => c.prior);
  assert.deepEqual(top, [...top].sort((a, b) => b - a));
});

test('with a TypeError, null-safety edits at the throw site come first', () => {
  const source = `function damage(player, enemy) {\n  const base = player.attack * 2;\n  return base - enemy.stats.armor;\n}`;
  const block = { source, entry: 'damage' };
  const offset = source.indexOf('armor');
  const probes = instrumentForCoverage(block).probes;
  const suspicious = rankSuspicious(probes, [{ passed: false, covered: probes.map((p) => p.id) }], [offset]);
  const errorInfo = { name: 'TypeError', message: "Cannot read properties of undefined (reading 'armor')", offset };
  const first = [...generateTemplateCandidates(block, suspicious, { maxCandidates: 6 }, errorInfo)];
  assert.match(first[0].generator, /optional-chain|nullish-default/);
  const sources = first.map((c) => c.source);
  assert.ok(sources.includes(source.replace('enemy.stats.armor', 'enemy.stats?.armor')));
  assert.ok(sources.includes(source.replace('enemy.stats.armor', '(enemy.stats?.armor ?? 0)')), sources.join('\n---\n'));
  // A guard clause returning the function's empty value, indented like the statement it guards.
  foundWithin(block, source.replace('  return base', '  if (enemy.stats == null) return 0;\n  return base'), 10, { suspicious, errorInfo });
  foundWithin(block, source.replace('(enemy.stats.armor', '((enemy.stats ?? {}).armor').replace('base - enemy.stats.armor', 'base - (enemy.stats ?? {}).armor'), 10, { suspicious, errorInfo });
});

test('null safety infers defaults from the next use and adds default parameters', () => {
  const source = `(name, tags) => name.trim() + tags.map((t) => t.toUpperCase()).join(',')`;
  const errorInfo = { name: 'TypeError', message: "Cannot read properties of undefined (reading 'map')", offset: source.indexOf('map') };
  foundWithin({ source }, source.replace('(name, tags)', '(name, tags = [])'), 8, { errorInfo });
  foundWithin({ source }, source.replace('tags.map', '(tags ?? []).map'), 8, { errorInfo });
  const bare = `user => user.name.trim()`;
  const info2 = { name: 'TypeError', message: "Cannot read properties of undefined (reading 'trim')", offset: bare.indexOf('trim') };
  foundWithin({ source: bare }, `user => (user.name?.trim)()`.replace('(user.name?.trim)()', 'user.name?.trim()'), 5, { errorInfo: info2 });
  foundWithin({ source: bare }, `user => (user.name ?? '').trim()`, 5, { errorInfo: info2 });
  const loop = `function total(orders) {\n  let t = 0;\n  for (const o of orders) {\n    t += o.item.price;\n  }\n  return t;\n}`;
  const info3 = { name: 'TypeError', message: "Cannot read properties of null (reading 'price')", offset: loop.indexOf('price') };
  foundWithin({ source: loop, entry: 'total' }, loop.replace('    t += o.item.price;', '    if (o.item == null) continue;\n    t += o.item.price;'), 5, { errorInfo: info3 });
});

test('pairs come after all singles and combine two disjoint single edits', () => {
  // (Both booleans of a predicate inverted is one single edit, flip-returns: two numbers are a pair.)
  const source = `(x) => { if (x > 0) return 1; return 3; }`;
  const all = [...generateTemplateCandidates({ source }, [], { maxPairs: 200 })];
  const firstPair = all.findIndex((c) => c.generator.includes('+'));
  assert.ok(firstPair > 0);
  assert.ok(all.slice(firstPair).every((c) => c.generator.includes('+')));
  assert.ok(all.slice(firstPair).length <= 200);
  const both = `(x) => { if (x > 0) return 2; return 4; }`;
  const { rank, candidate } = rankOf({ source }, both);
  assert.ok(rank !== undefined && rank > firstPair && rank < firstPair + 40, `pair at ${rank}`);
  assert.equal(candidate!.edits!.length, 2);
  assert.equal([...generateTemplateCandidates({ source }, [], { pairs: false })].length, firstPair);
});

test('maxCandidates caps the stream and generation is lazy and fast', () => {
  const started = performance.now();
  const few = [...generateTemplateCandidates(MODERN, [], { maxCandidates: 25 })];
  assert.equal(few.length, 25);
  const many = [...generateTemplateCandidates(MODERN, [], { maxCandidates: 3000 })];
  assert.equal(many.length, 3000);
  const ms = performance.now() - started;
  assert.ok(ms < 2500, `took ${ms} ms`);
});

test('an unreachable fix is reported as not found (the rank helper can fail)', () => {
  const source = `(a) => a + 1`;
  assert.equal(rankOf({ source }, `(a) => Math.sqrt(a) * 17 + a / 3`).rank, undefined);
});

test('expression blocks: offsets index the block source itself', () => {
  const source = `(a, b) => a - b`;
  const c = generateTemplateCandidates({ source }, []).next().value!;
  assert.equal(applyEdits(source, c.edits!), c.source);
  assert.ok(c.edits!.every((e: { start: number; end: number }) => e.start >= 0 && e.end <= source.length));
});

test('applyEdits applies edits by original offsets and rejects overlaps', () => {
  assert.equal(applyEdits('a + b', [{ start: 4, end: 5, text: 'c' }, { start: 0, end: 1, text: 'x' }]), 'x + c');
  assert.equal(applyEdits('ab', [{ start: 1, end: 1, text: '1' }, { start: 1, end: 1, text: '2' }]), 'a12b');
  assert.throws(() => applyEdits('abc', [{ start: 0, end: 2, text: '' }, { start: 1, end: 3, text: '' }]), OverlappingEditsError);
});

test('normaliseSource ignores layout, comments, quote style, number spelling and ASI semicolons', () => {
  assert.equal(normaliseSource(`let a = 'x'; // c\nreturn a + 1.0;\n}`), normaliseSource(`let a = "x"\n/* d */ return a+1\n}`));
  assert.notEqual(normaliseSource('a = b; c'), normaliseSource('a = b c'.replace(' c', '.c')));
  assert.notEqual(normaliseSource('x = a / b / c'), normaliseSource('x = a / (b / c)'));
});

test('a block that redeclares a binding is mutated, and only candidates removing the redeclaration are offered', () => {
  const block: Block = { entry: 'area', source: `function area(a, b) {
  let m = a * 2;
  let m = m * b;
  return m;
}` };
  const candidates = [...generateTemplateCandidates(block, [])];
  assert.ok(candidates.length >= 2);
  for (const candidate of candidates) assert.ok(parses(block, candidate.source), candidate.description);
  foundWithin(block, block.source.replace('let m = m', 'm = m'), 2);
  foundWithin(block, block.source.replace('\n  let m = m * b;', ''), 3);
});
