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
 * order and a call may receive other messages before its answer. That is the room left for
 * dependency callbacks (a patch calling the app's live `uses` functions): the helper would send a
 * `{ t: 'callback', n, ... }` message through the relay, the app thread (waiting or not) would run
 * the function and answer with `{ t: 'callback-answer', n, ... }`, and only the final
 * `RelayAnswer` of `n` would end the call. None of that is wired yet: today a patch sees copies.
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
  | { t: 'call'; n: number; id: string; source: string; input: string; async: boolean }
  | { t: 'release'; keep: string[] }
  /** The app thread gave up waiting for `n`: the helper is presumed stuck and is replaced. */
  | { t: 'restart' }
  | { t: 'close' };

export type RelayAnswer =
  | { t: 'done'; n: number; ok: true; out: string }
  | { t: 'done'; n: number; ok: false; reason: FailureReason; error: WireError }
  /** The helper could not host an isolate (isolated-vm missing or broken): patches cannot run. */
  | { t: 'unavailable'; message: string }
  /** A helper process started (pid), for the client's debug log. */
  | { t: 'started'; pid: number };

export type HelperRequest =
  | { t: 'call'; n: number; id: string; source?: string; input: string; async: boolean }
  | { t: 'release'; keep: string[] };

export type HelperAnswer =
  | { t: 'ready' }
  | { t: 'unavailable'; message: string }
  | { t: 'done'; n: number; ok: true; out: string }
  | { t: 'done'; n: number; ok: false; reason: FailureReason; error: WireError };

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
