import { test } from 'node:test';
import assert from 'node:assert/strict';
import ivm from 'isolated-vm';
import { blockNames, REALM_GLOBALS, unknownFreeNames } from '../../core/block-free-names.ts';
import { REALM_SETUP_SCRIPTS } from '../../core/hardened-realm.ts';

const unknown = (fn: string, uses: string[] = []) => [...unknownFreeNames(fn, uses)].sort();

test('a block that reads an outside name: it is unknown until given in uses', () => {
  const src = '(item) => item.qty * RATES[item.currency]';
  assert.deepEqual(unknown(src), ['RATES']);
  assert.deepEqual(unknown(src, ['RATES']), []);
  // Calls and writes are uses of the name too.
  assert.deepEqual(unknown('function (id) { audit(id); total = id; return db.get(id) }'), ['audit', 'db', 'total']);
  assert.deepEqual(unknown('function (id) { audit(id); total = id; return db.get(id) }', ['db', 'audit', 'total']), []);
});

test('parameters, destructured parameters with defaults and rest, and own declarations are not outside names', () => {
  assert.deepEqual(unknown('function ({ a, b: [c, { d }], ...rest }, [e = f, ...g] = [], h = a + c) { return a + c + d + e + g + h + rest.x }'), ['f']);
  assert.deepEqual(unknown('(x) => { var y = 1; let z = 2; const [p, q] = [y, z]; function helper() { return p } return helper() + q + x }'), []);
  // Hoisting: a var or function used before its declaration is still the block's own.
  assert.deepEqual(unknown('function () { n = 3; return later(n); var n; function later(v) { return v } }'), []);
  // A computed key in a destructuring pattern reads its expression.
  assert.deepEqual(unknown('function ({ [KEY]: v }) { return v }'), ['KEY']);
});

test('shadowing is per scope: a name declared in one function does not cover a read outside it', () => {
  // RATES is a parameter of the inner arrow only; the outer read is of the outside RATES.
  assert.deepEqual(unknown('function (x) { const f = (RATES) => RATES.usd; return f({ usd: 1 }) + RATES.eur * x }'), ['RATES']);
  // A let in a nested block does not cover a read after the block.
  assert.deepEqual(unknown('function () { { let limit = 3; limit++ } return limit }'), ['limit']);
  // The inner declaration covers the inner read.
  assert.deepEqual(unknown('function () { { let limit = 3; return limit } }'), []);
  // var hoists to the function, through blocks and loops.
  assert.deepEqual(unknown('function (xs) { for (var i = 0; i < xs.length; i++) { var last = xs[i] } return last + i }'), []);
  // A loop's let stays in the loop.
  assert.deepEqual(unknown('function (xs) { for (let i = 0; i < xs.length; i++) {} return i }'), ['i']);
});

test('typeof probes, labels, object keys, member properties, methods and class fields are not outside names', () => {
  assert.deepEqual(unknown("function () { return typeof window !== 'undefined' ? 1 : 2 }"), []);
  // A name tested with typeof and also read is read.
  assert.deepEqual(unknown("function () { return typeof CONFIG === 'object' ? CONFIG.limit : 1 }"), ['CONFIG']);
  assert.deepEqual(unknown('function (xs) { outer: for (const x of xs) { for (const y of x) { if (y) continue outer; break outer } } }'), []);
  assert.deepEqual(unknown('function (o) { return { total: o.price, tax: o.rate.value, [o.key]: 1, m() { return 1 }, get g() { return 2 } } }'), []);
  // Shorthand properties are reads of the name.
  assert.deepEqual(unknown('function () { return { RATES, ok: true } }'), ['RATES']);
  // A computed member reads its expression; a plain one does not.
  assert.deepEqual(unknown('function (o) { return o[KEY] + o.KEY }'), ['KEY']);
  assert.deepEqual(unknown('function () { return class Box { static #n = 0; size = 1; static { Box.#n++ } get area() { return this.size } } }'), []);
  assert.deepEqual(unknown('function () { return new.target }'), []);
});

