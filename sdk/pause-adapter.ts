import type { BlockOptions } from './block-world.ts';
import type { RepairClient, RunResult } from './repair-client.ts';

/**
 * For code written against the Pause Framework: `pause.run(id, description, fn, scope, ...args)`
 * calls `fn` with `scope` as `this`. A block that reads outside names takes the options form,
 * `pause.run({ id, description, uses: { getPlayerCoordinates, self, moveRight } }, fn, scope, ...args)`
 * (see {@link BlockOptions}; `scope`, when given, is the receiver). What differs from that library:
 * - the call goes through suture's `run`: a failure is reported to the daemon, and a published,
 *   signature-verified patch replaces `fn` (in an isolate by default, with `scope` copied in and its
 *   state applied back like the arguments');
 * - pausing is bounded: the failing call waits at most the client's `waitForFix` ms for its patch,
 *   then rethrows the block's own error (0 = rethrow at once); it never pauses indefinitely;
 * - the result is the block's own (a promise for async blocks, and a promise when a sync block
 *   failed and waited), so `await` the call.
 */
export interface PauseAdapter {
  run<A extends unknown[], R>(id: string, description: string, fn: (...args: A) => R, scope: unknown, ...args: A): RunResult<R>;
  run<A extends unknown[], R>(block: BlockOptions, fn: (...args: A) => R, scope?: unknown, ...args: A): RunResult<R>;
}

export function createPauseAdapter(repair: RepairClient): PauseAdapter {
  function run(id: string | BlockOptions, ...rest: unknown[]): unknown {
    if (typeof id === 'string') {
      const [description, fn, scope, ...args] = rest;
      return repair.runWithThis(id, description as string, fn as (...a: unknown[]) => unknown, scope ?? undefined, args);
    }
    const [fn, scope, ...args] = rest;
    const block = scope === undefined || scope === null ? id : { ...id, receiver: scope };
    return repair.run(block, fn as (...a: unknown[]) => unknown, ...args);
  }
  return { run } as PauseAdapter;
}
