import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foundWithin, rankOf } from './candidate-rank.ts';

const entry = (source: string, name = 'f') => ({ source, entry: name });
const rank = (block: Parameters<typeof rankOf>[0], fixed: string): number => {
  const r = rankOf(block, fixed).rank;
  assert.ok(r !== undefined, `never generated: ${fixed}`);
  return r;
};

test('at one comparison the boundary flip comes first, then the direction flip, then equality, then negation', () => {
  const buggy = `function firstOver(prices, limit) {\n  for (const p of prices) {\n    if (p > limit) return p;\n  }\n  return null;\n}`;
  const block = entry(buggy, 'firstOver');
  const at = (op: string) => rank(block, buggy.replace('p > limit', `p ${op} limit`));
  const boundary = foundWithin(block, buggy.replace('p > limit', 'p >= limit'), 1);
  assert.equal(boundary.generator, 'template:relational');
  assert.match(boundary.description, /replace `>` with `>=` at 3:11/);
  assert.deepEqual(boundary.edits, [{ start: buggy.indexOf('> limit'), end: buggy.indexOf('> limit') + 1, text: '>=' }]);
  const others = ['<', '<=', '==', '!=', '===', '!=='].map(at);
  assert.ok(others.every((r) => r > 1));
  // Relational ↔ equality is reachable, after the flips of direction and before a new operator around the test.
  assert.ok(at('<') < at('=='));
  assert.ok(at('==') < rank(block, buggy.replace('if (p > limit)', 'if (!(p > limit))')));
});

test('logical operator and the whole chain at once', () => {
  const buggy = `(cfg) => cfg.debug && cfg.verbose && cfg.trace`;
  const all = rank({ source: buggy }, buggy.replaceAll('&&', '||'));
  const one = rank({ source: buggy }, buggy.replace('&&', '||'));
  // Flipping one operator of the chain mixes `||` into `&&` unparenthesised: the whole chain comes first.
  assert.ok(all < one);
  // Same inside an `if`, whose parentheses group nothing.
  const inIf = `function quiet(cfg) {\n  if (cfg.debug && cfg.verbose && cfg.trace) return false;\n  return true;\n}`;
  assert.ok(rankOf(entry(inIf, 'quiet'), inIf.replace('&&', '||')).candidate!.prior < rankOf(entry(inIf, 'quiet'), inIf.replaceAll('&&', '||')).candidate!.prior);
  // A lone `&&` (or one already parenthesised apart) keeps the logical flip's full prior.
  const lone = `(a, b, c) => (a > 0 && b > 0) || c`;
  assert.equal(rankOf({ source: lone }, lone.replace('&&', '||')).candidate?.prior, rankOf({ source: lone }, lone.replace('||', '&&')).candidate?.prior);
});

test('a literal changed into a no-op operand ranks after the term deletion it imitates', () => {
  const buggy = `(grid) => { let cells = 1; for (const row of grid) cells += row.length + 1; return cells; }`;
  const start = rankOf({ source: buggy }, buggy.replace('cells = 1', 'cells = 0'));
  const plusZero = rankOf({ source: buggy }, buggy.replace('row.length + 1', 'row.length + 0'));
  const deletion = rankOf({ source: buggy }, buggy.replace('row.length + 1', 'row.length'));
  assert.ok(start.candidate!.prior > deletion.candidate!.prior);
  assert.ok(deletion.candidate!.prior > plusZero.candidate!.prior);
  const scaled = `(w) => w / 3 + 1`;
  const timesOne = rankOf({ source: scaled }, scaled.replace('+', '*')).candidate!;
  const minus = rankOf({ source: scaled }, scaled.replace('+', '-')).candidate!;
  assert.ok(minus.prior > timesOne.prior);
});

test('equality turned into an ordering is a low-prior change', () => {
  const buggy = `(a, b) => JSON.stringify(a) === JSON.stringify(b)`;
  const negated = rankOf({ source: buggy }, buggy.replace('===', '!==')).candidate!;
  const ordered = rankOf({ source: buggy }, buggy.replace('===', '>=')).candidate!;
  assert.ok(negated.prior - ordered.prior >= 0.25);
});

test('assignment and update operators: an overwritten accumulator gets its compound assignment', () => {
  const buggy = `function totalLength(words) {\n  let total = 0;\n  for (const w of words) {\n    total = w.length;\n  }\n  return total;\n}`;
  const block = entry(buggy, 'totalLength');
  const plus = foundWithin(block, buggy.replace('total = w', 'total += w'), 20);
  assert.equal(plus.generator, 'template:assignment');
  // Additive compound assignments before multiplicative ones.
  assert.ok(rank(block, buggy.replace('total = w', 'total += w')) < rank(block, buggy.replace('total = w', 'total *= w')));
  const loop = `(xs) => { let k = 0; for (let i = xs.length; i > 0; i++) k += xs[i - 1]; return k; }`;
  foundWithin({ source: loop }, loop.replace('i++', 'i--'), 40);
});

