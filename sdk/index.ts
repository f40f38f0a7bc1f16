/**
 * suture's SDK: the only part an application imports. See the README section "The SDK".
 *
 * ```ts
 * import { createRepairClient } from '@suture/sdk';
 * const repair = createRepairClient({ url, app: 'game', token, publicKey });
 * const damage = await repair.run('player-damage-calc', 'Calculate damage…', (player, enemy) => { ... }, player, enemy);
 * ```
 */
export { createRepairClient, RepairClient } from './repair-client.ts';
export type { RunResult, BlockOptions, PatchedEvent, FailureEvent, ShadowEvent, ShadowInconclusiveEvent, SyncEvent, RepairClientEvents, RepairClientStats } from './repair-client.ts';
export { createPauseAdapter } from './pause-adapter.ts';
export type { PauseAdapter } from './pause-adapter.ts';
export type { RepairClientOptions, PatchLimits, RedactHook } from './client-options.ts';
export { SdkError, RepairConfigError } from './sdk-errors.ts';
export type { SdkErrorCode } from './sdk-errors.ts';
export { rolloutPosition, inRolloutShare } from './rollout-share.ts';
export { sourceHash } from '../core/source-hash.ts';
