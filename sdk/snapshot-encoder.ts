import { createSnapshotCodec, type SnapshotCodec, type SnapshotOptions } from '../core/snapshot.ts';
import { redactSecrets } from '../core/secret-redaction.ts';
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

/**
 * Key-name redaction misses a JWT under `note` or a bearer token under `header`: every string
 * value (and object key) that leaves the process also goes through the credential-shape patterns.
 * Encoded snapshots are fresh trees of plain JSON, so they are rewritten in place.
 */
function redactValues(node: Encoded): Encoded {
  if (typeof node === 'string') return redactSecrets(node) as Encoded;
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) node[i] = redactValues(node[i] as Encoded);
    return node;
  }
  const obj = node as Record<string, Encoded>;
  for (const key of Object.keys(obj)) {
    const value = redactValues(obj[key]);
    const safeKey = redactSecrets(key);
    if (safeKey !== key) {
      delete obj[key];
      Object.defineProperty(obj, safeKey, { value, enumerable: true, writable: true, configurable: true });
    } else obj[key] = value;
  }
  return obj;
}

export function createSnapshotEncoder(redactKeys: ReadonlyArray<string | RegExp> | undefined): SnapshotEncoder {
  const redacting = createSnapshotCodec(redactKeys ? { redactKeys } : undefined);
  const exact = createSnapshotCodec(EXACT_CODEC_OPTIONS);
  return {
    encodeEach: (values) => withoutStacks(() => values.map((v) => redactValues(redacting.encode(v)))),
    encode: (value) => withoutStacks(() => redactValues(redacting.encode(value))),
    exact: {
      ...exact,
      encode: (value: unknown) => withoutStacks(() => exact.encode(value)),
    },
  };
}
