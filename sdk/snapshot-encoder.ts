import { createSnapshotCodec, type SnapshotCodec, type SnapshotOptions } from '../core/snapshot.ts';
import type { Encoded } from '../core/types.ts';

/**
 * The SDK's two uses of the snapshot codec:
 * - `redacting`: what leaves the process (failure reports, recorded calls): secrets redacted,
 *   sizes capped with the codec's defaults.
 * - `exact`: what crosses into the patch isolate and back: nothing redacted and caps far above
 *   any real argument, because the patch must see the real values and its effects are written
 *   back onto the caller's objects. It never leaves the process.
 */
export interface SnapshotEncoder {
  encodeEach(values: readonly unknown[]): Encoded[];
  encode(value: unknown): Encoded;
  readonly exact: SnapshotCodec;
}

/**
 * Brand checks inside the codec throw and catch for every object; with stack capture off those
 * exceptions cost a fraction, and nothing in an encode needs a stack.
 */
function withoutStacks<T>(f: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return f();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export const EXACT_CODEC_OPTIONS: SnapshotOptions = {
  redactKeys: [],
  maxDepth: 1000,
  maxEntries: 10_000_000,
  maxNodes: 50_000_000,
  maxStringLength: 1_000_000_000,
};

export function createSnapshotEncoder(redactKeys: ReadonlyArray<string | RegExp> | undefined): SnapshotEncoder {
  const redacting = createSnapshotCodec(redactKeys ? { redactKeys } : undefined);
  const exact = createSnapshotCodec(EXACT_CODEC_OPTIONS);
  return {
    encodeEach: (values) => withoutStacks(() => values.map((v) => redacting.encode(v))),
    encode: (value) => withoutStacks(() => redacting.encode(value)),
    exact: {
      ...exact,
      encode: (value: unknown) => withoutStacks(() => exact.encode(value)),
    },
  };
}
