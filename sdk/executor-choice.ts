import type { ClientEvents } from './client-events.ts';
import type { ResolvedOptions } from './client-options.ts';
import { HelperExecutor, processHostsIsolates } from './helper-executor.ts';
import { IsolateExecutor, loadIsolatedVm } from './isolate-executor.ts';
import type { PatchExecutor } from './patch-executor.ts';
import { SdkError } from './sdk-errors.ts';
import type { SnapshotEncoder } from './snapshot-encoder.ts';
import { TrustedExecutor } from './trusted-executor.ts';

/**
 * Where this client's patches run. `trusted`: compiled in this process. `isolate`: an isolate in
 * this process when node was started with `--no-node-snapshot`; otherwise an isolate in a helper
 * process the SDK starts (see helper-executor.ts). Null when isolated-vm cannot be loaded here
 * (an error event says why; failures are still reported).
 */
export function choosePatchExecutor(o: ResolvedOptions, encoder: SnapshotEncoder, events: ClientEvents, debug: (line: string) => void = () => undefined): PatchExecutor | null {
  if (o.execution === 'trusted') {
    debug('patches run in this process (execution: trusted)');
    return new TrustedExecutor();
  }
  if (!processHostsIsolates()) {
    debug('node runs without --no-node-snapshot: patches run in an isolate in a helper process');
    return new HelperExecutor(o.limits, encoder, {
      unavailable: (message) => events.error(new SdkError('SUTURE_ISOLATE_UNAVAILABLE', `${message}; patches will not run`)),
      started: (pid) => debug(`patch helper process started (pid ${pid})`),
    });
  }
  const loaded = loadIsolatedVm();
  if ('ivm' in loaded) {
    debug('patches run in an isolate in this process');
    return new IsolateExecutor(loaded.ivm, o.limits, encoder);
  }
  events.error(new SdkError('SUTURE_ISOLATE_UNAVAILABLE', loaded.error));
  return null;
}
