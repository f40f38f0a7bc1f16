import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { signModeGrant } from '../../core/mode-grant.ts';
import { canonicalPatchPayload } from '../../core/patch-signature.ts';
import type { Manifest, ManifestPatch, PatchMode } from '../../core/wire.ts';
import { sourceHash } from '../../core/source-hash.ts';

/** A fresh Ed25519 key pair, as the daemon holds one. */
export function makeKeys(): { publicKey: string; privateKey: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(), privateKey };
}

let seq = 0;

/**
 * A signed manifest patch for `original` (a function) with `source`. Mode `replace` by default,
 * with the operator's grant signed by the same key (these tests exercise the patch on every
 * call); `mode: 'fallback'` gives a patch as the daemon publishes it.
 */
export function signedPatch(
  privateKey: KeyObject,
  o: { app: string; blockId: string; original: Function | string; source: string; rollout?: number; status?: ManifestPatch['status']; version?: number; id?: string; mode?: PatchMode },
): ManifestPatch {
  const fields = {
    id: o.id ?? `patch-${++seq}-${Date.now()}`,
    app: o.app,
    blockId: o.blockId,
    sourceHash: sourceHash(typeof o.original === 'string' ? o.original : o.original.toString()),
    version: o.version ?? 1,
    source: o.source,
    fingerprint: `fp-${seq}`,
  };
  const mode = o.mode ?? 'replace';
  return {
    ...fields,
    mode,
    ...(mode === 'replace' ? { modeSignature: signModeGrant({ ...fields, mode }, privateKey) } : {}),
    status: o.status ?? 'active',
    rollout: o.rollout ?? 1,
    signature: sign(null, canonicalPatchPayload(fields), privateKey).toString('base64'),
    score: { generator: 'test', description: 'test patch', passed: 1, total: 1, editSize: 1 },
  };
}

export function manifestOf(app: string, patches: ManifestPatch[], revision = 1): Manifest {
  return { app, revision, patches };
}

/** The seed block of the design: breaks on an enemy without stats. */
export const seedBlock = (player: { stats: { strength: number } }, enemy: { health: number; stats: { armor: number } }) => {
  const attack = player.stats.strength * 2;
  const armor = enemy.stats.armor;
  const finalDamage = Math.max(1, attack - armor);
  enemy.health -= finalDamage;
  return finalDamage;
};

/** A repair of the seed block, in the form a worker publishes it. */
export const seedFix = `(player, enemy) => {
  const attack = player.stats.strength * 2;
  const armor = enemy.stats?.armor ?? 0;
  const finalDamage = Math.max(1, attack - armor);
  enemy.health -= finalDamage;
  return finalDamage;
}`;
