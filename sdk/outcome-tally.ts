import type { OutcomeReport, ShadowDisagreement } from '../core/wire.ts';

type Outcome = OutcomeReport['outcomes'][number];
type Counts = { passed?: number; threw?: number; agreed?: number; disagreed?: number };

/**
 * Outcome counts per patch since the last report: patched calls that passed or threw, shadow runs
 * that agreed or disagreed, and a few disagreeing calls. Taken whole for a send, and merged back
 * when the send fails so the next one carries them.
 */
export class OutcomeTally {
  #byPatch = new Map<string, Outcome>();

  get size(): number {
    return this.#byPatch.size;
  }

  add(patchId: string, counts: Counts, disagreement?: ShadowDisagreement): void {
    let o = this.#byPatch.get(patchId);
    if (!o) this.#byPatch.set(patchId, (o = { patchId, passed: 0, threw: 0 }));
    o.passed += counts.passed ?? 0;
    o.threw += counts.threw ?? 0;
    if (counts.agreed) o.agreed = (o.agreed ?? 0) + counts.agreed;
    if (counts.disagreed) o.disagreed = (o.disagreed ?? 0) + counts.disagreed;
    if (disagreement) (o.disagreements ??= []).push(disagreement);
  }

  /** Everything counted so far, as report entries; the tally starts again from zero. */
  take(): Outcome[] {
    const taken = [...this.#byPatch.values()];
    this.#byPatch = new Map();
    return taken;
  }

  /** Puts entries of a failed send back. */
  restore(entries: readonly Outcome[]): void {
    for (const e of entries) {
      for (const d of e.disagreements ?? []) this.add(e.patchId, {}, d);
      this.add(e.patchId, e);
    }
  }
}
