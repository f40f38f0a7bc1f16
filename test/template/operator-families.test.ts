import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foundWithin, rankOf } from './candidate-rank.ts';

const entry = (source: string, name = 'f') => ({ source, entry: name });

test('relational boundary: `<` ↔ `<=` is among the very first candidates', () => {
  const buggy = `function countUpTo(n) {\n  const out = [];\n  for (let i = 1; i < n; i++) out.push(i);\n  return out;\n}`;
  const c = foundWithin(entry(buggy, 'countUpTo'), buggy.replace('i < n', 'i <= n'), 3);
  assert.equal(c.generator, 'template:relational');
  assert.match(c.description, /replace `<` with `<=` at 3:21/);
  assert.deepEqual(c.edits, [{ start: buggy.indexOf('< n'), end: buggy.indexOf('< n') + 1, text: '<=' }]);
});

test('relational ↔ equality (`>` → `==`)', () => {
  const buggy = `const longest = (strings, maxlen) => {\n  for (const s of strings) {\n    if (s.length > maxlen) return s;\n  }\n  return null;\n};`;
  foundWithin(entry(buggy, 'longest'), buggy.replace('s.length > maxlen', 's.length == maxlen'), 20);
});

test('logical operator and the whole chain at once', () => {
  const buggy = `(s, i) => s[i] == s[i+1] && s[i+1] == s[i+2] && s[i] == s[i+2]`;
  foundWithin({ source: buggy }, buggy.replaceAll('&&', '||'), 10);
  foundWithin({ source: buggy }, buggy.replace('&&', '||'), 40);
  // Flipping one operator of the chain mixes `||` into `&&` unparenthesised: the whole chain comes first.
  assert.ok(rankOf({ source: buggy }, buggy.replaceAll('&&', '||')).rank! < rankOf({ source: buggy }, buggy.replace('&&', '||')).rank!);
  // Same inside an `if`, whose parentheses group nothing.
  const inIf = `function happy(s, i) {\n  if (s[i] == s[i+1] && s[i+1] == s[i+2] && s[i] == s[i+2]) return false;\n  return true;\n}`;
  assert.ok(rankOf(entry(inIf, 'happy'), inIf.replace('&&', '||')).candidate!.prior < rankOf(entry(inIf, 'happy'), inIf.replaceAll('&&', '||')).candidate!.prior);
  // A lone `&&` (or one already parenthesised apart) keeps the logical flip's full prior.
  const lone = `(a, b, c) => (a > 0 && b > 0) || c`;
  assert.equal(rankOf({ source: lone }, lone.replace('&&', '||')).candidate?.prior, rankOf({ source: lone }, lone.replace('||', '&&')).candidate?.prior);
});

test('a literal changed into a no-op operand ranks after the term deletion it imitates', () => {
  const buggy = `(l) => { let n = 0; for (let i = 1; i < l.length; i++) for (let j = i + 1; j < l.length; j++) n++; return n; }`;
  const loopStart = rankOf({ source: buggy }, buggy.replace('i = 1', 'i = 0'));
  const plusZero = rankOf({ source: buggy }, buggy.replace('i + 1', 'i + 0'));
  const deletion = rankOf({ source: buggy }, buggy.replace('i + 1', 'i'));
  assert.ok(loopStart.candidate!.prior > deletion.candidate!.prior);
  assert.ok(deletion.candidate!.prior > plusZero.candidate!.prior);
  const fraction = `(x) => x % 1.0 + 1.0`;
  const timesOne = rankOf({ source: fraction }, fraction.replace('+', '*')).candidate!;
  const minus = rankOf({ source: fraction }, fraction.replace('+', '-')).candidate!;
  assert.ok(minus.prior! > timesOne.prior!);
});

test('equality turned into an ordering is a low-prior change', () => {
  const buggy = `(a, b) => JSON.stringify(a) === JSON.stringify(b)`;
  const negated = rankOf({ source: buggy }, buggy.replace('===', '!==')).candidate!;
  const ordered = rankOf({ source: buggy }, buggy.replace('===', '>=')).candidate!;
  assert.ok(negated.prior! - ordered.prior! >= 0.25);
});

