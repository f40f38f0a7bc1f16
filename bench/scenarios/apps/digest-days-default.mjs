// Mail scheduler: when to send a user's digest. Accounts older than the digest feature have no
// `digestDays` in their settings (the hour already has its default).

export const scenario = {
  id: 'digest-days-default',
  title: 'missing-field default: settings.digestDays absent on old accounts',
  entry: 'digestSchedule',
  healthy: [
    [{ id: 1, settings: { digestHour: 7, digestDays: ['Monday', 'Thursday'] } }],
    [{ id: 2, settings: { digestDays: ['Friday'] } }],
    [{ id: 3, settings: { digestHour: 18, digestDays: [] } }],
  ],
  failing: [
    [{ id: 4, settings: { digestHour: 9 } }],
  ],
  hidden: [
    [{ id: 5, settings: {} }],
    [{ id: 6, settings: { digestHour: 6, digestDays: ['Sunday', 'saturday'] } }],
    [{ id: 7, settings: { digestHour: 20, digestDays: null } }],
  ],
};

export function createApp(repair) {
  function digestSchedule(user) {
    const s = user.settings;
    return { userId: user.id, hour: s.digestHour ?? 8, days: s.digestDays.map((d) => d.slice(0, 3).toLowerCase()) };
  }
  return { digestSchedule: (user) => repair.run('digest-schedule', 'Hour (default 8) and short day names on which the user gets the digest', digestSchedule, user) };
}

/** No digest days set: no days. */
export function intended(user) {
  const s = user.settings;
  return { userId: user.id, hour: s.digestHour ?? 8, days: (s.digestDays ?? []).map((d) => d.slice(0, 3).toLowerCase()) };
}
