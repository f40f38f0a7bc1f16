/**
 * Exponential backoff with full jitter, capped: attempt n waits a random time in
 * [delay/2, delay] where delay = min(max, base × 2^n). Jitter keeps a fleet that lost the daemon
 * at the same moment from coming back in lockstep.
 */
export class CappedBackoff {
  #attempt = 0;
  constructor(
    readonly base: number,
    readonly max: number,
  ) {}

  get attempt(): number {
    return this.#attempt;
  }

  /** Delay before the next retry; advances the attempt counter. */
  next(): number {
    const delay = Math.min(this.max, this.base * 2 ** Math.min(this.#attempt, 30));
    this.#attempt++;
    return delay / 2 + Math.random() * (delay / 2);
  }

  reset(): void {
    this.#attempt = 0;
  }
}