test('assignment and update operators', () => {
  const buggy = `function digitSum(n) {\n  let t = 0;\n  while (n > 0) {\n    t = n % 10;\n    n = Math.floor(n / 10);\n  }\n  return t;\n}`;
  foundWithin(entry(buggy, 'digitSum'), buggy.replace('t = n % 10', 't += n % 10'), 60);
  const loop = `(xs) => { let k = 0; for (let i = xs.length; i > 0; i++) k += xs[i - 1]; return k; }`;
  foundWithin({ source: loop }, loop.replace('i++', 'i--'), 40);
});

test('arithmetic operator replacement', () => {
  const buggy = `function changeBase(x, base) {\n  let ret = '';\n  while (x > 0) {\n    ret = (x % base).toString() + ret;\n    x = Math.floor(x - base);\n  }\n  return ret;\n}`;
  foundWithin(entry(buggy, 'changeBase'), buggy.replace('x - base', 'x / base'), 120);
});

test('literal ±1, 0 ↔ 1, booleans, strings, null', () => {
  const product = `(xs) => { let p = 0; for (const x of xs) p *= x; return p; }`;
  foundWithin({ source: product }, product.replace('p = 0', 'p = 1'), 10);
  const flag = `(xs) => { let sorted = false; for (let i = 1; i < xs.length; i++) if (xs[i] < xs[i - 1]) sorted = false; return sorted; }`;
  foundWithin({ source: flag }, flag.replace('let sorted = false', 'let sorted = true'), 15);
  const join = `(words) => words.join(' ')`;
  foundWithin({ source: join }, `(words) => words.join('')`, 5);
  const underscores = `(n) => n > 2 ? '---' : '__'`;
  foundWithin({ source: underscores }, `(n) => n > 2 ? '--' : '__'`, 30);
  const nul = `(m) => m.has('k') ? m.get('k') : null`;
  foundWithin({ source: nul }, `(m) => m.has('k') ? m.get('k') : undefined`, 60);
});

test('off-by-one on an expression: loop bound and index get `+ 1`/`- 1`', () => {
  const buggy = `function howMany(s, sub) {\n  let n = 0;\n  for (let i = 0; i < s.length - sub.length; i++) if (s.slice(i, i + sub.length) == sub) n++;\n  return n;\n}`;
  foundWithin(entry(buggy, 'howMany'), buggy.replace('s.length - sub.length;', 's.length - sub.length + 1;'), 150);
  const last = `(text) => { for (let i = 0; i < text.length; i++) if (text[i] != text.at(-i)) return false; return true; }`;
  foundWithin({ source: last }, last.replace('text.at(-i)', 'text.at(-i - 1)'), 150);
  const tri = `(n) => n * n / 2`;
  foundWithin({ source: tri }, `(n) => n * (n + 1) / 2`, 40);
});

test('variable misuse: a read and a written variable replaced by another in scope', () => {
  const read = `function f(n, x) {\n  let power = 1;\n  while (n < x) power = power * n;\n  return power == x;\n}`;
  foundWithin(entry(read), read.replace('while (n < x)', 'while (power < x)'), 40);
  const write = `function depth(s) {\n  let d = 0, max = 0;\n  for (const c of s) {\n    if (c == '(') { d += 1; max = Math.max(max, d); }\n    else { max -= 1; }\n  }\n  return max;\n}`;
  foundWithin(entry(write, 'depth'), write.replace('max -= 1', 'd -= 1'), 80);
});

test('code reuse: an expression replaced by one the block computes elsewhere', () => {
  const buggy = `(numbers) => {\n  const mean = numbers.reduce((a, b) => a + b, 0) / numbers.length;\n  return numbers.reduce((a, b) => a + Math.abs(b - mean), 0) / mean;\n}`;
  foundWithin({ source: buggy }, buggy.replace(', 0) / mean', ', 0) / numbers.length'), 200);
});

