import { createHash } from 'node:crypto';
import type { Encoded } from '../core/types.ts';

/** A block always called with the same few inputs stops costing an encode per call after this many. */
const MAX_TRIES = 100;

/**
 * Known-good recording: the first few distinct successful calls of every block are recorded
 * whatever the sample rate, so the first failure of a block reaches a repair job that has calls
 * to keep working (at a 1 % sample rate a rarely called block would otherwise have none).
 * Distinct by encoded inputs. Once a block is done its check is one string comparison (the last
 * block seen) or one Set lookup.
 */
export class FirstCalls {
  readonly #first: number;
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

  /** Counts a successful call with these encoded inputs; true when they are new for the block (record it). */
  admit(blockId: string, args: Encoded[]): boolean {
    let b = this.#open.get(blockId);
    if (!b) this.#open.set(blockId, (b = { keys: new Set(), tries: 0 }));
    const key = createHash('sha256').update(JSON.stringify(args)).digest('base64');
    const fresh = !b.keys.has(key);
    if (fresh) b.keys.add(key);
    if (b.keys.size >= this.#first || ++b.tries >= MAX_TRIES) {
      this.#open.delete(blockId);
      this.#done.add(blockId);
    }
    return fresh;
  }
}
