/**
 * Entry point of a sandbox host process, forked by SandboxPool. Runs one request at a time in
 * its TrialRunner and streams results back. Anything that kills this process (a V8 fatal
 * out-of-memory abort, a segfault, kill -9) costs the pool one host, never the worker.
 */
import type { SandboxLimits, TrialRequest } from '../../core/types.ts';
import type { FromHostMessage, ToHostMessage } from './sandbox-protocol.ts';
import { DEFAULT_LIMITS } from './trial-limits.ts';
import { TrialRunner } from './trial-runner.ts';

const runner = new TrialRunner();
runner.warm(Number(process.argv[2]) || DEFAULT_LIMITS.memoryMb);

function send(message: FromHostMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

/**
 * The pool may send the next request while one runs (so no round trip separates them); they run
 * strictly one after another, in the order sent.
 */
let queue: Promise<void> = Promise.resolve();

function runOne(id: number, request: TrialRequest, limits: SandboxLimits): Promise<void> {
  return runner
    .run(request, limits, (result) => void send({ type: 'result', id, result }))
    .then(
      (report) => void send({ type: 'done', id, report }),
      async (error: unknown) => {
        // Our own failure, not the candidate's: report it and leave, the pool starts a clean host.
        await send({ type: 'failed', id, message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
        process.exit(71);
      },
    );
}

process.on('message', (message: ToHostMessage) => {
  if (message.type === 'exit') {
    runner.dispose();
    process.exit(0);
  }
  if (message.type === 'run') {
    const { id, request, limits } = message;
    queue = queue.then(() => runOne(id, request, limits));
  }
});

// The parent went away: nobody will ever ask us anything again.
process.on('disconnect', () => process.exit(0));

void send({ type: 'ready' });
