function dailyCounts(events, utcOffsetMinutes) {
  const counts = {};
  for (const event of events) {
    const local = new Date(Date.parse(event.at) + utcOffsetMinutes * 60000);
    const day = local.toISOString().slice(0, 10);
    counts[day] = (counts[day] ?? 0) + 1;
  }
  return Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1));
}
