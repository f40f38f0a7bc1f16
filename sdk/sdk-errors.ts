/**
 * Errors the SDK creates. None of them is ever thrown into the application: they travel in
 * `error` events (see RepairClient), except {@link RepairConfigError}, thrown by
 * `createRepairClient` itself, at start, for options that can't work.
 */

export type SdkErrorCode =
  | 'SUTURE_CONFIG_INVALID'
  | 'SUTURE_ISOLATE_UNAVAILABLE'
  | 'SUTURE_PATCH_SIGNATURE_INVALID'
  | 'SUTURE_PATCH_COMPILE_FAILED'
  | 'SUTURE_PATCH_FAILED'
  | 'SUTURE_MANIFEST_INVALID'
  | 'SUTURE_SYNC_UNAUTHORIZED'
  | 'SUTURE_SYNC_FAILED'
  | 'SUTURE_BACKUP_FAILED'
  | 'SUTURE_DELIVERY_FAILED'
  | 'SUTURE_DELIVERY_REJECTED'
  | 'SUTURE_QUEUE_OVERFLOW'
  | 'SUTURE_LISTENER_FAILED'
  | 'SUTURE_CANNOT_SEE';

/** Every SDK error: a `code` to branch on and, for patch errors, the patch id. */
export class SdkError extends Error {
  readonly code: SdkErrorCode;
  readonly patchId?: string;
  /** SUTURE_CANNOT_SEE: the outside names the block reads that suture cannot see. */
  readonly names?: string[];
  constructor(code: SdkErrorCode, message: string, options?: { cause?: unknown; patchId?: string; names?: string[] }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SdkError';
    this.code = code;
    if (options?.patchId !== undefined) this.patchId = options.patchId;
    if (options?.names !== undefined) this.names = options.names;
  }
}

/** Bad options given to `createRepairClient`; the message names the key. */
export class RepairConfigError extends SdkError {
  readonly key: string;
  constructor(key: string, message: string) {
    super('SUTURE_CONFIG_INVALID', `suture sdk option "${key}": ${message}`);
    this.name = 'RepairConfigError';
    this.key = key;
  }
}
