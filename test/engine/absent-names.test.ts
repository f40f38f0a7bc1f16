import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesProvenAbsent, unknownFreeNames } from '../../core/block-free-names.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { repairBlock } from '../../engine/repair-engine.ts';
import type { Case } from '../../core/types.ts';

test('a ReferenceError the failing call threw proves the name undefined; other errors prove nothing', () => {
  assert.deepEqual(namesProvenAbsent([
    { name: 'ReferenceError', message: 'x is not defined' },
    { name: 'TypeError', message: 'y is not defined' },
    { name: 'ReferenceError', message: "Cannot access 'z' before initialization" },
    { name: 'ReferenceError', message: 'x is not defined' },
  ]), ['x']);
  const source = '(orders) => orders.map(o > rates[o.currency] * o.total)';
  assert.deepEqual(unknownFreeNames(source), ['o', 'rates']);
  assert.deepEqual(unknownFreeNames(source, ['rates', ...namesProvenAbsent([{ name: 'ReferenceError', message: 'o is not defined' }])]), []);
});

test('a block whose bug is reading an undeclared name is searched when the name is known absent, refused when it is not', { timeout: 60_000 }, async (t) => {
  const pool = new SandboxPool({ size: 1 });
  t.after(() => pool.close());
  const source = 'function evens(list) {\n  return list.filter((n) => m % 2 === 0);\n}';
  const cases: Case[] = [
    { id: 'f1', kind: 'failure', check: 'no-throw', args: [[1, 2, 3, 4]] },
    { id: 't1', kind: 'test', check: 'value', args: [[2, 5, 6]], expect: [2, 6] },
    { id: 't2', kind: 'test', check: 'value', args: [[]], expect: [] },
  ];
  const refused = await repairBlock({ source, entry: 'evens' }, cases, { pool, budgetMs: 5_000 });
  assert.equal(refused.stoppedBy, 'cannot-see');
  const searched = await repairBlock({ source, entry: 'evens', absent: ['m'] }, cases, { pool, budgetMs: 10_000 });
  assert.notEqual(searched.stoppedBy, 'cannot-see');
  assert.ok(searched.winner, 'a winner');
  assert.match(searched.winner!.source, /n % 2 === 0/);
});
