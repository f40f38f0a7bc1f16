import type { BugStatus } from './store/service-store.ts';

/**
 * What each bug status means, and whether a patch may still come for the bug as it stands. A
 * held call (the SDK's `waitForFix`) stops waiting as soon as the long poll sees a status where
 * none can come; the bug's `reason` says why. A new distinct failing input re-opens an
 * `unpatched` or `failed` bug (a new round), an operator's requeue any of them.
 */
export const BUG_STATUS_TABLE: Readonly<Record<BugStatus, { meaning: string; patchMayCome: boolean }>> = {
  new: { meaning: 'its repair job is queued', patchMayCome: true },
  repairing: { meaning: 'a worker is searching for a patch', patchMayCome: true },
  patched: { meaning: 'a patch was published (it may wait for an operator under the manual policy)', patchMayCome: true },
  unpatched: { meaning: 'the repair search ended without a plausible candidate, or its winner was refused at the re-check', patchMayCome: false },
  failed: { meaning: 'the repair job failed for good (every attempt threw or its worker died)', patchMayCome: false },
  // A roll-back is followed by a new round when the daemon requeues on roll-back (the default).
  'rolled-back': { meaning: 'its patch was rolled back', patchMayCome: true },
  rejected: { meaning: 'an operator rejected its patch', patchMayCome: false },
  'cannot-see': { meaning: 'cannot repair: the block reads names suture cannot see (pass them in uses)', patchMayCome: false },
};

/** Why no patch will come for a bug in this status, or null while one may. */
export function noPatchReason(bug: { status: BugStatus; reason?: string }): string | null {
  const row = BUG_STATUS_TABLE[bug.status];
  if (!row || row.patchMayCome) return null;
  return bug.reason ?? row.meaning;
}
