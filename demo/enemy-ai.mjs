// The enemy's AI for the demo's second scenario, plain JavaScript: the SDK sends a block's source
// (fn.toString()) to the daemon, and this file is loaded untransformed, so the source suture sees is
// exactly this text.

export const MOVE_BLOCK = 'enemy-ai-move-towards-player';
export const MOVE_DESCRIPTION = 'The enemy should calculate its next move to get closer to the player';

/**
 * One tick of an enemy's AI, written against the Pause Framework: it steps right while the player
 * is further right, then says whether it has reached the player. The block reads three outside
 * names, given in `uses`; the SDK records what they answer and gives a patch the live ones.
 */
export function enemyTick(pause, getPlayerCoordinates, self, moveRight) {
  return pause.run({ id: MOVE_BLOCK, description: MOVE_DESCRIPTION, uses: { getPlayerCoordinates, self, moveRight } }, () => {
    let playerPos = getPlayerCoordinates();
    let myPos = self.getCurrentPosition();
    if (myPos.x < playerPos.x) moveRight();
    myPos = self.getCurrentPosition();
    return myPos.x >= playerPos.x;
  });
}
