/**
 * Errors the SDK creates. None of them is ever thrown into the application: they travel in
 * `error` events (see RepairClient), except {@link RepairConfigError}, thrown by
 * `createRepairClient` itself, at start, for options that can't work.
 */

export type SdkErrorCode =
  | 'CONFIG_INVALID'
  | 'ISOLATE_UNAVAILABLE'
  | 'PATCH_SIGNATURE_INVALID'
  | 'PATCH_COMPILE_FAILED'
  | 'PATCH_FAILED'
  | 'MANIFEST_INVALID'
  | 'SYNC_UNAUTHORIZED'
  | 'SYNC_FAILED'
  | 'BACKUP_FAILED'
  | 'DELIVERY_FAILED'
  | 'DELIVERY_REJECTED'
  | 'QUEUE_OVERFLOW'
  | 'LISTENER_FAILED';

/** Every SDK error: a `code` to branch on and, for patch errors, the patch id. */
export class SdkError extends Error {
  readonly code: SdkErrorCode;
  readonly patchId?: string;
  constructor(code: SdkErrorCode, message: string, options?: { cause?: unknown; patchId?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SdkError';
    this.code = code;
    if (options?.patchId !== undefined) this.patchId = options.patchId;
  }
}

/** Bad options given to `createRepairClient`; the message names the key. */
export class RepairConfigError extends SdkError {
  readonly key: string;
  constructor(key: string, message: string) {
    super('CONFIG_INVALID', `suture sdk option "${key}": ${message}`);
    this.name = 'RepairConfigError';
    this.key = key;
  }
}
