import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { repairBlock } from '../../engine/repair-engine.ts';
import { redactedPath, unusableRedacted } from '../../engine/oracle/redacted-cases.ts';

const REDACTED = { $t: 'redacted' };

test('redacted values: found in arguments, uses and the receiver; only failing value cases are unusable', () => {
  const withHeader: Case = { id: 'r1', kind: 'recorded', check: 'value', args: [{ headers: { authorization: REDACTED } }], expect: 'abc' };
  assert.equal(redactedPath(withHeader), 'argument 1.headers.authorization');
  assert.equal(redactedPath({ id: 'w', kind: 'recorded', check: 'value', args: [], world: { uses: {}, calls: [], this: { $t: 'object', class: 'Client', props: { apiKey: REDACTED } } } }), 'this.apiKey');
  assert.equal(redactedPath({ id: 'u', kind: 'recorded', check: 'value', args: [1], world: { uses: { CONFIG: { secret: REDACTED } }, calls: [] } }), 'CONFIG.secret');
  assert.equal(redactedPath({ id: 'n', kind: 'recorded', check: 'value', args: [{ headers: {} }] }), undefined);
  const failure: Case = { id: 'f', kind: 'failure', check: 'no-throw', args: [{ headers: { authorization: REDACTED } }] };
  assert.deepEqual(unusableRedacted([withHeader, failure], new Set(['r1', 'f'])), [{ id: 'r1', path: 'argument 1.headers.authorization' }]);
  assert.deepEqual(unusableRedacted([withHeader], new Set()), [], 'a call the original passes with the marker stays');
});

test('the engine leaves out recorded calls whose answer came from a redacted value, and repairs with the rest', async (t) => {
  const pool = new SandboxPool({ size: 2 });
  t.after(() => pool.close());
  const block = { source: "(req) => {\n  const [kind, key] = req.headers['x-api-key'].split(':');\n  return kind === 'live' ? key : null;\n}" };
  const cases: Case[] = [
    { id: 'failure-1', kind: 'failure', check: 'no-throw', args: [{ path: '/health', headers: {} }] },
    // The SDK redacted the key: the recorded answer came from it, no trial can give it.
    { id: 'recorded-1', kind: 'recorded', check: 'value', args: [{ path: '/v1', headers: { 'x-api-key': REDACTED } }], expect: 'k123' },
  ];
  const result = await repairBlock(block, cases, { pool, budgetMs: 10_000 });
  assert.ok(result.warnings.some((w) => /1 recorded call left out: .*redacted \(argument 1\.headers\.x-api-key\)/.test(w)), result.warnings.join('\n'));
  assert.ok(!result.cases.some((c) => c.id === 'recorded-1'));
  assert.ok(result.winner, 'repaired from the failing input alone');
  assert.ok(!result.baseline.results.some((r) => r.caseId === 'recorded-1'));

  // A block that never reads the redacted value keeps the call as a known-good case.
  const path = { source: "(req) => req.path.toUpperCase() + (req.headers.accept ? '!' : '')" };
  const kept = await repairBlock(path, [
    { id: 'failure-1', kind: 'failure', check: 'no-throw', args: [{ headers: {} }] },
    { id: 'recorded-1', kind: 'recorded', check: 'value', args: [{ path: '/v1', headers: { 'x-api-key': REDACTED } }], expect: '/V1' },
  ], { pool, budgetMs: 5_000 });
  assert.equal(kept.knownGood, 1);
  assert.ok(!kept.warnings.some((w) => /left out/.test(w)));
});
