function topPlayers(players, n) {
  return [...players].sort((a, b) => a.score - b.score).slice(0, n).map((p) => p.name);
}
