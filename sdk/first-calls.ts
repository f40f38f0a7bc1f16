import { createHmac, randomBytes } from 'node:crypto';
import type { Encoded } from '../core/types.ts';

/** A block always called with the same few inputs stops costing an encode per call after this many. */
const MAX_TRIES = 100;

/**
 * Known-good recording: the first few distinct successful calls of every block are recorded
 * whatever the sample rate, so the first failure of a block reaches a repair job that has calls
 * to keep working (at a 1 % sample rate a rarely called block would otherwise have none).
 * Once a block is done its check is one string comparison (the last block seen) or one Set lookup.
 *
 * Distinct by the real inputs, not by what is sent: two calls that differ only in a redacted
 * value (`authorization: 'Basic …'` and `'Bearer …'`) look the same once redacted, yet the block
 * may answer them differently, and both are worth recording. The inputs are told apart by an
 * HMAC of their exact (unredacted) encoding under a key drawn per client and kept in memory only:
 * the digests never leave the process, and without the key they could not be matched against
 * guessed secrets anyway. The price: calls differing only in a secret (one per user token) each
 * take one of the block's first-call places.
 */
export class FirstCalls {
  readonly #first: number;
  readonly #key = randomBytes(32);
  readonly #open = new Map<string, { keys: Set<string>; tries: number }>();
  readonly #done = new Set<string>();
  #lastDone: string | null = null;

  constructor(first: number) {
    this.#first = first;
  }

  /** Whether a successful call of this block may still be a first call (then its inputs are copied and encoded). */
  wants(blockId: string): boolean {
    if (this.#first === 0 || blockId === this.#lastDone) return false;
    if (this.#done.has(blockId)) {
      this.#lastDone = blockId;
      return false;
    }
    return true;
  }

  /**
   * Counts a successful call with these inputs, encoded without redaction (the exact codec); true
   * when they are new for the block (record it).
   */
  admit(blockId: string, exactArgs: Encoded[]): boolean {
    let b = this.#open.get(blockId);
    if (!b) this.#open.set(blockId, (b = { keys: new Set(), tries: 0 }));
    const key = createHmac('sha256', this.#key).update(JSON.stringify(exactArgs)).digest('base64');
    const fresh = !b.keys.has(key);
    if (fresh) b.keys.add(key);
    if (b.keys.size >= this.#first || ++b.tries >= MAX_TRIES) {
      this.#open.delete(blockId);
      this.#done.add(blockId);
    }
    return fresh;
  }
}
