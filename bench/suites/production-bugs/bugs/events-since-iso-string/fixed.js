function eventsSince(events, filters) {
  const since = filters.since ?? new Date(0);
  return events.filter((e) => e.at >= new Date(since).getTime()).map((e) => e.id);
}
