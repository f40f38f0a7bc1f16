import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

/** A change announced on the Redis channel by whichever daemon or worker made it. */
export type ServiceEvent =
  | { type: 'patch'; app: string; fingerprint: string; patchId: string; status: string; revision: number }
  | { type: 'patch-status'; app: string; patchId: string; status: string; rollout: number; revision: number }
  | { type: 'patch-mode'; app: string; patchId: string; mode: string; revision: number }
  /** A bug's status changed (a worker started, ended without a patch, or failed); no manifest revision. */
  | { type: 'bug-status'; app: string; fingerprint: string; status: string };

/**
 * Fans the Redis pub/sub channel out to local listeners (SSE streams, long polls), so a change
 * made through one daemon or by a worker reaches clients held by every daemon. One subscriber
 * connection per daemon; ioredis re-subscribes after reconnecting.
 */
export class EventBus extends EventEmitter<{ event: [ServiceEvent] }> {
  readonly #subscriber: Redis;
  readonly #channel: string;

  constructor(subscriber: Redis, channel: string) {
    super();
    this.setMaxListeners(0);
    this.#subscriber = subscriber;
    this.#channel = channel;
    subscriber.on('message', (ch: string, message: string) => {
      if (ch !== channel) return;
      try {
        this.emit('event', JSON.parse(message) as ServiceEvent);
      } catch {
        // A malformed message from another process must not take this one down.
      }
    });
  }

  async start(): Promise<void> {
    await this.#subscriber.subscribe(this.#channel);
  }

  /** Resolves with the first event that matches, or undefined after `ms` or when `signal` aborts. */
  waitFor(match: (e: ServiceEvent) => boolean, ms: number, signal?: AbortSignal): Promise<ServiceEvent | undefined> {
    return new Promise((resolve) => {
      const done = (e?: ServiceEvent) => {
        clearTimeout(timer);
        this.off('event', onEvent);
        signal?.removeEventListener('abort', onAbort);
        resolve(e);
      };
      const onEvent = (e: ServiceEvent) => {
        if (match(e)) done(e);
      };
      const onAbort = () => done();
      const timer = setTimeout(done, ms);
      this.on('event', onEvent);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
