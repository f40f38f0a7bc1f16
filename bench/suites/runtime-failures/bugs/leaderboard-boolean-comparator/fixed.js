function topPlayers(players, limit) {
  return players
    .filter((player) => !player.banned)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((player, index) => ({ rank: index + 1, name: player.name, score: player.score }));
}