test('arithmetic operator replacement: the nearest operator first, every other one reachable', () => {
  const buggy = `function halvings(n) {\n  let steps = 0;\n  while (n > 1) {\n    n = Math.floor(n - 2);\n    steps++;\n  }\n  return steps;\n}`;
  const block = entry(buggy, 'halvings');
  const near = rank(block, buggy.replace('n - 2', 'n + 2'));
  for (const op of ['/', '*', '%']) {
    const far = rankOf(block, buggy.replace('n - 2', `n ${op} 2`));
    assert.equal(far.candidate?.generator, 'template:arithmetic');
    assert.ok(far.rank! > near, `${op} before +`);
    assert.ok(far.rank! < rank(block, buggy.replace('n - 2', 'n')), `${op} after the term deletion`);
  }
});

test('literal ±1, 0 ↔ 1, booleans, strings, null', () => {
  const product = `function compound(rates) {\n  let growth = 0;\n  for (const r of rates) growth *= 1 + r;\n  return growth;\n}`;
  foundWithin(entry(product, 'compound'), product.replace('growth = 0', 'growth = 1'), 10);
  const flag = `(xs) => { let ok = false; for (const x of xs) if (x <= 0) ok = false; return ok; }`;
  foundWithin({ source: flag }, flag.replace('let ok = false', 'let ok = true'), 15);
  const join = `(tags) => tags.join(', ')`;
  foundWithin({ source: join }, `(tags) => tags.join(',')`, 10);
  const stars = `(level) => level > 2 ? '***' : '*'`;
  foundWithin({ source: stars }, `(level) => level > 2 ? '**' : '*'`, 30);
  const nul = `(m) => m.has('k') ? m.get('k') : null`;
  foundWithin({ source: nul }, `(m) => m.has('k') ? m.get('k') : undefined`, 60);
});

test('off-by-one on an expression: loop bound, index and operand get `+ 1`/`- 1`, after the cheaper edits there', () => {
  const buggy = `function windows(xs, k) {\n  const out = [];\n  for (let i = 0; i < xs.length - k; i++) out.push(xs.slice(i, i + k));\n  return out;\n}`;
  const block = entry(buggy, 'windows');
  const plusOne = foundWithin(block, buggy.replace('xs.length - k;', 'xs.length - k + 1;'), 150);
  assert.equal(plusOne.generator, 'template:off-by-one');
  assert.ok(rank(block, buggy.replace('i < xs', 'i <= xs')) < rank(block, buggy.replace('xs.length - k;', 'xs.length - k + 1;')));
  const mirror = `(xs) => xs.map((x, i) => x - xs.at(-i))`;
  foundWithin({ source: mirror }, mirror.replace('xs.at(-i)', 'xs.at(-i - 1)'), 150);
  const pairs = `(n) => n * n / 4`;
  foundWithin({ source: pairs }, `(n) => n * (n - 1) / 4`, 40);
});

test('variable misuse: a read and a written variable replaced by another in scope', () => {
  const read = `function doublings(start, target) {\n  let value = start;\n  let count = 0;\n  while (start < target) { value = value * 2; count++; }\n  return count;\n}`;
  foundWithin(entry(read, 'doublings'), read.replace('while (start < target)', 'while (value < target)'), 40);
  const write = `function peak(ops) {\n  let size = 0, top = 0;\n  for (const op of ops) {\n    if (op == 'push') { size += 1; top = Math.max(top, size); }\n    else { top -= 1; }\n  }\n  return top;\n}`;
  foundWithin(entry(write, 'peak'), write.replace('top -= 1', 'size -= 1'), 80);
});

test('code reuse: an expression replaced by one the block computes elsewhere', () => {
  const buggy = `function share(votes, name) {\n  const cast = votes.filter((v) => v !== null).length;\n  return votes.filter((v) => v === name).length / votes.length;\n}`;
  const c = foundWithin(entry(buggy, 'share'), buggy.replace('/ votes.length', '/ cast'), 200);
  assert.equal(c.generator, 'template:reuse');
});

