import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { repairBlock } from '../../engine/repair-engine.ts';
import { generateInputs } from '../../engine/oracle/input-variations.ts';
import { EACH, readPaths } from '../../engine/oracle/read-paths.ts';
import { buildJobReport } from '../../worker/repair-job-report.ts';

const greeting = '(user) => `${user.name.toUpperCase()}, ${user.address.city} ${user.address.zip}`';
const amy: Case = { id: 'failure-1', kind: 'failure', check: 'no-throw', args: [{ name: 'amy' }] };
/** Users with an address: where the original answers, a patch must answer the same. */
const withAddress = [
  { name: 'bo', address: { city: 'Oslo', zip: '0150' } },
  { name: 'Cy', address: { city: 'Lyon', zip: 69001 } },
  { name: 'dee', address: { city: 'Leeds' } },
];

describe('generated inputs', () => {
  test('the read paths of a block: member chains rooted at parameters, with the type their use asks for', () => {
    const { params, paths } = readPaths({ source: greeting });
    assert.deepEqual(params, ['user']);
    const shown = paths.map((p) => `${p.keys.map((k) => (k === EACH ? '[]' : k)).join('.')}${p.hint ? `:${p.hint}` : ''}`).sort();
    assert.deepEqual(shown, ['address', 'address.city', 'address.zip', 'name:string']);

    const order = readPaths({ source: 'function total(order) { const { items } = order; return items.map((item) => item.qty * item.cents); }', entry: 'total' });
    const orderShown = order.paths.map((p) => `${p.keys.map((k) => (k === EACH ? '[]' : k)).join('.')}${p.hint ? `:${p.hint}` : ''}`).sort();
    assert.deepEqual(orderShown, ['items.[].cents:number', 'items.[].qty:number', 'items:array']);
  });

  test('fills the read paths the failing input lacks, and varies fields: dropped, null, undefined, empty, case, length, numbers, other inputs', () => {
    const read = readPaths({ source: greeting });
    const inputs = generateInputs([{ args: [{ name: 'amy' }], failing: true }], read, { max: 200 });
    const has = (args: unknown[]) => inputs.some((i) => JSON.stringify(i.args) === JSON.stringify(args));
    // The read-path object comes first.
    assert.deepEqual(inputs[0].args, [{ name: 'amy', address: { city: 'city', zip: 'zip' } }]);
    assert.match(inputs[0].how, /filled user\.address\.city, user\.address\.zip/);
    assert.ok(inputs.slice(0, 3).some((i) => JSON.stringify(i.args) === JSON.stringify([{ name: 'amy', address: { city: (i.args[0] as any).address.city, zip: (i.args[0] as any).address.zip } }]) && typeof (i.args[0] as any).address.zip === 'number'), 'a completion with numbers');
    assert.ok(has([{}]), 'field dropped');
    assert.ok(has([{ name: null }]) && has([{ name: { $t: 'undefined' } }]) && has([{ name: '' }]), 'null, undefined, empty');
    assert.ok(has([{ name: 'AMY' }]) && has([{ name: 'amyy' }]) && has([{ name: 'am' }]), 'case, longer, shorter');
    assert.ok(has([{ name: 'amy', address: { city: 'city' } }]), 'a field of the filled object dropped');
    assert.ok(has([{ name: 'amy', address: {} }]) && has([{ name: 'amy', address: null }]), 'the filled object emptied, nulled');
    assert.ok(!has([{ name: 'amy' }]), 'never the seed itself');
    assert.equal(new Set(inputs.map((i) => JSON.stringify(i.args))).size, inputs.length, 'distinct by encoded form');

    // Numbers, and values taken from another input (including a path this one lacks).
    const two = generateInputs(
      [{ args: [{ name: 'amy', age: 30 }], failing: true }, { args: [{ name: 'bo', age: 7, address: { city: 'Oslo', zip: '0150' } }], failing: false }],
      read,
      { max: 500 },
    );
    const hasTwo = (args: unknown[]) => two.some((i) => JSON.stringify(i.args) === JSON.stringify(args));
    for (const age of [0, 1, -1, 31]) assert.ok(hasTwo([{ name: 'amy', age }]), `age ${age}`);
    assert.ok(hasTwo([{ name: 'bo', age: 30, address: { city: 'Oslo', zip: '0150' } }]), 'a field from another input');
    assert.deepEqual(two[0].args, [{ name: 'amy', age: 30, address: { city: 'Oslo', zip: '0150' } }], 'read paths filled from the same path of another input');
  });

  test('a null the block reads through is filled; a string field takes the strings the block names', () => {
    const nulls = generateInputs([{ args: [{ name: null, address: null }], failing: true }], readPaths({ source: greeting }), { max: 5 });
    assert.deepEqual(nulls[0].args, [{ name: 'name', address: { city: 'city', zip: 'zip' } }]);
    const lookup = readPaths({ source: "const ZONES = { DE: 499, GB: 899 };\nfunction quote(order) { return ZONES[order.country] + 1; }", entry: 'quote' });
    assert.deepEqual(lookup.strings, ['DE', 'GB']);
    const countries = generateInputs([{ args: [{ country: 'CH' }], failing: true }], lookup, { max: 100 });
    assert.ok(countries.some((i) => JSON.stringify(i.args) === JSON.stringify([{ country: 'DE' }])));
  });

  test('bounded and deterministic for a seed', () => {
    const read = readPaths({ source: greeting });
    const seeds = [{ args: [{ name: 'amy', tags: ['a', 'b'], n: 3 }], failing: true }, { args: [{ name: 'bo', n: 1 }], failing: false }];
    const a = generateInputs(seeds, read, { max: 12, seed: 7 });
    const b = generateInputs(seeds, read, { max: 12, seed: 7 });
    const c = generateInputs(seeds, read, { max: 12, seed: 8 });
    assert.equal(a.length, 12);
    assert.deepEqual(a, b);
    assert.notDeepEqual(a.map((i) => i.how), c.map((i) => i.how));
    assert.deepEqual(generateInputs(seeds, read, { max: 0 }), []);
  });
});

