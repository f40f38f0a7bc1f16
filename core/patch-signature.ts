import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { SignedPatchFields } from './wire.ts';

/**
 * The exact bytes a patch signature covers: the signed fields as JSON with keys in a fixed order.
 * Changing any of them (source, version, block, app) invalidates the signature.
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
  return Buffer.from(JSON.stringify(fields), 'utf8');
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
