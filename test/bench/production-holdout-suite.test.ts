/**
 * The held-out production suite, judged by the real sandbox: it loads (16 bugs, hidden cases for
 * each, worlds on every case of a block with `uses`), each buggy.js fails a visible case and passes
 * its recorded calls, and each fixed.js passes every visible and hidden case.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadSuite } from '../../suite/suite-loader.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { suiteTrials } from '../../testkit/suite-trials.ts';

const SUITE = fileURLToPath(new URL('../../bench/suites/production-holdout/', import.meta.url));

describe('production-holdout suite', () => {
  let pool: SandboxPool;
  before(() => {
    pool = new SandboxPool({ size: 2 });
  });
  after(async () => {
    await pool?.close();
  });

  it('loads: sixteen bugs, four or more hidden cases each, a world on every case of a block with uses', async () => {
    const suite = await loadSuite(SUITE);
    assert.equal(suite.bugs.length, 16);
    for (const bug of suite.bugs) {
      assert.ok(bug.hidden.length >= 4, `${bug.id}: ${bug.hidden.length} hidden cases`);
      assert.ok(bug.fixedPath, `${bug.id} has fixed.js`);
      assert.ok(bug.cases.some((c) => c.kind === 'failure'), `${bug.id} has a failing case`);
      assert.ok(bug.cases.some((c) => c.kind === 'recorded'), `${bug.id} has recorded calls`);
    }
    const withUses = suite.bugs.filter((b) => b.block.uses?.length);
    assert.ok(withUses.length >= 4, `${withUses.length} bugs read outside names`);
    for (const bug of withUses) {
      for (const c of [...bug.cases, ...bug.hidden]) assert.ok(c.world && Array.isArray(c.world.calls), `${bug.id} ${c.id} has a world`);
    }
  });

  it('buggy.js fails a visible case and passes its recorded calls; fixed.js passes every visible and hidden case', async () => {
    const suite = await loadSuite(SUITE);
    for (const bug of suite.bugs) {
      const buggy = await suiteTrials(pool, bug, bug.block.source, bug.cases);
      assert.ok(
        bug.cases.some((c) => buggy.get(c.id)?.verdict !== 'pass'),
        `${bug.id}: buggy.js fails no visible case`,
      );
      for (const c of bug.cases.filter((c) => c.kind === 'recorded')) {
        const r = buggy.get(c.id);
        assert.equal(r?.verdict, 'pass', `${bug.id} ${c.id}: a recorded call must pass on buggy.js (${r?.error?.message ?? ''})`);
      }
      const fixed = await suiteTrials(pool, bug, await readFile(bug.fixedPath!, 'utf8'), [...bug.cases, ...bug.hidden]);
      for (const c of [...bug.cases, ...bug.hidden]) {
        const r = fixed.get(c.id);
        assert.equal(r?.verdict, 'pass', `${bug.id} ${c.id} on fixed.js: ${r?.verdict} ${r?.error?.message ?? JSON.stringify(r?.actual)}`);
      }
    }
  });
});
