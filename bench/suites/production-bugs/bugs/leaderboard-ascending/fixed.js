function topPlayers(players, n) {
  return [...players].sort((a, b) => b.score - a.score).slice(0, n).map((p) => p.name);
}
