import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writesNoInput } from '../../core/input-writes.ts';

test('writesNoInput: true only for blocks that provably write to no object', () => {
  const cases: Array<[string, boolean]> = [
    // writes a property after reading: may have changed its inputs before a throw
    ['(player, enemy) => { const a = player.stats.strength * 2; const d = Math.max(1, a - enemy.stats.armor); enemy.health -= d; return d; }', false],
    ['(player, enemy) => { const a = player.stats.strength * 2; return Math.max(1, a - enemy.stats.armor); }', true],
    ['(items) => items.map((x) => x.v * 2).filter((v) => v > 1).reduce((a, b) => a + b, 0)', true],
    ['(items) => items.map((x) => { x.seen = true; return x.v; })', false],
    ['(items, f) => items.map(f)', false],
    ['(items) => items.sort()', false],
    ['(items) => items.push(1)', false],
    ['(o) => { delete o.x; return 1; }', false],
    ['(o) => { let y = 0; y++; for (const k of Object.keys(o)) y += o[k]; return y; }', true],
    ['(o) => helper(o)', false],
    ['(o) => Object.assign(o, { a: 1 })', false],
    ['(o) => { [o.a, o.b] = [1, 2]; }', false],
    ['(o) => { for (o.k in {}) ; }', false],
    ['price(x) { return x.qty * 2 }', true],
    ['function (x) { this.n = x; }', false],
    ['(o) => { const { a = 1 } = o; return JSON.stringify({ a }) + String(o.b).toUpperCase(); }', true],
    ['(list, i) => list[i % list.length].v * 2', true],
    ['(s) => s.replace(/a/g, fix)', false],
    ['(d) => new Date(d.at).toISOString()', true],
    ['(x) => new Thing(x)', false],
    ['not valid js ((', false],
  ];
  for (const [source, expected] of cases) assert.equal(writesNoInput(source), expected, source);
});