test('term deletion: `+ 1.0`, `* -1`, a redundant conjunct, a unary operator', () => {
  const a = `(number) => number % 1.0 + 1.0`;
  foundWithin({ source: a }, `(number) => number % 1.0`, 40);
  const b = `(n) => { let k = 0; while (n > 0) { k += n % 10 * -1; n = Math.floor(n / 10); } return k; }`;
  foundWithin({ source: b }, b.replace('n % 10 * -1', 'n % 10'), 120);
  const c = `(n) => n >= 8 && n <= 8 && n % 2 == 0`;
  foundWithin({ source: c }, `(n) => n >= 8 && n % 2 == 0`, 80);
  const d = `(x) => !x.includes('a')`;
  foundWithin({ source: d }, `(x) => x.includes('a')`, 30);
});

test('swaps: non-commutative operands, arguments, array elements, branches', () => {
  const mod = `function isPrime(n) {\n  for (let i = 2; i < n; i++)\n    for (let j = 2; j < i; j++)\n      if (j % i == 0) return false;\n  return true;\n}`;
  foundWithin(entry(mod, 'isPrime'), mod.replace('j % i', 'i % j'), 200);
  const pair = `(arr, evens) => [arr.indexOf(Math.min(...evens)), Math.min(...evens)]`;
  foundWithin({ source: pair }, `(arr, evens) => [Math.min(...evens), arr.indexOf(Math.min(...evens))]`, 100);
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

test('method replacement among families, pop ↔ at(-1), Math.min(xs) → Math.min(...xs)', () => {
  const minmax = `(xs) => Math.min(...xs) - Math.min(...xs.map((x) => x * 2))`;
  foundWithin({ source: minmax }, `(xs) => Math.max(...xs) - Math.min(...xs.map((x) => x * 2))`, 300);
  const spread = `(nums) => { let min = Math.min(nums); return min; }`;
  foundWithin({ source: spread }, `(nums) => { let min = Math.min(...nums); return min; }`, 200);
  const last = `(xs) => xs.at(-1)`;
  foundWithin({ source: last }, `(xs) => xs.pop()`, 60);
});

test('wrapping: Math.abs around a difference, toLowerCase on a string operand', () => {
  const dist = `(numbers, t) => {\n  for (let i = 0; i < numbers.length; i++)\n    for (let j = 0; j < numbers.length; j++)\n      if (i != j) { let d = numbers[i] - numbers[j]; if (d < t) return true; }\n  return false;\n}`;
  foundWithin({ source: dist }, dist.replace('numbers[i] - numbers[j]', 'Math.abs(numbers[i] - numbers[j])'), 400);
  const distinct = `(string) => new Set(string.split('')).size`;
  foundWithin({ source: distinct }, `(string) => new Set(string.toLowerCase().split('')).size`, 120);
  const twice = `function decode(s) { return encode(s); }\nfunction encode(s) { return s.split('').reverse().join(''); }`;
  foundWithin(entry(twice, 'decode'), `function decode(s) { return encode(encode(s)); }\nfunction encode(s) { return s.split('').reverse().join(''); }`, 400);
});

test('assign-back of an ignored non-mutating call', () => {
  const buggy = `(values) => {\n  values.filter((x) => Number.isInteger(x));\n  return values;\n}`;
  const c = foundWithin({ source: buggy }, buggy.replace('  values.filter', '  values = values.filter'), 200);
  assert.equal(c.generator, 'template:assign-back');
  foundWithin({ source: buggy }, buggy.replace('  values.filter', '  return values.filter'), 200);
});

test('statement deletion and constant returns are marked suspect', () => {
  const buggy = `(xs) => {\n  const t = [];\n  for (const x of xs) {\n    t.push(x);\n    t.push(x);\n  }\n  return t;\n}`;
  const deleted = foundWithin({ source: buggy }, `(xs) => {\n  const t = [];\n  for (const x of xs) {\n    t.push(x);\n  }\n  return t;\n}`, 2000);
  assert.equal(deleted.suspect, true);
  const ret = `(xs) => { for (const x of xs) if (x > 0) return x; return xs.length; }`;
  const constant = foundWithin({ source: ret }, `(xs) => { for (const x of xs) if (x > 0) return x; return 0; }`, 2000);
  assert.equal(constant.suspect, true);
});
