import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import { deriveInvariants, invariantViolation, kindOf } from '../../engine/scoring/behaviour-invariants.ts';

const recorded: Case[] = [
  { id: 'r0', kind: 'recorded', check: 'value', args: [1], expect: { id: 1, cents: 499 } },
  { id: 'r1', kind: 'recorded', check: 'value', args: [2], expect: { id: 2, cents: 899, zone: 'eu' } },
  { id: 'f0', kind: 'failure', check: 'no-throw', args: [3] },
];

test('kinds of encoded values', () => {
  assert.equal(kindOf(1), 'number');
  assert.equal(kindOf({ $t: 'number', v: 'NaN' }), 'nan');
  assert.equal(kindOf({ $t: 'undefined' }), 'undefined');
  assert.equal(kindOf([1]), 'array');
  assert.equal(kindOf({ a: 1 }), 'object');
  assert.equal(kindOf(null), 'null');
});

test('a no-throw pass must return a known kind with the keys every known-good object has, and no NaN', () => {
  const inv = deriveInvariants(recorded);
  const pass = (actual: unknown, actualArgsAfter?: unknown[]) => ({ caseId: 'f0', verdict: 'pass' as const, ms: 1, actual, actualArgsAfter });
  assert.equal(invariantViolation(inv, pass({ id: 3, cents: 1999, extra: true })), undefined);
  assert.match(invariantViolation(inv, pass({ $t: 'undefined' })) ?? '', /returned undefined/);
  assert.match(invariantViolation(inv, pass({})) ?? '', /without id, cents/);
  assert.match(invariantViolation(inv, pass({ id: 3, cents: { $t: 'number', v: 'NaN' } })) ?? '', /NaN/);
  assert.match(invariantViolation(inv, pass({ id: 3, cents: 1 }, [{ health: { $t: 'number', v: 'NaN' } }])) ?? '', /NaN/);
  // Failed trials and blocks without known-good calls are not judged.
  assert.equal(invariantViolation(inv, { caseId: 'f0', verdict: 'threw', ms: 1 }), undefined);
  assert.equal(invariantViolation(deriveInvariants([recorded[2]]), pass({ $t: 'undefined' })), undefined);
});
