import type { Manifest, ManifestPatch } from '../core/wire.ts';
import { MANIFEST_STATUSES } from '../service/patch-lifecycle.ts';
import type { PatchRecord, ServiceStore } from '../service/store/service-store.ts';

/** Statuses an SDK needs to see (the lifecycle table's `inManifest`). */
const IN_MANIFEST = new Set<string>(MANIFEST_STATUSES);

export function toManifestPatch(p: PatchRecord): ManifestPatch {
  return {
    id: p.id,
    app: p.app,
    blockId: p.blockId,
    sourceHash: p.sourceHash,
    version: p.version,
    source: p.source,
    fingerprint: p.fingerprint,
    status: p.status,
    rollout: p.rollout,
    signature: p.signature,
    score: p.score,
    // How SDKs use it; `replace` carries the daemon's signed grant (core/mode-grant.ts).
    mode: p.mode ?? 'fallback',
    ...(p.modeSignature ? { modeSignature: p.modeSignature } : {}),
    // Signed with the patch (when present): the SDK's signature check needs it as stored.
    ...(p.evidence ? { evidence: p.evidence } : {}),
  };
}

export const manifestEtag = (revision: number) => `"r${revision}"`;

/**
 * Builds manifests and keeps the last one per app: the revision is one GET, the patches are read
 * only when it moved.
 */
export class ManifestBuilder {
  readonly #cache = new Map<string, { revision: number; manifest: Manifest; json: string }>();
  constructor(readonly store: ServiceStore) {}

  async build(app: string): Promise<{ revision: number; manifest: Manifest; json: string }> {
    const revision = await this.store.revision(app);
    const cached = this.#cache.get(app);
    if (cached && cached.revision === revision) return cached;
    const read = await this.store.readPatches(app);
    const manifest: Manifest = {
      app,
      revision: read.revision,
      patches: read.patches.filter((p) => IN_MANIFEST.has(p.status)).map(toManifestPatch),
    };
    const entry = { revision: read.revision, manifest, json: JSON.stringify(manifest) };
    if (this.#cache.size > 10_000) this.#cache.clear();
    this.#cache.set(app, entry);
    return entry;
  }
}
