// The demo game's rules, plain JavaScript: the SDK sends a block's source (fn.toString()) to the
// daemon, and this file is loaded untransformed, so the source suture sees is exactly this text.

/** One attack: twice the player's strength minus the enemy's armor, at least 1. */
export function applyAttack(player, enemy) {
  const attack = player.stats.strength * 2;
  const armor = enemy.stats.armor;
  const finalDamage = Math.max(1, attack - armor);
  enemy.health -= finalDamage;
  return finalDamage;
}
