// The scenario every consumer app runs (ESM, CommonJS and compiled TypeScript each pass the
// `createRepairClient` they imported or required): known-good calls, a failing call that waits for
// its repair, then failing calls the patch answers from the manifest. It only observes and prints;
// test/package/installed-packages.test.ts judges the summary.

const DESCRIPTION = 'Calculate damage dealt by player to enemy based on strength and armor stats';

const damage = (player, enemy) => {
  const attack = player.stats.strength * 2;
  const armor = enemy.stats.armor;
  const finalDamage = Math.max(1, attack - armor);
  enemy.health -= finalDamage;
  return finalDamage;
};

const attempt = async (call) => {
  try {
    return { value: await call() };
  } catch (error) {
    return { threw: String(error) };
  }
};

export async function scenario(createRepairClient, env) {
  const block = env.SUTURE_BLOCK;
  const repair = createRepairClient({
    url: env.SUTURE_URL, app: 'game', token: env.SUTURE_TOKEN, publicKey: env.SUTURE_PUBLIC_KEY,
    waitForFix: 40_000, flushInterval: 50, pollInterval: 100,
  });
  const patched = [];
  const errors = [];
  repair.on('patched', (e) => patched.push(e.via));
  repair.on('error', (e) => errors.push(`${e.code}: ${e.message}`));
  const player = { stats: { strength: 10 } };

  const known = [];
  for (const armor of [0, 4, 9]) known.push(await repair.run(block, DESCRIPTION, damage, player, { health: 100, stats: { armor } }));
  await repair.flush();

  const ghost = { health: 40 };
  const repaired = { ...(await attempt(() => repair.run(block, DESCRIPTION, damage, player, ghost))), health: ghost.health };
  const viaWait = [...patched];

  // Later failing calls: the patch reaches this instance through the manifest and answers at once.
  let later;
  let laterCalls = 0;
  while (laterCalls < 100 && !patched.includes('manifest')) {
    const wisp = { health: 50 };
    later = { ...(await attempt(() => repair.run(block, DESCRIPTION, damage, player, wisp))), health: wisp.health };
    if (++laterCalls < 100 && !patched.includes('manifest')) await new Promise((r) => setTimeout(r, 100));
  }
  const healthy = await repair.run(block, DESCRIPTION, damage, player, { health: 100, stats: { armor: 4 } });
  await repair.close();
  return { known, repaired, viaWait, later, laterCalls, patched, healthy, errors };
}
