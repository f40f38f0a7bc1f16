import type { PatchRecord } from '../service/store/service-store.ts';
import { DemoGame, DAMAGE_BLOCK, GAME_APP } from '../demo/game-loop.ts';
import { capturedBug, out, patchedEvents, printFailures, section, showPatch, showRepairJob, waitFor, type DemoScenario } from './demo-output.ts';

/** The demo's first scenario: an attack on an enemy without `stats` throws; the patch is `?.armor ?? 0`. */
export const attackScenario: DemoScenario = {
  intro: [
    'suture demo: a game server calls applyAttack(player, enemy) through the suture SDK. An enemy',
    'spawned from an old template has no `stats`, so the attack throws. Watch suture capture the',
    'failure, search for a fix in sandboxes, publish a signed patch, and the game run it.',
  ],
  async run({ url, admin, appToken, publicKey, deadlineMs }, onCleanup) {
    section('The game runs; the SDK records calls that work');
    const g = new DemoGame({ url, token: appToken, publicKey, waitForFixMs: deadlineMs });
    onCleanup('game SDK client', () => g.repair.close());
    const shadows: boolean[] = [];
    g.repair.on('shadow', (e) => shadows.push(e.agreed));
    const patched = patchedEvents(g.repair, (e) => (e.via === 'wait' ? 'for the held call' : 'from the manifest, for the calls the block throws on (fallback mode)'));
    printFailures(g.repair, [
      'The SDK sends a failure report (inputs as they were on entry, secrets redacted) and',
      'holds the call: waitForFix is on, so it waits for a fix instead of rethrowing.',
    ]);
    for (const enemy of [DemoGame.spawn('goblin', 50, 8), DemoGame.spawn('wolf', 30, 2), DemoGame.spawn('golem', 300, 40)]) {
      const before = enemy.health;
      const damage = await g.attack(enemy);
      out(`  ${g.hero.name} hits the ${enemy.name.padEnd(6)} (armor ${String(enemy.stats?.armor).padStart(2)}) for ${String(damage).padStart(2)}: health ${before} → ${enemy.health}`);
    }
    await g.repair.flush();
    out('  3 successful calls recorded and sent: inputs, result, and the arguments\' state after each call.');

    section('The bug: an enemy without stats');
    const ghost = DemoGame.spawn('ghost', 40);
    out(`  ${g.hero.name} attacks a ghost ${JSON.stringify(ghost)}`);
    const pending = Promise.resolve(g.attack(ghost)).then((d) => ({ ok: true as const, d }), (error: unknown) => ({ ok: false as const, error }));

    const { bug, cases, jobId } = await capturedBug(admin, GAME_APP, DAMAGE_BLOCK, deadlineMs);
    out(`  failure captured by the daemon: bug ${bug.fingerprint.slice(0, 16)}… (${bug.errorName} at ${bug.topFrame || 'the block'})`);
    out('  the failing input as stored (snapshot encoding; the session token never left the game):');
    for (const [i, a] of (cases[0]?.args ?? []).entries()) out(`    arg ${i + 1}: ${JSON.stringify(a)}`);

    section('The repair job');
    if (!(await showRepairJob(admin, jobId, deadlineMs))) return 1;

    section('The patch: published and signed');
    const patch = await showPatch(admin, GAME_APP, bug, publicKey);

    section('The game continues on the patch');
    const rescued = await pending;
    patched.release();
    if (!rescued.ok) {
      out(`  the waiting call failed: ${(rescued.error as Error)?.message ?? rescued.error}`);
      return 1;
    }
    out(`  the held call returned: ${g.hero.name} hits the ghost for ${rescued.d}: health 40 → ${ghost.health}`);
    await waitFor(async () => g.repair.stats().manifestRevision > 0 || null, 5000, 'the manifest').catch(() => undefined);
    for (const enemy of [DemoGame.spawn('wisp', 25), DemoGame.spawn('ghost', 40), DemoGame.spawn('orc', 60, 5)]) {
      const before = enemy.health;
      const damage = await g.attack(enemy);
      out(`  ${g.hero.name} hits the ${enemy.name.padEnd(5)} (${enemy.stats ? `armor ${enemy.stats.armor}` : 'no stats'}) for ${damage}: health ${before} → ${enemy.health}`);
    }
    await waitFor(async () => shadows.length > 0 || null, 2000, 'a shadow run').catch(() => undefined);
    await g.repair.flush();
    const counted = await waitFor(async () => {
      const p = await admin.get<PatchRecord>(`/v1/admin/patches/${patch.id}`);
      return p.passed >= 3 ? p : null;
    }, 5000, 'the outcome counts').catch(() => null);
    if (counted) out(`  the daemon counts the patch's calls: ${counted.passed} ran clean, ${counted.threw} threw (too many throws would roll it back)`);
    if (shadows.length > 0) {
      const agreed = shadows.filter((a) => a).length;
      out(`  the orc got the block's own answer; in the background the patch ran on a copy of its inputs (shadow run): ${agreed} of ${shadows.length} agreed with the block (a disagreement would roll it back)`);
    }
    out(`  patched events seen: ${patched.seen.join(', ')}`);
    out(`\nRepaired: the game kept running. Export the fix for your code with \`suture export ${patch.id} --out DIR\`.`);
    return 0;
  },
};
