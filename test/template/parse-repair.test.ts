import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import { repairParse } from '../../engine/syntax/parse-repair.ts';
import { BlockParseError } from '../../engine/syntax/block-parser.ts';
import { generateTemplateCandidates } from '../../engine/generators/template/template-generator.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { repairBlock } from '../../engine/repair-engine.ts';
import { rankOf } from './candidate-rank.ts';

const entry = (source: string, name = 'f') => ({ source, entry: name });

test('a missing operator, comma or bracket is inserted until the block parses', () => {
  const label = `function pageLabel(n, total) {\n  return 'Page ' + n ' of ' + total;\n}`;
  const [first] = repairParse(label, 'entry');
  assert.equal(first.source, label.replace("n ' of '", "n + ' of '"));
  assert.deepEqual(first.steps, ['insert `+` at 2:22']);
  const args = `function send(to, body) {\n  return mail(to body);\n}`;
  assert.ok(repairParse(args, 'entry').some((r) => r.source === args.replace('to body', 'to, body')));
  const paren = `function sign(x) {\n  if (x > 0 {\n    return 1;\n  }\n  return -1;\n}`;
  assert.equal(repairParse(paren, 'entry')[0].source, paren.replace('x > 0 {', 'x > 0) {'));
  const call = `(xs) => xs.map((x) => x * 2`;
  assert.ok(repairParse(call, 'expression').some((r) => r.source === `(xs) => xs.map((x) => x * 2)`));
});

test('a stray token is deleted; two edits when one is not enough; nothing for a block that parses', () => {
  const stray = `function total(a, b) {\n  return a + b);\n}`;
  const [first] = repairParse(stray, 'entry');
  assert.equal(first.source, stray.replace('b);', 'b;'));
  assert.deepEqual(first.steps, ['delete `)` at 2:15']);
  const two = `function f(a, b) {\n  return g(a b c);\n}`;
  const repairs = repairParse(two, 'entry');
  assert.ok(repairs.some((r) => r.source.includes('g(a, b, c)') && r.steps.length === 2), JSON.stringify(repairs.map((r) => r.source)));
  assert.deepEqual(repairParse(`function f() { return 1; }`, 'entry'), []);
});

test('the template generator repairs the parse first, then searches the repaired block', () => {
  const broken = `function discount(price, pct) {\n  return price - price * pct / 100;\n  }\n}`;
  const all = [...generateTemplateCandidates(entry(broken, 'discount'), [], { maxCandidates: 200 })];
  assert.equal(all[0].generator, 'template:parse-repair');
  assert.equal(all[0].edits, undefined);
  // A parse repair plus an ordinary edit: `}` deleted and `-` made `+`.
  const fixed = `function discount(price, pct) {\n  return price + price * pct / 100;\n  \n}`;
  const { rank, candidate } = rankOf(entry(broken, 'discount'), fixed);
  assert.ok(rank !== undefined && rank < 200, `rank ${rank}`);
  assert.match(candidate!.description, /delete `}`.*replace `-` with `\+`/);
  // Beyond three token edits the parse error stands.
  assert.throws(() => [...generateTemplateCandidates(entry('function f( {{{ ((( return', 'f'), [])], BlockParseError);
});

let pool: SandboxPool;
before(() => {
  pool = new SandboxPool({ size: 1 });
});
after(async () => {
  await pool.close();
});

test('the engine repairs a block that does not parse instead of giving up', async () => {
  const block = entry(`function pageLabel(page, total) {\n  return 'Page ' + page ' of ' + total;\n}`, 'pageLabel');
  const cases: Case[] = [
    { id: 'r1', kind: 'recorded', check: 'value', args: [1, 3], expect: 'Page 1 of 3' },
    { id: 'r2', kind: 'recorded', check: 'value', args: [2, 2], expect: 'Page 2 of 2' },
  ];
  const result = await repairBlock(block, cases, { pool, budgetMs: 5000 });
  assert.equal(result.plausible, true);
  assert.equal(result.winner?.generator, 'template:parse-repair');
  assert.equal(result.winner?.source, block.source.replace("page ' of '", "page + ' of '"));
});
