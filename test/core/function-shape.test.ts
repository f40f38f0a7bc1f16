import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasOwnThis, isPureHelperSource } from '../../core/function-shape.ts';

describe('function shape', () => {
  it('hasOwnThis: arrows and native code have none; functions, methods, accessors and classes do', () => {
    const o = { m() { return 1; }, async am() { return 1; }, get g() { return 1; }, *gen() { yield 1; }, function() { return 1; }, async() { return 1; } };
    const own = [function () { return 1; }, async function named() { return 1; }, o.m, o.am, Object.getOwnPropertyDescriptor(o, 'g')!.get!, o.gen, o.function, o.async, class A {}];
    const none = [() => 1, async () => 1, (x: number) => x, async (x: number) => x, Math.max, function () { return 1; }.bind(null)];
    for (const f of own) assert.equal(hasOwnThis(f.toString()), true, f.toString());
    for (const f of none) assert.equal(hasOwnThis(f.toString()), false, f.toString());
    assert.equal(hasOwnThis('x =>\n  x'), false);
  });

  it('isPureHelperSource: one function reading only its parameters and standard globals', () => {
    for (const s of ['(u) => [u.first, u.last].filter(Boolean).join(" ")', 'function f(n) { return Math.max(0, n) }', 'async (x) => JSON.stringify(x)']) assert.equal(isPureHelperSource(s), true, s);
    for (const s of ['(u) => RATES[u]', 'function () { return this.x }', '() => globalThis.x', '(s) => eval(s)', 'm(x) { return x }', 'function f() { return new.target }', '1 + 1', '']) {
      assert.equal(isPureHelperSource(s), false, s);
    }
  });
});
