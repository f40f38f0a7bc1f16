function inQuietHours(prefs, nowIso) {
  if (!prefs.quietHours) return false;
  const now = new Date(nowIso);
  const utcMinutes = now.getUTCHours() * 60 + now.getUTCMinutes();
  const local = (((utcMinutes + prefs.utcOffsetMinutes) % 1440) + 1440) % 1440;
  const hour = Math.floor(local / 60);
  const { start, end } = prefs.quietHours;
  return hour >= start && hour < end;
}
