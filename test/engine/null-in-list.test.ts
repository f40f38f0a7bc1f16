import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { repairBlock } from '../../engine/repair-engine.ts';

let pool: SandboxPool;
before(() => {
  pool = new SandboxPool({ size: 1 });
});
after(async () => {
  await pool.close();
});

test('a list whose elements are null in one call and objects in another is repaired (input variations skip fields of null)', async () => {
  const block = {
    source: `function invoiceTotal(lines) {\n  let total = 0;\n  for (const line of lines) {\n    total += line.qty * line.product.price;\n  }\n  return total;\n}`,
    entry: 'invoiceTotal',
  };
  const line = (qty: number, price: number | null) => ({ qty, product: price === null ? null : { price } });
  const cases: Case[] = [
    { id: 'f', kind: 'failure', check: 'value', args: [[line(2, 500), line(1, null)]], expect: 1000 },
    { id: 'r1', kind: 'recorded', check: 'value', args: [[line(1, 250)]], expect: 250 },
    { id: 'r2', kind: 'recorded', check: 'value', args: [[line(3, 100), line(2, 50)]], expect: 400 },
  ];
  const result = await repairBlock(block, cases, { pool, budgetMs: 5000 });
  assert.equal(result.plausible, true);
  assert.match(result.winner!.source, /line\.product == null\) continue|line\.product\?\.price/);
});
