import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import type { CallWorld } from '../../core/world.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { repairBlock } from '../../engine/repair-engine.ts';

// An enemy that steps towards the player: moveRight() is a live dependency that moves `self` itself.
const CHASE = `function chase(player) {
  if (self.x < player.x) moveRight();
  return player.name.toUpperCase();
}`;
const FN = { $t: 'function', name: 'moveRight' };

function known(id: string, x: number, player: { x: number; name: string }): Case {
  const moves = x < player.x;
  const world: CallWorld = {
    uses: { self: { x }, moveRight: FN },
    calls: moves ? [{ path: 'moveRight', args: [], async: false, result: { $t: 'undefined' } }] : [],
    // What the live game left: moveRight() moved self, an effect no replayer repeats.
    usesAfter: { self: { x: moves ? x + 1 : x }, moveRight: FN },
  };
  return { id, kind: 'recorded', check: 'value', args: [player], expect: player.name.toUpperCase(), world };
}

test("a known-good call the original fails only on values a dependency changed (not replayed) is judged on its answer and calls; the bug is repaired", { timeout: 60_000 }, async (t) => {
  const pool = new SandboxPool({ size: 1 });
  t.after(() => pool.close());
  const cases: Case[] = [
    { id: 'failure-1', kind: 'failure', check: 'no-throw', args: [{ x: 9 }], world: { uses: { self: { x: 2 }, moveRight: FN }, calls: [{ path: 'moveRight', args: [], async: false, result: { $t: 'undefined' } }] } },
    known('k1', 1, { x: 5, name: 'ann' }),
    known('k2', 7, { x: 3, name: 'bo' }),
    known('k3', 4, { x: 8, name: 'cy' }),
  ];
  const result = await repairBlock({ source: CHASE, entry: 'chase', uses: ['self', 'moveRight'] }, cases, { pool, budgetMs: 10_000 });
  assert.equal(result.knownGood, 3, 'the three recorded calls count as known-good');
  assert.ok(result.warnings.some((w) => /judged on answer and calls only/.test(w)), result.warnings.join('\n'));
  assert.ok(result.winner, `a winner (stopped by ${result.stoppedBy})`);
  assert.match(result.winner!.source, /moveRight\(\)/, 'the winner still moves');
  // The recorded calls still hold candidates to the calls: dropping moveRight() fails them.
  const k1 = result.cases.find((c) => c.id === 'k1')!;
  assert.equal(k1.world?.calls.length, 1);
  assert.equal(k1.world?.usesAfter, undefined);
});
