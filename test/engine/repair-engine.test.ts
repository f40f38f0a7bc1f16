import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { repairBlock } from '../../engine/repair-engine.ts';
import type { EngineEvent } from '../../engine/repair-report.ts';

const seedSource = `(player, enemy) => {
  const attack = player.stats.strength * 2;
  const armor = enemy.stats.armor;
  const finalDamage = Math.max(1, attack - armor);
  enemy.health -= finalDamage;
  return finalDamage;
}`;

describe('repair engine', () => {
  let pool: SandboxPool;
  before(() => {
    pool = new SandboxPool({ size: 2 });
  });
  after(async () => {
    await pool.close();
  });

  test('repairs the seed bug (property of undefined) with a null-safe edit that keeps recorded behaviour', async () => {
    const cases: Case[] = [
      { id: 'failure-0', kind: 'failure', check: 'no-throw', args: [{ stats: { strength: 5 } }, { health: 30 }] },
      { id: 'recorded-0', kind: 'recorded', check: 'value', args: [{ stats: { strength: 5 } }, { health: 30, stats: { armor: 4 } }], expect: 6, argsAfter: [{ stats: { strength: 5 } }, { health: 24, stats: { armor: 4 } }] },
      { id: 'recorded-1', kind: 'recorded', check: 'value', args: [{ stats: { strength: 1 } }, { health: 10, stats: { armor: 9 } }], expect: 1, argsAfter: [{ stats: { strength: 1 } }, { health: 9, stats: { armor: 9 } }] },
    ];
    const events: EngineEvent['type'][] = [];
    const result = await repairBlock({ source: seedSource, description: 'damage' }, cases, { pool, budgetMs: 20_000, onEvent: (e) => events.push(e.type) });
    assert.equal(result.baseline.results.find((r) => r.caseId === 'failure-0')?.verdict, 'threw');
    assert.ok(result.plausible, 'a plausible patch is found');
    assert.ok(result.winner);
    assert.equal(result.winner.status, 'plausible');
    assert.match(result.winner.generator, /^template:/);
    assert.ok(!result.winner.suspect, 'the winner is not a known overfitting shape');
    assert.match(result.winner.diff, /^-.*enemy\.stats\.armor/m);
    assert.ok(result.localisation[0].reason === 'throw-site', 'the throw site ranks first');
    // The winner's trial table shows every case passing: the job's three, then the original's answers on generated inputs.
    assert.deepEqual(result.winner.trials.slice(0, 3).map((t) => t.verdict), ['pass', 'pass', 'pass']);
    assert.ok(result.oracle?.applied && result.oracle.cases > 0, 'a throw bug gets generated cases');
    assert.equal(result.winner.trials.length, result.cases.length);
    assert.ok(result.winner.trials.every((t) => t.verdict === 'pass'));
    assert.ok(events.includes('baseline') && events.includes('plausible') && events.at(-1) === 'done');
  });

  test('repairs a wrong-result bug (operator) using spectrum localisation', async () => {
    const source = `function maxOf(xs) {
  let best = xs[0];
  for (let i = 1; i < xs.length; i++) {
    if (xs[i] < best) best = xs[i];
  }
  return best;
}`;
    const cases: Case[] = [
      { id: 't0', kind: 'test', check: 'value', args: [[1, 5, 3]], expect: 5 },
      { id: 't1', kind: 'test', check: 'value', args: [[7]], expect: 7 },
      { id: 't2', kind: 'test', check: 'script', script: 'console.assert(maxOf([-4, -2, -9]) === -2)' },
    ];
    const result = await repairBlock({ source, entry: 'maxOf' }, cases, { pool, budgetMs: 20_000 });
    assert.ok(result.plausible);
    assert.match(result.winner!.source, /xs\[i\] > best/);
  });

  test('reports nothing to repair when every case passes, and no plausible patch for an unfixable bug', async () => {
    const ok = await repairBlock({ source: '(a, b) => a + b' }, [{ id: 'c', kind: 'test', check: 'value', args: [1, 2], expect: 3 }], { pool });
    assert.equal(ok.stoppedBy, 'nothing-to-repair');
    assert.equal(ok.plausible, false);
    const impossible = await repairBlock({ source: '(s) => s.length' }, [{ id: 'c', kind: 'test', check: 'value', args: ['abc'], expect: 'The quick brown fox' }], { pool, budgetMs: 3_000 });
    assert.equal(impossible.plausible, false);
    assert.ok(impossible.tried > 0);
    assert.ok(['exhausted', 'budget'].includes(impossible.stoppedBy));
  });
});