describe('the original is the oracle wherever it does not throw', () => {
  let pool: SandboxPool;
  before(() => {
    pool = new SandboxPool({ size: 2 });
  });
  after(async () => {
    await pool.close();
  });

  /** What the original answers for each user with an address, and what `source` answers. */
  async function answers(source: string) {
    const cases: Case[] = withAddress.map((u, i) => ({ id: `u${i}`, kind: 'test', check: 'no-throw', args: [u] }));
    const report = await pool.run({ block: { source }, cases });
    return report.results.map((r) => (r.verdict === 'pass' ? r.actual : r.verdict));
  }

  test('no recorded call: the `${user.address}` patch is refused, a winner answers like the original for users with an address', async () => {
    const result = await repairBlock({ source: greeting }, [amy], { pool, budgetMs: 15_000 });
    assert.ok(result.oracle?.applied, result.oracle?.reason);
    assert.ok(result.oracle.cases > 0 && result.oracle.originalThrew > 0, JSON.stringify(result.oracle));
    assert.equal(result.oracle.generated, result.oracle.cases + result.oracle.originalThrew + result.oracle.limits + result.oracle.misbehaved + result.oracle.unstable);
    const generated = result.cases.filter((c) => c.kind === 'generated');
    assert.equal(generated.length, result.oracle.cases);
    assert.ok(generated.every((c) => c.check === 'value' && c.argsAfter !== undefined));
    assert.ok(generated.some((c) => JSON.stringify(c.args) === JSON.stringify([{ name: 'amy', address: { city: 'city', zip: 'zip' } }]) && c.expect === 'AMY, city zip'), 'the read-path object is a case with the original\'s answer');

    // The winner before the rule printed the address object; it is tried and refused on a generated case.
    const printsObject = result.candidates.find((c) => c.source === '(user) => `${user.name.toUpperCase()}, ${user.address?.city} ${user.address}`');
    assert.ok(printsObject, 'the `${user.address}` candidate is tried');
    assert.notEqual(printsObject.status, 'plausible');
    assert.match(printsObject.trials.at(-1)!.caseId, /^generated-/);
    assert.equal(printsObject.trials.at(-1)!.verdict, 'wrong-result');

    const expected = await answers(greeting);
    for (const c of result.candidates.filter((c) => c.status === 'plausible')) {
      assert.deepEqual(await answers(c.source), expected, `plausible candidate answers like the original: ${c.source}`);
    }
    if (result.winner) assert.deepEqual(await answers(result.winner.source), expected);
    // Fixing `user.address.city` moves the throw to `user.address.zip`; the follow-up of that candidate fixes both.
    assert.ok(result.winner, 'a two-edit fix is found by following up the candidate that moved the throw');
    assert.match(result.winner.description, /; then /);

    assert.equal(result.knownGood, 0);
    assert.ok(result.warnings.some((w) => /^no known-good call/.test(w)), result.warnings.join('\n'));
    // The job report the admin API serves says so too.
    const report = buildJobReport('fp', 1, result, 10);
    assert.equal(report.knownGood, 0);
    assert.deepEqual(report.warnings, result.warnings);
    assert.equal(report.oracle?.cases, result.oracle.cases);
  });

  test('without the rule the same job publishes an answer that prints the address object', async () => {
    const result = await repairBlock({ source: greeting }, [amy], { pool, budgetMs: 15_000, oracle: false });
    assert.equal(result.oracle, undefined);
    assert.ok(result.winner);
    const got = await answers(result.winner.source);
    assert.notDeepEqual(got, await answers(greeting));
  });

  test('with a recorded call: its values fill the failing input, and the job has a known-good call', async () => {
    const recorded: Case = { id: 'recorded-1', kind: 'recorded', check: 'value', args: [withAddress[0]], expect: 'BO, Oslo 0150', argsAfter: [withAddress[0]] };
    const result = await repairBlock({ source: greeting }, [amy, recorded], { pool, budgetMs: 15_000 });
    assert.ok(result.oracle?.applied);
    assert.equal(result.knownGood, 1);
    assert.deepEqual(result.warnings, []);
    const filled = result.cases.find((c) => c.kind === 'generated' && JSON.stringify(c.args) === JSON.stringify([{ name: 'amy', address: { city: 'Oslo', zip: '0150' } }]));
    assert.ok(filled, 'the failing input with the recorded call\'s address');
    assert.equal(filled.expect, 'AMY, Oslo 0150');
    const expected = await answers(greeting);
    for (const c of result.candidates.filter((c) => c.status === 'plausible')) assert.deepEqual(await answers(c.source), expected, c.source);
  });

  test('the rule does not apply where tests or expected values are the specification', async () => {
    const script: Case[] = [{ id: 't', kind: 'test', check: 'script', script: 'console.assert(f({ name: "amy" }) === "AMY")' }];
    const withScript = await repairBlock({ source: 'function f(user) { return user.name.toUpperCase() + user.address.city; }', entry: 'f' }, script, { pool, budgetMs: 2_000 });
    assert.equal(withScript.oracle?.applied, false);
    assert.equal(withScript.cases.filter((c) => c.kind === 'generated').length, 0);

    const wrongValue: Case[] = [{ id: 'v', kind: 'failure', check: 'value', args: [2, 3], expect: 5 }, { id: 'ok', kind: 'recorded', check: 'value', args: [0, 0], expect: 0 }];
    const valueBug = await repairBlock({ source: '(a, b) => a - b' }, wrongValue, { pool, budgetMs: 2_000 });
    assert.equal(valueBug.oracle?.applied, false);
    assert.match(valueBug.oracle!.reason, /expects a value/);
    assert.equal(valueBug.cases.length, 2);
  });
});
