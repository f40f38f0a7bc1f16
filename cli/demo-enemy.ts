import type { CallWorld } from '../core/world.ts';
import { enemyTick } from '../demo/enemy-ai.mjs';
import { EnemyGame, MOVE_BLOCK, type TickResult } from '../demo/enemy-game.ts';
import { GAME_APP } from '../demo/game-loop.ts';
import type { PatchRecord } from '../service/store/service-store.ts';
import type { AdminClient } from './admin-client.ts';
import { capturedBug, indent, out, patchedEvents, printFailures, section, showPatch, showRepairJob, waitFor, type DemoScenario } from './demo-output.ts';

/**
 * The demo's second scenario: the enemy AI block of the Pause Framework example, reading
 * `getPlayerCoordinates`, `self` and `moveRight` through `uses`, throws after its move when the enemy
 * steps onto a teleporter pad. The repair is searched in the recorded world; the patch runs on the
 * live enemy, and no tick moves it twice.
 */
export const enemyScenario: DemoScenario = {
  intro: [
    'suture demo (enemy): a game server runs its enemy AI through the Pause adapter, one block per',
    "tick: pause.run({ id: 'enemy-ai-move-towards-player', …, uses: { getPlayerCoordinates, self,",
    'moveRight } }, block). A grunt chases the player down a corridor with teleporter pads; an enemy',
    'on a pad is in transit and has no position, so the block throws right after it moved. Watch',
    'suture repair it from the recorded world, and the game run the patch on the live enemy.',
  ],
  async run({ url, admin, appToken, publicKey, deadlineMs }, onCleanup) {
    section('The enemy AI runs; the SDK records ticks that work');
    const g = new EnemyGame({ url, token: appToken, publicKey, waitForFixMs: deadlineMs });
    onCleanup('enemy game SDK client', () => g.repair.close());
    let mode = 'fallback mode: for the ticks the block throws on';
    // Manifests the SDK took in that changed what it runs: the demo waits for them before its next ticks.
    const syncs: number[] = [];
    g.repair.on('sync', (e) => {
      if (e.changed) syncs.push(e.patchedBlocks);
    });
    const patched = patchedEvents(g.repair, (e) => (e.via === 'wait' ? 'for the held tick' : `from the manifest (${mode})`));
    printFailures(g.repair, [
      'The SDK sends a failure report with the block\'s world (what getPlayerCoordinates and',
      'self.getCurrentPosition answered, the moveRight call) and holds the tick: waitForFix is on.',
    ]);
    out('  the block, as the game runs it (demo/enemy-ai.mjs):');
    out(indent(blockSource(), '    '));
    out(`\n  ${g.render()}  start: grunt at x=${g.enemy.tile}, player at x=${g.player.x}; pads O at x=${[...g.pads].map(([a, b]) => `${a} → ${b}`).join(', ')}`);
    const ticks: TickResult[] = [];
    const play = async (label: string, note = (t: TickResult) => describe(t)) => {
      const t = await g.tick();
      ticks.push(t);
      out(`  ${label.padEnd(8)}${g.render()}  ${note(t)}`);
      return t;
    };
    for (let i = 1; i <= 4; i++) await play(`tick ${i}`);
    await g.repair.flush();
    out('  4 ticks recorded and sent, each with its world: the uses values, every call through them in');
    out('  order with its answer (getPlayerCoordinates, self.getCurrentPosition, moveRight), the result.');

    section('The bug: a teleporter pad');
    g.player.x = 17;
    out(`  the player dashes to x=${g.player.x}; the grunt, at x=${g.enemy.tile}, steps onto the pad at x=5:`);
    const heldTick = ticks.length + 1;
    const pending = g.tick().then((t) => ({ ok: true as const, t }), (error: unknown) => ({ ok: false as const, error }));
    const { bug, cases, jobId } = await capturedBug(admin, GAME_APP, MOVE_BLOCK, deadlineMs);
    out(`  failure captured by the daemon: bug ${bug.fingerprint.slice(0, 16)}… (${bug.errorName}: ${bug.firstMessage})`);
    const world = cases[0]?.world;
    if (world) {
      out(`  the failing tick's world as stored: uses ${Object.keys(world.uses).sort().join(', ')}; its calls, in order, before the throw:`);
      for (const line of callLines(world)) out(`    ${line}`);
      out('  moveRight already ran: the grunt is on its way through the pad. A patch that started the tick');
      out('  over would move it a second time, unless the calls the block made are answered from its log.');
    }

    section('The repair job');
    out('  each trial defines getPlayerCoordinates, self and moveRight from the recorded worlds: every call');
    out('  answered from the log, in order; a candidate calling anything else, or leaving a call out, fails');
    const report = await showRepairJob(admin, jobId, deadlineMs);
    if (!report) return 1;
    if (report.confidence?.level === 'low') {
      out(`\n  confidence: low: ${report.confidence.reason}.`);
      out('  The block takes no arguments: its inputs are what getPlayerCoordinates and self.getCurrentPosition');
      out('  answer, which the engine does not make up.');
      const zero = report.candidates.find((c) => c.status === 'plausible' && c.description.includes('?? 0'));
      if (zero) out(`  And they differ: #${zero.rank} (${zero.description}) would say "reached" for a player at x=0 while in transit.`);
      out('  A low-confidence patch waits for an operator, whatever the publication policy.');
    }

    section('The patch: published and signed');
    let patch = await showPatch(admin, GAME_APP, bug, publicKey);
    if (patch.status === 'pending-approval') {
      const approved = await admin.post<{ patch: PatchRecord }>(`/v1/admin/patches/${patch.id}/approve`, { reason: 'demo: the diff is what the enemy AI needs' });
      out(`  the demo approves it as an operator would (\`suture approve ${patch.id}\`): ${patch.status} → ${approved.patch.status}, rollout ${Math.round(approved.patch.rollout * 100)}%`);
      patch = approved.patch;
    }

    section('The game continues on the patch');
    const rescued = await pending;
    patched.release();
    if (!rescued.ok) {
      out(`  the held tick failed: ${(rescued.error as Error)?.message ?? rescued.error}`);
      return 1;
    }
    ticks.push(rescued.t);
    out(`  ${`tick ${heldTick}`.padEnd(8)}${g.render()}  ${describe(rescued.t)} (held; answered by the patch)`);
    await waitFor(async () => syncs.some((n) => n > 0) || null, 5000, 'the manifest').catch(() => undefined);
    out('  fallback mode: the block runs each tick; where it throws (a pad) the patch answers, its calls');
    out('  answered from the block\'s log as far as the block got, so the grunt never steps twice:');
    await chase(g, ticks, play, 'the block threw; the patch answered');
    await g.repair.flush();
    const counted = await countedAtLeast(admin, patch.id, 2);
    if (counted) out(`  the daemon counts the patch's calls: ${counted.passed} ran clean, ${counted.threw} threw (too many throws would roll it back)`);

    section('Replace mode: the patch runs every tick on the live enemy');
    mode = 'replace mode: for every tick, instead of the block';
    const seen = syncs.length;
    const replaced = await admin.post<{ patch: PatchRecord }>(`/v1/admin/patches/${patch.id}/replace`, { reason: 'demo: run the fixed AI outright' });
    await waitFor(async () => syncs.length > seen || null, 5000, 'the replace grant').catch(() => undefined);
    out(`  \`suture replace ${patch.id}\`: mode ${patch.mode ?? 'fallback'} → ${replaced.patch.mode}; the daemon signs a grant, the SDK verifies it and runs the`);
    out('  patch instead of the block. In its isolate getPlayerCoordinates, self.getCurrentPosition and');
    out('  moveRight are stand-ins calling the live functions: the steps below are the patch\'s own.');
    g.player.x = 28;
    out(`  the player dashes to x=${g.player.x}:`);
    const before = ticks.length;
    await chase(g, ticks, play, 'the block would have thrown; the patch ran instead');
    await g.repair.flush();
    const final = await countedAtLeast(admin, patch.id, (counted?.passed ?? 0) + ticks.length - before);
    if (final) out(`  the daemon counts the patch's calls: ${final.passed} ran clean (${final.passed - (counted?.passed ?? 0)} more: one per tick), ${final.threw} threw`);

    const after = ticks.slice(heldTick - 1);
    out(`\n  ${after.length} ticks since the bug, ${after.filter((t) => t.pad !== undefined).length} of them through a pad: the grunt went x=${after[0].from} → ${g.enemy.tile}; the player is at x=${g.player.x}${g.enemy.tile === g.player.x ? ', reached' : ''}`);
    const twice = ticks.filter((t) => t.steps > 1).length;
    out(`  moveRight calls per tick, every tick: ${ticks.map((t) => t.steps).join(' ')} (${twice === 0 ? 'never two in one tick' : `${twice} ticks moved the grunt more than once`})`);
    out(`  patched events seen: ${patched.seen.join(', ')}`);
    out(`\nRepaired: the enemy kept chasing the player. Export the fix for your code with \`suture export ${patch.id} --out DIR\`.`);
    return 0;
  },
};

