// Game server: a guard picks the nearest enemy to chase. `self` is the guard's own game object;
// its position comes from a method. Enemies that are still spawning have no position yet.

const self = {
  id: 'guard-1',
  x: 10,
  y: 10,
  getCurrentPosition() {
    return { x: this.x, y: this.y };
  },
};

export const scenario = {
  id: 'nearest-enemy-self-method',
  title: 'object method via uses (self.getCurrentPosition()): an enemy without a position yet',
  entry: 'nearestEnemy',
  uses: ['self'],
  healthy: [
    [[{ id: 'orc', position: { x: 12, y: 10 } }, { id: 'imp', position: { x: 30, y: 30 } }]],
    [[{ id: 'bat', position: { x: 0, y: 0 } }, { id: 'rat', position: { x: 9, y: 14 } }]],
    [[]],
  ],
  failing: [
    [[{ id: 'orc', position: { x: 40, y: 10 } }, { id: 'ghost' }, { id: 'imp', position: { x: 15, y: 10 } }]],
  ],
  hidden: [
    [[{ id: 'wisp' }, { id: 'bat', position: { x: 11, y: 11 } }]],
    [[{ id: 'wisp' }]],
    [[{ id: 'elk', position: { x: 10, y: 25 } }, { id: 'ghost', position: null }, { id: 'fox', position: { x: 20, y: 10 } }]],
  ],
};

export function createApp(repair) {
  function nearestEnemy(enemies) {
    const me = self.getCurrentPosition();
    let best = null;
    let bestDistance = Infinity;
    for (const enemy of enemies) {
      const d = Math.hypot(enemy.position.x - me.x, enemy.position.y - me.y);
      if (d < bestDistance) {
        best = enemy.id;
        bestDistance = d;
      }
    }
    return best;
  }
  return {
    nearestEnemy: (enemies) => repair.run({ id: 'nearest-enemy', description: 'Id of the enemy nearest to the guard, or null when there is none', uses: { self } }, nearestEnemy, enemies),
  };
}

/** Enemies without a position are not candidates. */
export function intended(enemies) {
  const me = self.getCurrentPosition();
  let best = null;
  let bestDistance = Infinity;
  for (const enemy of enemies) {
    if (!enemy.position) continue;
    const d = Math.hypot(enemy.position.x - me.x, enemy.position.y - me.y);
    if (d < bestDistance) {
      best = enemy.id;
      bestDistance = d;
    }
  }
  return best;
}
