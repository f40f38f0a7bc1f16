import { EventEmitter } from 'node:events';
import type { SdkError } from './sdk-errors.ts';

export interface PatchedEvent {
  blockId: string;
  patchId: string;
  version: number;
  /** `manifest`: first patched call of this patch in this process; `wait`: a failing call rescued by `waitForFix`. */
  via: 'manifest' | 'wait';
}

export interface FailureEvent {
  blockId: string;
  requestId: string;
  /** The block's (or patch's) own error, as thrown. */
  error: unknown;
  /** Set when the failing code was a patch. */
  patchId?: string;
}

export interface ShadowEvent {
  blockId: string;
  patchId: string;
  version: number;
  /** The patch's answer and argument effects equalled the block's on a call the block answered. */
  agreed: boolean;
}

/** A shadow run of a block with `uses` that could not be compared (replay only: see shadow-runs.ts); not counted. */
export interface ShadowInconclusiveEvent {
  blockId: string;
  patchId: string;
  version: number;
  reason: string;
}

export interface SyncEvent {
  revision: number;
  changed: boolean;
  via: 'poll' | 'stream' | 'backup';
  /** Blocks with a patch this instance runs, after the sync. */
  patchedBlocks: number;
}

export interface RepairClientEvents {
  patched: [PatchedEvent];
  failure: [FailureEvent];
  shadow: [ShadowEvent];
  shadowInconclusive: [ShadowInconclusiveEvent];
  sync: [SyncEvent];
  error: [SdkError];
}

/**
 * The client's events. Never throws into the block's caller: a listener that throws is ignored,
 * and an `error` with no listener never becomes an unhandled 'error' throw: each distinct one is
 * written once to stderr instead.
 * Events raised while the client is being constructed wait a tick, so listeners attached right
 * after creation hear them.
 */
export class ClientEvents {
  readonly emitter = new EventEmitter<RepairClientEvents>();
  #constructing = true;
  readonly #written = new Set<string>();

  /** The client's constructor has returned: events go out at once from now on. */
  constructed(): void {
    this.#constructing = false;
  }

  emit<E extends keyof RepairClientEvents>(event: E, ...args: RepairClientEvents[E]): void {
    if (this.#constructing) {
      process.nextTick(() => this.emit(event, ...args));
      return;
    }
    if (event === 'error' && this.emitter.listenerCount('error') === 0) {
      this.#unheard(args[0] as SdkError);
      return;
    }
    try {
      (this.emitter.emit as (e: string, ...a: unknown[]) => boolean).call(this.emitter, event, ...args);
    } catch {
      // A listener threw; it must not reach the block's caller.
    }
  }

  /** An `error` nobody listens to: each distinct one (code and message) is written once to stderr. */
  #unheard(err: SdkError): void {
    const key = `${err.code}: ${err.message}`;
    if (this.#written.has(key) || this.#written.size >= 200) return;
    this.#written.add(key);
    try {
      process.stderr.write(`suture: ${key}\n`);
    } catch {
      /* no stderr: nothing to tell */
    }
  }

  error(err: SdkError): void {
    this.emit('error', err);
  }
}
