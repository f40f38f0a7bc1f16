function lastSeenLabel(user, nowIso) {
  const times = user.sessions.map((s) => Date.parse(s.endedAt));
  const last = new Date(Math.max(...times));
  const minutes = Math.floor((Date.parse(nowIso) - last.getTime()) / 60000);
  if (minutes < 1) return 'online';
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 1440) return `${Math.floor(minutes / 60)} h ago`;
  return `on ${last.toISOString().slice(0, 10)}`;
}