test('term deletion: an added constant, `* -1`, a redundant conjunct, a unary operator', () => {
  const a = `(celsius) => celsius * 9 / 5 + 32 + 1`;
  foundWithin({ source: a }, `(celsius) => celsius * 9 / 5 + 32`, 60);
  const b = `(cents) => Math.round(cents * -1 / 100)`;
  foundWithin({ source: b }, `(cents) => Math.round(cents / 100)`, 120);
  const c = `(user) => user.active && user.age > 200 && user.verified`;
  const conjunct = foundWithin({ source: c }, `(user) => user.active && user.verified`, 80);
  assert.equal(conjunct.generator, 'template:delete-term');
  const d = `(name) => !name.startsWith('_')`;
  foundWithin({ source: d }, `(name) => name.startsWith('_')`, 30);
});

test('swaps: non-commutative operands, arguments, array elements, branches', () => {
  const mod = `function splitsEvenly(total, parts) {\n  if (parts <= 0) return false;\n  return parts % total === 0;\n}`;
  foundWithin(entry(mod, 'splitsEvenly'), mod.replace('parts % total', 'total % parts'), 200);
  const pair = `(person) => [person.age, person.name.trim()]`;
  foundWithin({ source: pair }, `(person) => [person.name.trim(), person.age]`, 100);
  const branches = `(a, b, useA) => { if (useA) { return b; } else { return a; } }`;
  foundWithin({ source: branches }, `(a, b, useA) => { if (useA) { return a; } else { return b; } }`, 30);
  const paren = `(a, b, c) => (a + b) - c`;
  const swapped = foundWithin({ source: paren }, `(a, b, c) => c - (a + b)`, 60);
  assert.equal(swapped.generator, 'template:swap-operands');
});

test('condition negation and (suspect) condition removal', () => {
  const buggy = `(xs) => xs.filter((x) => { if (x % 2 == 0) return false; return true; })`;
  const negated = foundWithin({ source: buggy }, buggy.replace('if (x % 2 == 0)', 'if (!(x % 2 == 0))'), 400);
  assert.equal(negated.generator, 'template:negate-condition');
  const removed = foundWithin({ source: buggy }, buggy.replace('if (x % 2 == 0) return false;', 'return false;'), 5000);
  assert.equal(removed.suspect, true);
});

test('method replacement among families, pop ↔ at(-1), Math.max(xs) → Math.max(...xs)', () => {
  const range = `(temps) => Math.min(...temps) - Math.min(...temps.map((t) => t / 2))`;
  foundWithin({ source: range }, `(temps) => Math.max(...temps) - Math.min(...temps.map((t) => t / 2))`, 300);
  const spread = `(sizes) => { const biggest = Math.max(sizes); return biggest * 2; }`;
  foundWithin({ source: spread }, `(sizes) => { const biggest = Math.max(...sizes); return biggest * 2; }`, 200);
  const last = `(xs) => xs.at(-1)`;
  foundWithin({ source: last }, `(xs) => xs.pop()`, 60);
});

test('wrapping: Math.abs around a difference, toLowerCase on a string operand, a function applied twice', () => {
  const gap = `(a, b, tolerance) => {\n  const gap = a - b;\n  return gap <= tolerance;\n}`;
  foundWithin({ source: gap }, gap.replace('a - b', 'Math.abs(a - b)'), 400);
  const domain = `(email) => email.split('@')[1] === 'example.com'`;
  foundWithin({ source: domain }, `(email) => email.toLowerCase().split('@')[1] === 'example.com'`, 120);
  const twice = `function rotateBack(xs) { return rotate(xs); }\nfunction rotate(xs) { return [...xs.slice(1), xs[0]]; }`;
  foundWithin(entry(twice, 'rotateBack'), `function rotateBack(xs) { return rotate(rotate(xs)); }\nfunction rotate(xs) { return [...xs.slice(1), xs[0]]; }`, 400);
});

test('assign-back of an ignored non-mutating call', () => {
  const buggy = `(names) => {\n  names.map((n) => n.trim());\n  return names;\n}`;
  const c = foundWithin({ source: buggy }, buggy.replace('  names.map', '  names = names.map'), 200);
  assert.equal(c.generator, 'template:assign-back');
  foundWithin({ source: buggy }, buggy.replace('  names.map', '  return names.map'), 200);
});

test('statement deletion and constant returns are marked suspect', () => {
  const buggy = `(xs) => {\n  const t = [];\n  for (const x of xs) {\n    t.push(x);\n    t.push(x);\n  }\n  return t;\n}`;
  const deleted = foundWithin({ source: buggy }, `(xs) => {\n  const t = [];\n  for (const x of xs) {\n    t.push(x);\n  }\n  return t;\n}`, 2000);
  assert.equal(deleted.suspect, true);
  const ret = `(xs) => { for (const x of xs) if (x > 0) return x; return xs.length; }`;
  const constant = foundWithin({ source: ret }, `(xs) => { for (const x of xs) if (x > 0) return x; return 0; }`, 2000);
  assert.equal(constant.suspect, true);
});
