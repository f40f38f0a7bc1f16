/**
 * Every status a patch can have, in lifecycle order: the one list the wire types, the SDK's
 * manifest check, the service's lifecycle table and the HTTP schemas use. What each status means
 * and the moves between them are the service's lifecycle table (service/patch-lifecycle.ts).
 */
export const PATCH_STATUSES = ['pending-approval', 'canary', 'active', 'rolled-back', 'rejected', 'superseded'] as const;

export type PatchStatus = (typeof PATCH_STATUSES)[number];

const KNOWN: ReadonlySet<string> = new Set(PATCH_STATUSES);

export function isPatchStatus(value: unknown): value is PatchStatus {
  return typeof value === 'string' && KNOWN.has(value);
}
