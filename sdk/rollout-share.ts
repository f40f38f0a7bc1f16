import { createHash } from 'node:crypto';

/**
 * Where this instance falls in a patch's rollout, in [0, 1): a stable hash of (instance id,
 * patch id). Stable so an instance does not flap in and out of a canary between manifest
 * revisions; keyed by the patch too so the same instances are not the guinea pigs of every patch.
 */
export function rolloutPosition(instanceId: string, patchId: string): number {
  const h = createHash('sha256').update(instanceId).update('\0').update(patchId).digest();
  return h.readUInt32BE(0) / 2 ** 32;
}

export function inRolloutShare(instanceId: string, patchId: string, rollout: number): boolean {
  return rolloutPosition(instanceId, patchId) < rollout;
}
