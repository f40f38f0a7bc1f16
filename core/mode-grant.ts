import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { PatchMode, SignedPatchFields } from './wire.ts';

/**
 * The operator's decision to let a patch replace its block outright, signed by the daemon with the
 * fleet key. The worker's signature covers what the patch is; this one covers how it may be used,
 * which changes after signing (an admin action), so it is a separate statement. An SDK runs a patch
 * in `replace` mode only when a grant for that exact patch (id, version, block, source hash)
 * verifies; anything else — no grant, a grant for another patch, a manifest edited on the way — runs
 * in `fallback` mode, where the patch never changes a call the block answers.
 */
export interface ModeGrantFields extends Pick<SignedPatchFields, 'id' | 'app' | 'blockId' | 'sourceHash' | 'version'> {
  mode: PatchMode;
}

/** The exact bytes a mode grant signature covers; the purpose tag keeps it from ever verifying as a patch signature. */
export function canonicalModeGrant(p: ModeGrantFields): Buffer {
  const fields = { purpose: 'suture-mode-grant-v1', id: p.id, app: p.app, blockId: p.blockId, sourceHash: p.sourceHash, version: p.version, mode: p.mode };
  return Buffer.from(JSON.stringify(fields), 'utf8');
}

/** Signs a mode grant (base64 Ed25519). */
export function signModeGrant(p: ModeGrantFields, privateKey: KeyObject): string {
  return sign(null, canonicalModeGrant(p), privateKey).toString('base64');
}

/** Whether a patch may replace its block: mode `replace` with a grant that verifies with the public key. Never throws. */
export function replaceGranted(p: Omit<ModeGrantFields, 'mode'> & { mode?: PatchMode; modeSignature?: string }, publicKey: string | KeyObject): boolean {
  if (p.mode !== 'replace' || typeof p.modeSignature !== 'string') return false;
  try {
    const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
    return verify(null, canonicalModeGrant({ ...p, mode: 'replace' }), key, Buffer.from(p.modeSignature, 'base64'));
  } catch {
    return false;
  }
}
