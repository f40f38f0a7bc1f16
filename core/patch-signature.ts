import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { PatchEvidence, SignedPatchFields } from './wire.ts';

/**
 * The exact bytes a patch signature covers: the signed fields as JSON with keys in a fixed order.
 * Changing any of them (source, version, block, app, evidence) invalidates the signature. A patch
 * without evidence (signed before evidence existed) has the same bytes as it always had, so its
 * signature still verifies; removing the evidence of a patch signed with it breaks the signature.
 */
export function canonicalPatchPayload(p: SignedPatchFields): Buffer {
  const fields: SignedPatchFields = {
    id: p.id,
    app: p.app,
    blockId: p.blockId,
    sourceHash: p.sourceHash,
    version: p.version,
    source: p.source,
    fingerprint: p.fingerprint,
  };
  if (p.evidence != null) fields.evidence = canonicalEvidence(p.evidence);
  return Buffer.from(JSON.stringify(fields), 'utf8');
}

function canonicalEvidence(e: PatchEvidence): PatchEvidence {
  return {
    failing: e.failing,
    recorded: e.recorded,
    generated: e.generated,
    tests: e.tests,
    recheck: { passed: e.recheck.passed, total: e.recheck.total },
  };
}

/** Verifies an Ed25519 signature (base64) of a patch with a PEM or KeyObject public key; never throws. */
export function verifyPatchSignature(patch: SignedPatchFields & { signature: string }, publicKey: string | KeyObject): boolean {
  try {
    const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
    return verify(null, canonicalPatchPayload(patch), key, Buffer.from(patch.signature, 'base64'));
  } catch {
    return false;
  }
}
