/**
 * Messages between the three parties of a patch helper (see helper-executor.ts):
 *
 *   app thread  ──RelayRequest──▶  relay thread  ──HelperRequest──▶  helper process
 *   app thread  ◀──RelayAnswer──   relay thread  ◀──HelperAnswer──   helper process
 *
 * The app thread and the relay share a MessagePort and a one-word SharedArrayBuffer: after every
 * message it posts, the relay sets the word and wakes the app thread, which may be blocked in
 * `Atomics.wait` on a synchronous patched call. The relay and the helper talk over node's IPC
 * channel (JSON). Values cross as text of the exact snapshot codec.
 *
 * Every request and answer carries `n`, the app thread's call number, so answers may come in any
 * order and a call may receive other messages before its answer.
 *
 * A call with a world (a block with `uses`, see world-host.ts) carries the world as the app
 * encoded it. When the patch calls one of its stand-ins, the helper sends `{ t: 'callback', n, k }`
 * (k: the helper's number for this callback) through the relay; the app thread runs the live
 * function (or takes a live promise's answer) and answers `{ t: 'callback-answer', n, k, out }`;
 * only the `done` answer of `n` ends the call. The relay passes both on and decides nothing.
 */

/** An error as it crosses a process boundary. */
export interface WireError {
  name: string;
  message: string;
  stack: string;
}

/** Why a patched call failed, as PatchRun says it. */
export type FailureReason = 'threw' | 'timeout' | 'memory' | 'compile' | 'unavailable';

/** Limits and paths the relay needs to start helpers. */
export interface RelayData {
  helperPath: string;
  execArgv: string[];
  limits: { cpuMs: number; wallMs: number; memoryMb: number };
}

export type RelayRequest =
  | { t: 'call'; n: number; id: string; source: string; input: string; async: boolean; world?: string }
  | CallbackAnswer
  | { t: 'release'; keep: string[] }
  /** The app thread gave up waiting for `n`: the helper is presumed stuck and is replaced. */
  | { t: 'restart' }
  | { t: 'close' };

/**
 * A patch in the helper called a stand-in of call `n`'s world: `call` a live function at `path`
 * (args: exact codec text), or `await` the answer of the live promise `id` an earlier call gave.
 */
export type Callback =
  | { t: 'callback'; n: number; k: number; op: 'call'; path: string; args: string }
  | { t: 'callback'; n: number; k: number; op: 'await'; id: string };

/** The app's answer to callback `k` of call `n`: WorldHost's text ('R', 'E' or 'P' + …). */
export type CallbackAnswer = { t: 'callback-answer'; n: number; k: number; out: string };

export type RelayAnswer =
  /** `out`: `[result, ...state after]` as exact codec text; for a call with a world, the patch harness's answer text. */
  | { t: 'done'; n: number; ok: true; out: string }
  | { t: 'done'; n: number; ok: false; reason: FailureReason; error: WireError }
  /** The helper could not host an isolate (isolated-vm missing or broken): patches cannot run. */
  | { t: 'unavailable'; message: string }
  /** A helper process started (pid), for the client's debug log. */
  | { t: 'started'; pid: number }
  | Callback;

export type HelperRequest =
  | { t: 'call'; n: number; id: string; source?: string; input: string; async: boolean; world?: string }
  | CallbackAnswer
  | { t: 'release'; keep: string[] };

export type HelperAnswer =
  | { t: 'ready' }
  | { t: 'unavailable'; message: string }
  | { t: 'done'; n: number; ok: true; out: string }
  | { t: 'done'; n: number; ok: false; reason: FailureReason; error: WireError }
  | Callback;

export function toWireError(error: unknown): WireError {
  const text = (read: () => unknown): string => {
    try {
      const v = read();
      return typeof v === 'string' ? v : String(v);
    } catch {
      return '';
    }
  };
  const isObj = error !== null && (typeof error === 'object' || typeof error === 'function');
  const name = isObj ? text(() => (error as Error).name) || 'Error' : 'Error';
  const message = isObj ? text(() => (error as Error).message) : text(() => error);
  return { name, message, stack: (isObj ? text(() => (error as Error).stack) : '') || `${name}: ${message}` };
}

export function fromWireError(e: WireError): Error {
  const error = new Error(e.message);
  error.name = e.name;
  error.stack = e.stack;
  return error;
}
