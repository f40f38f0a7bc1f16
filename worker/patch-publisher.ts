import { sign } from 'node:crypto';
import { canonicalPatchPayload } from '../core/patch-signature.ts';
import type { PatchEvidence, PatchStatus, SignedPatchFields } from '../core/wire.ts';
import type { SutureConfig } from '../config/config-settings.ts';
import { initialPlacement } from '../service/patch-lifecycle.ts';
import { resolvePolicy } from '../service/publication-policy.ts';
import type { SigningKeys } from '../service/signing-keys.ts';
import type { BugRecord, PatchDoc, ServiceStore } from '../service/store/service-store.ts';
import type { CandidateReport } from '../engine/index.ts';

export interface PublishResult {
  patchId: string;
  version: number;
  status: PatchStatus;
  rollout: number;
  /** False when this bug round's patch was already stored (by this or another worker). */
  stored: boolean;
  revision: number;
}

/** The bug's round moved on (rolled back or re-queued) while this job ran: nothing to publish. */
export class StaleRoundError extends Error {
  readonly code = 'SUTURE_STALE_ROUND';
  constructor(fingerprint: string, round: number, status: string) {
    super(`bug ${fingerprint} is no longer at round ${round} (status ${status})`);
    this.name = 'StaleRoundError';
  }
}

/**
 * Signs the winner, with the evidence it was checked against, and stores it as the bug round's one
 * patch version. Call only after the re-check passed (patch-recheck.ts). Idempotent per bug round:
 * the version number is reserved atomically the first time (the block's next version), and a
 * second publisher (a worker finishing the job of a killed one, a duplicate) gets that same
 * version and finds the patch already stored.
 */
export async function publishPatch(p: {
  store: ServiceStore;
  keys: SigningKeys;
  config: Pick<SutureConfig, 'policy' | 'policies' | 'canarySteps'>;
  bug: BugRecord;
  round: number;
  winner: CandidateReport;
  /** Cases by kind and the re-check verdict; signed with the patch. */
  evidence: PatchEvidence;
  /**
   * The search's confidence in the winner (engine/oracle/confidence.ts). 'low': its plausible rivals answer
   * differently and no case decided, so it starts where the manual policy starts (pending-approval)
   * whatever the policy. @defaultValue 'high'
   */
  confidence?: 'high' | 'low';
}): Promise<PublishResult> {
  const { store, bug, round, winner } = p;
  const reserved = await store.reservePatchVersion(bug, round);
  if ('stale' in reserved) throw new StaleRoundError(bug.fingerprint, round, reserved.stale);
  const existing = await store.getPatch(reserved.id);
  if (existing) return { patchId: existing.id, version: existing.version, status: existing.status, rollout: existing.rollout, stored: false, revision: await store.revision(bug.app) };

  const fields: SignedPatchFields = {
    id: reserved.id,
    app: bug.app,
    blockId: bug.blockId,
    sourceHash: bug.sourceHash,
    version: reserved.version,
    source: winner.source,
    fingerprint: bug.fingerprint,
    evidence: p.evidence,
  };
  const signature = sign(null, canonicalPatchPayload(fields), p.keys.privateKey).toString('base64');
  const doc: PatchDoc = {
    ...fields,
    signature,
    score: { generator: winner.generator, description: winner.description, passed: winner.passed, total: winner.total, editSize: winner.editSize },
  };
  const policy = await resolvePolicy(store, p.config, bug.app, bug.blockId);
  const { status, rollout } = initialPlacement(p.confidence === 'low' ? 'manual' : policy, p.config.canarySteps);
  const r = await store.storePatch(doc, status, rollout);
  if (!r.stored) {
    const now = await store.getPatch(reserved.id);
    return { patchId: reserved.id, version: reserved.version, status: now?.status ?? status, rollout: now?.rollout ?? rollout, stored: false, revision: r.revision };
  }
  return { patchId: reserved.id, version: reserved.version, status, rollout, stored: true, revision: r.revision };
}
