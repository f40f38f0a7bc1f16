/**
 * Runs a suite bug's block (or another source for it, such as its fixed.js) on cases in a sandbox
 * pool and answers each case's result by case id; a block that does not compile fails the test.
 */
import assert from 'node:assert/strict';
import type { Case } from '../core/types.ts';
import type { SuiteBug } from '../suite/suite-loader.ts';
import type { SandboxPool } from '../engine/sandbox/index.ts';

export async function suiteTrials(pool: SandboxPool, bug: SuiteBug, source: string, cases: Case[]) {
  const report = await pool.run({ block: { ...bug.block, source }, cases });
  assert.equal(report.compileError, undefined, `${bug.id}: ${report.compileError?.message}`);
  return new Map(report.results.map((r) => [r.caseId, r]));
}
