import { replaceGranted } from '../core/mode-grant.ts';
import { canonicalPatchPayload, verifyPatchSignature } from '../core/patch-signature.ts';
import type { PatchStatus } from '../core/patch-status.ts';
import type { SourceHashCache } from '../core/source-hash.ts';
import type { Manifest, ManifestPatch } from '../core/wire.ts';
import type { ClientEvents } from './client-events.ts';
import type { ResolvedOptions } from './client-options.ts';
import type { PatchExecutor } from './patch-executor.ts';
import { inRolloutShare } from './rollout-share.ts';
import { SdkError } from './sdk-errors.ts';

/** Statuses whose patches run. */
const RUNNABLE: ReadonlySet<PatchStatus> = new Set<PatchStatus>(['canary', 'active']);

/** Per block id: the patch this instance runs for each source hash, and a one-entry cache by function object. */
export interface BlockPatches {
  byHash: Map<string, ManifestPatch>;
  lastFn: Function | null;
  lastPatch: ManifestPatch | undefined;
}

/**
 * The manifest applied to this instance: which verified patch answers which block (by source
 * hash), in which mode (replace only with the operator's signed grant; every other live patch runs
 * in fallback mode), and which patches this instance no longer uses after a shadow disagreement.
 */
export class PatchTable {
  readonly #o: ResolvedOptions;
  readonly #events: ClientEvents;
  readonly #hashes: SourceHashCache;
  readonly #executor: PatchExecutor | null;
  /** Called after each apply with the patch ids still in use, so their holders free the others. */
  readonly #release: (keep: ReadonlySet<string>) => void;
  readonly #verified = new Map<string, boolean>();
  /** Patches whose replace grant verified; every other live patch runs in fallback mode. */
  #replacing = new Set<string>();
  /** Patches that disagreed with the block in a shadow run: this instance no longer uses them. */
  readonly #quarantined = new Set<string>();
  #manifest: Manifest | null = null;
  #warnedNoKey = false;
  /** Per block id (see {@link BlockPatches}). */
  blocks = new Map<string, BlockPatches>();
  /** Whether the manifest gives this instance any patch at all: without one, no per-call lookup. */
  any = false;

  constructor(o: { options: ResolvedOptions; events: ClientEvents; hashes: SourceHashCache; executor: PatchExecutor | null; release: (keep: ReadonlySet<string>) => void }) {
    this.#o = o.options;
    this.#events = o.events;
    this.#hashes = o.hashes;
    this.#executor = o.executor;
    this.#release = o.release;
  }

  /** The patch for this function of the block (cached for the last function object seen). */
  patchFor(block: BlockPatches, fn: Function): ManifestPatch | undefined {
    if (block.lastFn === fn) return block.lastPatch;
    const patch = block.byHash.get(this.#hashes.of(fn).hash);
    block.lastFn = fn;
    block.lastPatch = patch;
    return patch;
  }

  /** Whether the operator granted this patch replace mode (it then runs instead of its block). */
  replaces(patchId: string): boolean {
    return this.#replacing.has(patchId);
  }

  /** Whether a patch the daemon sent (not from the manifest) may answer this block's failing call here. */
  accepts(patch: ManifestPatch, blockId: string, sourceHash: string): boolean {
    return patch.app === this.#o.app && patch.blockId === blockId && patch.sourceHash === sourceHash && RUNNABLE.has(patch.status) && this.verify(patch);
  }

  verify(patch: ManifestPatch): boolean {
    // Keyed by the signature and everything it covers (the canonical payload): any field changed
    // under a signature that verified once is a new entry, checked again.
    const key = `${patch.signature}\0${canonicalPatchPayload(patch).toString('utf8')}`;
    let ok = this.#verified.get(key);
    if (ok === undefined) {
      ok = this.#o.publicKey !== undefined && verifyPatchSignature(patch, this.#o.publicKey);
      this.#verified.set(key, ok);
      if (!ok && this.#o.publicKey !== undefined) {
        this.#events.error(new SdkError('SUTURE_PATCH_SIGNATURE_INVALID', `patch ${patch.id} (block ${patch.blockId}) does not verify with the configured public key; refused`, { patchId: patch.id }));
      }
    }
    return ok;
  }

  /** A patch that disagreed with its block: this instance stops using it. */
  quarantine(patchId: string): void {
    if (this.#quarantined.has(patchId)) return;
    this.#quarantined.add(patchId);
    if (this.#manifest) this.apply(this.#manifest);
  }

  apply(m: Manifest): void {
    if (!this.#o.publicKey) {
      if (m.patches.length > 0 && !this.#warnedNoKey) {
        this.#warnedNoKey = true;
        this.#events.error(new SdkError('SUTURE_PATCH_SIGNATURE_INVALID', 'no publicKey configured: patches are never run'));
      }
      return;
    }
    if (!this.#executor) return;
    this.#manifest = m;
    // Per (block, source hash): the newest runnable, verified patch whose rollout includes this
    // instance and that has not disagreed with the block here.
    const candidates = m.patches
      .filter((p) => p.app === this.#o.app && RUNNABLE.has(p.status))
      .sort((a, b) => b.version - a.version);
    const next = new Map<string, BlockPatches>();
    const decided = new Set<string>();
    const replacing = new Set<string>();
    for (const p of candidates) {
      const key = `${p.blockId}\0${p.sourceHash}`;
      if (decided.has(key) || this.#quarantined.has(p.id)) continue;
      if (!inRolloutShare(this.#o.instanceId, p.id, p.rollout)) continue;
      if (!this.verify(p)) continue;
      decided.add(key);
      if (this.#grantsReplace(p)) replacing.add(p.id);
      let b = next.get(p.blockId);
      if (!b) next.set(p.blockId, (b = { byHash: new Map(), lastFn: null, lastPatch: undefined }));
      b.byHash.set(p.sourceHash, p);
    }
    const keep = new Set<string>();
    for (const b of next.values()) for (const p of b.byHash.values()) keep.add(p.id);
    this.#release(keep);
    this.#replacing = replacing;
    this.blocks = next;
    this.any = next.size > 0;
  }

  /** Forgets every patch (the client closed). */
  clear(): void {
    this.blocks = new Map();
    this.any = false;
  }

  /** A patch replaces its block only with the operator's signed grant; a `replace` without one runs in fallback mode. */
  #grantsReplace(p: ManifestPatch): boolean {
    if (p.mode !== 'replace') return false;
    const key = `grant\0${p.id}\0${p.version}\0${p.modeSignature ?? ''}`;
    let ok = this.#verified.get(key);
    if (ok === undefined) {
      ok = replaceGranted(p, this.#o.publicKey as NonNullable<ResolvedOptions['publicKey']>);
      this.#verified.set(key, ok);
      if (!ok) this.#events.error(new SdkError('SUTURE_PATCH_SIGNATURE_INVALID', `patch ${p.id} (block ${p.blockId}) says mode 'replace' without a grant that verifies; it runs in fallback mode`, { patchId: p.id }));
    }
    return ok;
  }
}