test('class names, named function expressions and catch parameters are the block\'s own', () => {
  assert.deepEqual(unknown('function () { class Money { add(o) { return new Money(o) } } return new Money(1) }'), []);
  assert.deepEqual(unknown('function () { return (class Node2 { next() { return Node2 } }) }'), []);
  // A class declared in a block is not visible after it.
  assert.deepEqual(unknown('function () { { class Hidden {} } return new Hidden() }'), ['Hidden']);
  assert.deepEqual(unknown('function fact(n) { return n <= 1 ? 1 : n * fact(n - 1) }'), []);
  assert.deepEqual(unknown('function (s) { try { return JSON.parse(s) } catch ({ message }) { return message } }'), []);
  // The catch parameter is the catch's own.
  assert.deepEqual(unknown('function (s) { try { return 1 } catch (err) { log(err) } return err }'), ['err', 'log']);
  // A class extends an outside name; its field initialisers read outside names.
  assert.deepEqual(unknown('function () { return class extends Base { rate = RATES.usd } }'), ['Base', 'RATES']);
});

test('globalThis.X reads the outside name X; standard globals read through globalThis are fine', () => {
  assert.deepEqual(unknown('function (x) { return globalThis.RATES[x] }'), ['RATES']);
  assert.deepEqual(unknown("function (x) { return globalThis['RATES'][x] }"), ['RATES']);
  assert.deepEqual(unknown('function (x) { return globalThis.Math.max(x, 0) + globalThis.JSON.stringify(x).length }'), []);
  assert.deepEqual(unknown("function () { return typeof globalThis.process === 'object' }"), []);
  // A block's own globalThis is its own object.
  assert.deepEqual(unknown('function (globalThis) { return globalThis.RATES }'), []);
  // Node's globals are outside names: a trial has none of them.
  assert.deepEqual(unknown('async function () { await new Promise((r) => setTimeout(r, 1)); return process.env.X }'), ['process', 'setTimeout']);
  // `arguments`, `undefined`, Math, JSON, console, Intl, Date are there in a trial.
  assert.deepEqual(unknown('function () { console.log(arguments.length, undefined, Math.PI, JSON, new Intl.NumberFormat(), Date.now()) }'), []);
});

test('method shorthand sources, scripts with an entry, and unparseable text', () => {
  assert.deepEqual(unknown('price(item) { return item.qty * RATES[item.currency] }'), ['RATES']);
  assert.deepEqual(unknown('async *items(n) { yield* SOURCE(n) }'), ['SOURCE']);
  assert.deepEqual([...unknownFreeNames('const K = 2; function helper(x) { return x * K } function main(x) { return helper(x) + OFFSET }', [], 'main')], ['OFFSET']);
  assert.deepEqual(unknownFreeNames('function (x) { return x +', []), []);
  assert.deepEqual(blockNames('const K = 2; let [a, { b }] = [1, {}]; class C {} function main() {}', false).topLevel, ['K', 'a', 'b', 'C', 'main']);
});

test('the sandbox list: undeclared plain names not tested with typeof (a throwing global would break typeof)', () => {
  const n = blockNames("function (x) { if (typeof FLAG !== 'undefined' && FLAG) return 1; return globalThis.LIMIT + missing(x) }", true);
  // Standard globals are listed (the sandbox skips names its compartment defines).
  assert.deepEqual([...n.free], ['globalThis', 'missing']);
  assert.deepEqual([...n.outside].sort(), ['FLAG', 'LIMIT', 'globalThis', 'missing']);
});

test('the analysis is cached per source: the same object comes back', () => {
  const src = 'function (x) { return x + CACHED_NAME }';
  assert.equal(blockNames(src, true), blockNames(src, true));
  assert.ok(Object.isFrozen(blockNames(src, true).free));
});

test('REALM_GLOBALS is exactly what a block compartment of the hardened realm defines', async () => {
  const iso = new ivm.Isolate({ memoryLimit: 128 });
  try {
    const ctx = await iso.createContext();
    for (const s of REALM_SETUP_SCRIPTS) (await iso.compileScript(s.code, { filename: s.filename })).runSync(ctx);
    const json = await ctx.eval(
      '(() => { const r = createHardenedRealm(); r.lock(); const c = r.compartment(); return JSON.stringify(Object.getOwnPropertyNames(c.globalThis)); })()',
    );
    const real = (JSON.parse(String(json)) as string[]).sort();
    assert.deepEqual([...REALM_GLOBALS].sort(), real);
  } finally {
    iso.dispose();
  }
});
