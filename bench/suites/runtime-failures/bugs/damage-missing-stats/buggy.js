function applyAttack(player, enemy) {
  const multiplier = player.weapon ? player.weapon.multiplier : 1;
  const raw = player.attack * multiplier;
  const armor = enemy.stats.armor;
  const mitigated = raw * (100 / (100 + armor));
  const finalDamage = Math.max(1, Math.round(mitigated));
  enemy.health -= finalDamage;
  return finalDamage;
}
