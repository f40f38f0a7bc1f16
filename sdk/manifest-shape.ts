import { isPatchStatus } from '../core/patch-status.ts';
import type { Manifest, ManifestPatch } from '../core/wire.ts';

function isPatch(p: unknown): p is ManifestPatch {
  if (!p || typeof p !== 'object') return false;
  const x = p as Record<string, unknown>;
  return (
    typeof x.id === 'string' &&
    typeof x.app === 'string' &&
    typeof x.blockId === 'string' &&
    typeof x.sourceHash === 'string' &&
    typeof x.version === 'number' &&
    typeof x.source === 'string' &&
    typeof x.fingerprint === 'string' &&
    typeof x.signature === 'string' &&
    isPatchStatus(x.status) &&
    typeof x.rollout === 'number' &&
    x.rollout >= 0 &&
    x.rollout <= 1
  );
}

/**
 * Checks that a body from the daemon (or the backup file) is a manifest for this app. A garbage
 * body is refused as a whole rather than half-used; signatures are checked later, per patch.
 */
export function parseManifest(body: unknown, app: string): Manifest | null {
  if (!body || typeof body !== 'object') return null;
  const m = body as Record<string, unknown>;
  if (m.app !== app || typeof m.revision !== 'number' || !Array.isArray(m.patches)) return null;
  if (!m.patches.every(isPatch)) return null;
  return { app, revision: m.revision, patches: m.patches as ManifestPatch[] };
}

/** A single patch, as the fix long-poll returns it. */
export function parsePatch(body: unknown): ManifestPatch | null {
  if (body && typeof body === 'object' && 'patch' in body) body = (body as { patch: unknown }).patch;
  return isPatch(body) ? body : null;
}
