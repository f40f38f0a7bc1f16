function addScore(player, points) {
  this.scores[player] = (this.scores[player] || 0) + points;
  if (this.scores[player] > this.best.points) this.best = { player, points: this.scores[player] };
  return this.best.player;
}
