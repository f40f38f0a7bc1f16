import type { PatchRun } from './patch-executor.ts';
import { StateWriteBack } from './state-write-back.ts';

/**
 * A patch's answer as it came back decoded, `[result, ...stateAfter]` (state of `[this, ...args]`),
 * applied to the caller's `target`: the state written back onto the caller's objects, the result
 * resolved to them where it refers to them. Never throws into the app: a write-back that fails (a
 * frozen or exotic caller object) is a failed patch run.
 */
export function applyPatchAnswer(target: unknown[], decoded: unknown[]): PatchRun {
  try {
    const writeBack = new StateWriteBack();
    writeBack.applyArgs(target, decoded.slice(1));
    return { ok: true, value: writeBack.resolve(decoded[0]) };
  } catch (error) {
    return { ok: false, error, reason: 'threw' };
  }
}
