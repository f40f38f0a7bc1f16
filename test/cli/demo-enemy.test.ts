import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { suture } from './cli-process.ts';
import { assertDemoKeysDeleted } from './demo-prefix.ts';

interface Tick {
  n: number;
  from: number;
  to: number;
  steps: number;
  reached: boolean;
  line: string;
}

/** The tick lines of the demo's output: `tick 5  |…|  grunt x=4 → pad 5 → 10, moveRight ×1, reached the player: no …`. */
function ticksOf(output: string): Tick[] {
  const ticks: Tick[] = [];
  for (const line of output.split('\n')) {
    const m = /^ {2}tick (\d+)\s+\|[^|]+\| {2}grunt (?:stays|x=(\d+) → (?:pad \d+ → )?(\d+)), moveRight ×(\d+), reached the player: (yes|no)/.exec(line);
    if (m) ticks.push({ n: Number(m[1]), from: Number(m[2] ?? NaN), to: Number(m[3] ?? NaN), steps: Number(m[4]), reached: m[5] === 'yes', line });
  }
  return ticks;
}

describe('suture demo --scenario enemy', () => {
  it('repairs the enemy AI block (uses: getPlayerCoordinates, self, moveRight) and the patched enemy closes in on the player, one step a tick', { timeout: 120_000 }, async () => {
    const r = await suture(['demo', '--scenario', 'enemy'], { OPENAI_API_KEY: '' }, 110_000);
    assert.equal(r.code, 0, `exit ${r.code}\n${r.stdout}\n${r.stderr}`);
    const o = r.stdout;
    const expectations: [string, RegExp][] = [
      ['the block as the game runs it', /let playerPos = getPlayerCoordinates\(\);\n\s+let myPos = self\.getCurrentPosition\(\);\n\s+if \(myPos\.x < playerPos\.x\) moveRight\(\);/],
      ['the failure captured', /✗ TypeError: Cannot read properties of null \(reading 'x'\)/],
      ['the failing world: moveRight ran before the null position', /getPlayerCoordinates\(\) → \{"x":17,"y":0\}\n\s+self\.getCurrentPosition\(\) → \{"x":4,"y":0\}\n\s+moveRight\(\) → undefined\n\s+self\.getCurrentPosition\(\) → null/],
      ['the job found plausible candidates', /\[completed\] done: \d+ tried, [1-9]\d* plausible/],
      ['the winning diff fixes the read after the move', /-\s+return myPos\.x >= playerPos\.x;\n\s+\+\s+return .*myPos\?\./],
      ['the signed patch of the block', /patch [0-9a-f]{16}-v1: version 1 of block enemy-ai-move-towards-player/],
      ['its evidence: the failing tick and the 4 recorded ticks', /checked against: 1 failing, 4 recorded, \d+ generated, 0 tests; re-check (\d+)\/\1\b/],
      ['the signature checked', /signed by key SHA256:[0-9a-f:]+: signature verifies/],
      // Published active, or (a low-confidence winner) approved by the demo as an operator.
      ['the patch active', /status active, rollout 100%|pending-approval → active, rollout 100%/],
      ['the held tick answered by the patch', /SDK event "patched": block enemy-ai-move-towards-player .* for the held tick/],
      ['a pad in fallback mode answered by the patch', /grunt x=12 → pad 13 → 15, moveRight ×1, reached the player: no \(the block threw; the patch answered\)/],
      ['replace mode granted', /mode fallback → replace/],
      ['the enemy reached the player', /the grunt went x=4 → 28; the player is at x=28, reached/],
      ['clean-up', /stopped the game client, worker, sandboxes and daemon; deleted \d+ Redis keys/],
    ];
    for (const [what, re] of expectations) assert.match(o, re, what);
    assert.equal(r.stderr.trim(), '', 'no log lines or warnings on stderr');

    const ticks = ticksOf(o);
    assert.deepEqual(ticks.map((t) => t.n), Array.from({ length: ticks.length }, (_, i) => i + 1), 'every tick printed, in order');
    assert.ok(ticks.length >= 15, `${ticks.length} ticks`);
    for (const t of ticks) assert.ok(t.steps <= 1, `no tick moves the enemy twice: ${t.line}`);
    const held = ticks.find((t) => t.line.includes('(held; answered by the patch)'));
    assert.ok(held, 'the held tick');
    assert.deepEqual([held.from, held.to, held.steps], [4, 10, 1], 'the held tick: one step onto the pad at 5, out at 10, not a second step');
    const afterPatch = ticks.filter((t) => t.n > held.n);
    let at = held.to;
    for (const t of afterPatch) {
      assert.equal(t.steps, 1, `the enemy steps towards the player on every tick after the patch: ${t.line}`);
      assert.equal(t.from, at, `each tick starts where the last ended: ${t.line}`);
      assert.ok(t.to > t.from, `towards the player (right): ${t.line}`);
      at = t.to;
    }
    assert.equal(afterPatch.filter((t) => t.line.includes('(the block would have thrown; the patch ran instead)')).length, 1, 'a pad in replace mode');
    assert.equal(afterPatch.at(-1)!.reached, true);
    const replaceCounts = /the daemon counts the patch's calls: (\d+) ran clean \((\d+) more: one per tick\), 0 threw/.exec(o);
    assert.ok(replaceCounts, 'the outcome counts after replace mode');
    const replaceTicks = afterPatch.filter((t) => t.n > afterPatch.find((x) => x.reached)!.n).length;
    assert.equal(Number(replaceCounts[2]), replaceTicks, 'in replace mode the patch answered every tick');
    await assertDemoKeysDeleted(o);
  });

  it('--help documents the scenarios, and an unknown one is refused', { timeout: 30_000 }, async () => {
    const help = await suture(['demo', '--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /--scenario <name>\s+which bug to repair: attack, enemy, all/);
    assert.match(help.stdout, /enemy\s+the enemy AI block `pause\.run\(\{ id: 'enemy-ai-move-towards-player'/);
    const bad = await suture(['demo', '--scenario', 'boss']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /expected one of attack, enemy, all, got "boss"/);
  });
});
