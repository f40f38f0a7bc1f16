/**
 * The isolate clean-up rules that every owner of an isolated-vm isolate follows (the SDK's patch
 * executor and the sandbox's trial runner): when an isolate is lost or must be retired, when a
 * new one is started, and how scripts and References are released. Code inside the isolate is
 * untrusted and can throw any message it likes, so a failure counts as a memory blow-up only
 * when the isolate itself was disposed; isolated-vm disposes an isolate that hits its memory limit.
 *
 * Types only from isolated-vm: core loads no native module.
 */
import type ivm from 'isolated-vm';

/** isolated-vm's message for code stopped by the `timeout` of a call. */
export const ISOLATE_TIMED_OUT = 'Script execution timed out.';

/**
 * What a failed call into an isolate means for the isolate: `memory` (disposed by its memory
 * limit) and `disposed` (gone for another reason) mean it is lost; `timeout` means code stopped
 * by the time limit may have left work queued in it (a flood of promise reactions, a heap near
 * its limit), so it must be retired before other code runs there; `threw` is the code's own error.
 */
export type IsolateFailure = 'memory' | 'disposed' | 'timeout' | 'threw';

export function errorMessage(error: unknown): string {
  try {
    return error instanceof Error ? String(error.message) : String(error);
  } catch {
    return '';
  }
}

export function classifyIsolateFailure(isolate: ivm.Isolate | null, error: unknown): IsolateFailure {
  const message = errorMessage(error);
  if (isolate === null || isolate.isDisposed) return /memory limit/i.test(message) ? 'memory' : 'disposed';
  return message === ISOLATE_TIMED_OUT ? 'timeout' : 'threw';
}

/** A heap over half the limit would make the next code pay for a full collection inside its own time limit. */
export function heapOverHalf(usedHeapSize: number, memoryMb: number): boolean {
  return usedHeapSize > (memoryMb * 1024 * 1024) / 2;
}

/** Releases handles (Scripts, References) held on an isolate; one already gone is skipped. */
export function releaseAll(handles: Iterable<{ release(): void }>): void {
  for (const h of handles) {
    try {
      h.release();
    } catch {
      /* its isolate is already gone */
    }
  }
}

/** Compiles and runs set-up scripts in `context`, each bounded by `timeoutMs`; every Script is released after it ran. */
export function runScripts(isolate: ivm.Isolate, context: ivm.Context, scripts: ReadonlyArray<{ code: string; filename: string }>, timeoutMs: number): void {
  for (const s of scripts) {
    const script = isolate.compileScriptSync(s.code, { filename: s.filename });
    try {
      script.runSync(context, { timeout: timeoutMs });
    } finally {
      script.release();
    }
  }
}

/** Calls the context's global function `name` once, with no arguments, bounded by `timeoutMs`; its Reference is released after. */
export function callGlobalOnce(context: ivm.Context, name: string, timeoutMs: number): void {
  const ref = context.global.getSync(name, { reference: true }) as ivm.Reference<() => unknown>;
  try {
    ref.applySync(undefined, [], { timeout: timeoutMs });
  } finally {
    ref.release();
  }
}

/** What an owner builds in a new isolate: the handles it holds there are released when the isolate goes. */
export interface IsolateRealm {
  readonly handles: ReadonlyArray<{ release(): void }>;
}

/**
 * One isolate and the realm built in it. A new isolate is started when there is none, when the
 * current one was disposed, or when a different memory limit is asked for; dropping the isolate
 * releases the realm's handles, then disposes it. A realm whose building throws takes its isolate
 * with it.
 */
export class IsolateSlot<R extends IsolateRealm> {
  readonly #create: (memoryMb: number) => ivm.Isolate;
  readonly #build: (isolate: ivm.Isolate) => R;
  #isolate: ivm.Isolate | null = null;
  #realm: R | null = null;
  #memoryMb = 0;
  /** Isolates started so far. */
  created = 0;

  constructor(create: (memoryMb: number) => ivm.Isolate, build: (isolate: ivm.Isolate) => R) {
    this.#create = create;
    this.#build = build;
  }

  get isolate(): ivm.Isolate | null {
    return this.#isolate;
  }

  get memoryMb(): number {
    return this.#memoryMb;
  }

  /** The realm of the live isolate, if there is one (never starts an isolate). */
  get current(): R | null {
    return this.#isolate !== null && !this.#isolate.isDisposed ? this.#realm : null;
  }

  /** The current realm, or a new isolate and realm when the rules above call for one. */
  realm(memoryMb: number): R {
    if (this.#isolate !== null && this.#realm !== null && !this.#isolate.isDisposed && this.#memoryMb === memoryMb) return this.#realm;
    this.drop();
    const isolate = this.#create(memoryMb);
    this.#isolate = isolate;
    this.#memoryMb = memoryMb;
    this.created++;
    try {
      this.#realm = this.#build(isolate);
    } catch (error) {
      this.drop();
      throw error;
    }
    return this.#realm;
  }

  /** Classifies a failed call; a lost isolate (`memory`, `disposed`) is dropped at once. */
  failed(error: unknown): IsolateFailure {
    const failure = classifyIsolateFailure(this.#isolate, error);
    if (failure === 'memory' || failure === 'disposed') this.drop();
    return failure;
  }

  /** Drops the isolate when its heap is over half the limit (or its statistics cannot be read). */
  dropIfHeapFullSync(): void {
    const isolate = this.#isolate;
    if (isolate === null || isolate.isDisposed) return;
    try {
      if (heapOverHalf(isolate.getHeapStatisticsSync().used_heap_size, this.#memoryMb)) this.drop();
    } catch {
      this.drop();
    }
  }

  /**
   * {@link dropIfHeapFullSync} through an asynchronous call, which also lets the isolate run V8's
   * own pending tasks (incremental GC); with only synchronous calls they never run and the heap fills.
   */
  async dropIfHeapFull(): Promise<void> {
    const isolate = this.#isolate;
    if (isolate === null || isolate.isDisposed) return;
    let over: boolean;
    try {
      over = heapOverHalf((await isolate.getHeapStatistics()).used_heap_size, this.#memoryMb);
    } catch {
      over = true;
    }
    if (over && this.#isolate === isolate) this.drop();
  }

  /** Releases the realm's handles and disposes the isolate; the next {@link realm} starts a new one. */
  drop(): void {
    const isolate = this.#isolate;
    const realm = this.#realm;
    this.#isolate = null;
    this.#realm = null;
    if (isolate === null || isolate.isDisposed) return;
    if (realm !== null) releaseAll(realm.handles);
    try {
      isolate.dispose();
    } catch {
      /* already going away */
    }
  }
}
