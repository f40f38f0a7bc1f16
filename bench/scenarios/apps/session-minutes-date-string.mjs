// Admin panel: how long each support session has been open. Sessions fresh from the database
// carry Date objects; sessions read back from the Redis cache arrive as JSON, with ISO strings.

export const scenario = {
  id: 'session-minutes-date-string',
  title: 'session age: startedAt arrives as an ISO string (getTime is not a function)',
  entry: 'sessionAge',
  healthy: [
    [{ user: 'ann', startedAt: new Date('2024-05-01T09:00:00Z') }, new Date('2024-05-01T09:12:30Z')],
    [{ user: 'bo', startedAt: new Date('2024-05-01T08:00:00Z') }, new Date('2024-05-01T09:12:30Z')],
    [{ user: 'cy', startedAt: new Date('2024-05-01T09:12:00Z') }, new Date('2024-05-01T09:12:30Z')],
  ],
  failing: [
    [{ user: 'di', startedAt: '2024-05-01T08:50:00.000Z' }, new Date('2024-05-01T09:12:30Z')],
  ],
  hidden: [
    [{ user: 'eve', startedAt: '2024-05-01T09:10:00.000Z' }, new Date('2024-05-01T09:12:30Z')],
    [{ user: 'fay', startedAt: '2024-05-01T10:00:00+02:00' }, new Date('2024-05-01T09:12:30Z')],
    [{ user: 'gus', startedAt: '2024-04-30T23:59:59.000Z' }, new Date('2024-05-01T00:45:00Z')],
    [{ user: 'hal', startedAt: new Date('2024-05-01T07:00:00Z') }, new Date('2024-05-01T09:12:30Z')],
  ],
};

export function createApp(repair) {
  const sessionAge = repair.wrap('session-age', 'Minutes a support session has been open, and whether it counts as idle (30 minutes or more)', (session, now) => {
    const minutes = Math.floor((now.getTime() - session.startedAt.getTime()) / 60000);
    return { user: session.user, minutes, idle: minutes >= 30 };
  });
  return { sessionAge };
}

/** A start time given as an ISO string is the same instant as the Date it was written from. */
export function intended(session, now) {
  const minutes = Math.floor((now.getTime() - new Date(session.startedAt).getTime()) / 60000);
  return { user: session.user, minutes, idle: minutes >= 30 };
}