/** Ticks until the grunt reaches the player (at most 12). */
async function chase(g: EnemyGame, ticks: TickResult[], play: (label: string, note?: (t: TickResult) => string) => Promise<TickResult>, onPad: string): Promise<void> {
  for (let i = 0; i < 12; i++) {
    const t = await play(`tick ${ticks.length + 1}`, (r) => `${describe(r)}${r.pad === undefined ? '' : ` (${onPad})`}`);
    if (t.reached || g.enemy.tile >= g.player.x) return;
  }
}

async function countedAtLeast(admin: AdminClient, patchId: string, n: number): Promise<PatchRecord | null> {
  return waitFor(async () => {
    const p = await admin.get<PatchRecord>(`/v1/admin/patches/${patchId}`);
    return p.passed >= n ? p : null;
  }, 5000, 'the outcome counts').catch(() => null);
}

function describe(t: TickResult): string {
  const move = t.steps === 0 ? 'stays' : t.pad === undefined ? `x=${t.from} → ${t.to}` : `x=${t.from} → pad ${t.pad} → ${t.to}`;
  return `grunt ${move}, moveRight ×${t.steps}, reached the player: ${t.reached ? 'yes' : 'no'}`;
}

/** The block's own text: the function `enemyTick` hands to pause.run. */
function blockSource(): string {
  const text = enemyTick.toString();
  const start = text.indexOf('() => {');
  const body = text.slice(start, text.lastIndexOf('}', text.lastIndexOf('});')) + 1);
  const lines = body.split('\n');
  const pad = Math.min(...lines.slice(1).filter((l) => l.trim()).map((l) => l.length - l.trimStart().length)) - 2;
  return lines.map((l, i) => (i === 0 ? l : l.slice(Math.max(0, pad)))).join('\n');
}

function callLines(world: CallWorld): string[] {
  return world.calls.map((c) => `${c.path}(${c.args.map((a) => JSON.stringify(a)).join(', ')}) → ${c.error ? `threw ${c.error.name}` : c.result === undefined || (c.result as { $t?: string })?.$t === 'undefined' ? 'undefined' : JSON.stringify(c.result)}`);
}
