import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { repairBlock } from '../../engine/repair-engine.ts';
import { answerProfile, offKind } from '../../engine/scoring/answer-kinds.ts';

const recorded = (id: string, args: unknown[], expect: unknown): Case => ({ id, kind: 'recorded', check: 'value', args: args as Case['args'], expect: expect as Case['expect'] });

test('answer kinds: the profile of known-good answers says which answers are of another kind, and why', () => {
  const cases = [
    recorded('r1', [1], { id: 1, label: 'Ann Lee', tags: ['a', 'b'] }),
    recorded('r2', [2], { id: 2, label: 'Bo', tags: [] }),
    recorded('r3', [3], { id: 3, label: 'Cy Chan', tags: ['c'], extra: true }),
    { id: 'f', kind: 'failure', check: 'no-throw', args: [4] } as Case,
  ];
  const profile = answerProfile(cases, new Set(['f']))!;
  assert.ok(profile);
  assert.equal(offKind(profile, { id: 4, label: 'Di', tags: [] }), undefined, 'an empty list where known-good answers have one keeps the kind');
  assert.equal(offKind(profile, { id: 4, label: 'Di', tags: ['x'] }), undefined, 'a field only some answers have is not required');
  assert.match(offKind(profile, { id: 4, label: 'Di', tags: { $t: 'undefined' } })!, /field tags .* undefined/);
  assert.match(offKind(profile, { id: 4, label: 'Di' })!, /field tags/, 'a missing field counts as undefined');
  assert.match(offKind(profile, { id: 4, label: '', tags: [] })!, /field label .* empty string/);
  assert.match(offKind(profile, { id: 4, label: 'for undefined', tags: [] })!, /shows `undefined`/);
  assert.match(offKind(profile, { id: 4, label: 'Di , Lee', tags: [] })!, /shows an empty slot/, 'the hole an empty value leaves');
  assert.match(offKind(profile, { id: 4, label: 'Di', tags: [7] })!, /an element of field tags .* a number/);
  assert.match(offKind(profile, 'text')!, /a string where .* an object/);

  // A word the known-good answers show themselves is no sign of a missing value.
  const nulls = answerProfile([recorded('a', [], 'x is null'), recorded('b', [], 'y is set')], new Set())!;
  assert.equal(offKind(nulls, 'z is null'), undefined);
  assert.match(offKind(nulls, 'z is undefined')!, /undefined/);
  // One known-good answer, or none, says nothing; the original's answers on generated inputs do not count.
  assert.equal(answerProfile([recorded('a', [], 'x')], new Set()), undefined);
  assert.equal(answerProfile([recorded('a', [], 1), { ...recorded('g', [], 'for undefined'), kind: 'generated' }], new Set()), undefined);
});

test('answer kinds: the engine ranks a plausible candidate that leaves a field undefined after one that keeps the kind, and trusts it', async (t) => {
  const pool = new SandboxPool({ size: 2 });
  t.after(() => pool.close());
  // `?.` would win on prior and size, but leaves `tags` undefined where every known-good answer has a list.
  const block = { source: 'function summary(order) {\n  return { id: order.id, tags: order.meta.labels.map((t) => t.toUpperCase()) };\n}', entry: 'summary' };
  const cases: Case[] = [
    { id: 'failure-1', kind: 'failure', check: 'no-throw', args: [{ id: 9, meta: {} }] },
    recorded('recorded-1', [{ id: 1, meta: { labels: ['new', 'gift'] } }], { id: 1, tags: ['NEW', 'GIFT'] }),
    recorded('recorded-2', [{ id: 2, meta: { labels: [] } }], { id: 2, tags: [] }),
    recorded('recorded-3', [{ id: 3, meta: { labels: ['eu'] } }], { id: 3, tags: ['EU'] }),
  ];
  const result = await repairBlock(block, cases, { pool, budgetMs: 10_000 });
  assert.ok(result.winner, 'a plausible candidate');
  assert.match(result.winner.source, /\(order\.meta\.labels \?\? \[\]\)\.map/, result.winner.source);
  assert.equal(result.winner.offKind, undefined);
  const chained = result.candidates.find((c) => c.status === 'plausible' && /order\.meta\.labels\?\.map/.test(c.source));
  assert.ok(chained, 'the optional chain is plausible too');
  assert.match(chained.offKind ?? '', /field tags of the answer is undefined/);
  assert.ok((chained.score ?? 0) < (result.winner.score ?? 0), 'it scores better, and still ranks after');
  assert.equal(result.confidence?.level, 'high', result.confidence?.reason);

  // Without a candidate that keeps the kind the winner answers off kind, and that makes the confidence low.
  const onlyOff = await repairBlock({ source: 'function label(team) {\n  return `Lead: ${team.lead.name}`;\n}', entry: 'label' }, [
    { id: 'failure-1', kind: 'failure', check: 'no-throw', args: [{ id: 7 }] },
    recorded('recorded-1', [{ id: 1, lead: { name: 'Ann' } }], 'Lead: Ann'),
    recorded('recorded-2', [{ id: 2, lead: { name: 'Bo' } }], 'Lead: Bo'),
  ], { pool, budgetMs: 10_000 });
  assert.ok(onlyOff.winner);
  assert.match(onlyOff.winner.offKind ?? '', /shows (`undefined`|an empty slot)/, onlyOff.winner.source);
  assert.equal(onlyOff.confidence?.level, 'low');
  assert.match(onlyOff.confidence?.reason ?? '', /answers unlike every known-good call/);
});

test('an empty list or string where known-good answers hold something orders candidates but, asked without emptiness, is no doubt on its own', () => {
  const cases = [
    { id: 'r1', kind: 'recorded' as const, check: 'value' as const, args: [1], expect: { name: 'ann', lines: ['1 Rue', '69001 Lyon'] } },
    { id: 'r2', kind: 'recorded' as const, check: 'value' as const, args: [2], expect: { name: 'bo', lines: ['2 Gate', '0150 Oslo'] } },
  ];
  const profile = answerProfile(cases, new Set())!;
  const empty = { name: 'eve', lines: [] };
  assert.match(offKind(profile, empty) ?? '', /field lines of the answer is an empty list/);
  assert.equal(offKind(profile, empty, { emptiness: false }), undefined);
  assert.match(offKind(profile, { name: 'eve' }, { emptiness: false }) ?? '', /field lines/, 'a missing field still counts');
  assert.match(offKind(profile, { name: 'eve', lines: ['undefined undefined'] }, { emptiness: false }) ?? '', /undefined/, 'printed missing values still count');
});
