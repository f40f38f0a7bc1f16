function allow(clientId) {
  const t = clock.now();
  const w = WINDOWS[clientId] || (WINDOWS[clientId] = { start: t, count: 0 });
  if (t - w.start > WINDOW_MS) {
    w.start = t;
    w.count = 0;
  }
  w.count++;
  return w.count < LIMIT;
}
