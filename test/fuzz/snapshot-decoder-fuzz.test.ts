import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeSnapshot, encodeSnapshot } from '../../core/snapshot.ts';
import type { Encoded } from '../../core/types.ts';

/**
 * The snapshot decoder reads what SDKs send: for any JSON it returns a value or throws a
 * SnapshotError, never another error, never changes a prototype; and anything encoded decodes.
 */
const tag = fc.constantFrom('undefined', 'nan', 'inf', '-inf', '-0', 'bigint', 'date', 'regexp', 'map', 'set', 'typed', 'error', 'ref', 'fn', 'symbol', 'truncated', 'redacted', 'object', 'bogus', '__proto__');
const encodedLike = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 2 }),
    fc.record({ $t: tag, id: fc.oneof(fc.integer(), fc.string()), v: tie('node'), entries: fc.oneof(fc.array(tie('node'), { maxLength: 3 }), fc.integer()), values: fc.array(tie('node'), { maxLength: 3 }) }, { requiredKeys: ['$t'] }),
    fc.record({ $id: fc.integer({ min: -1, max: 5 }), a: tie('node'), __proto__: tie('node') }),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'prototype', '$t', '$id', 'a', 'b'), tie('node'), { maxKeys: 4 }),
  ),
})).node;

describe('snapshot decoder under fuzzing', () => {
  it('returns or throws SnapshotError for any JSON, and never pollutes a prototype', () => {
    const protoKeys = Reflect.ownKeys(Object.prototype).length;
    let refused = 0;
    fc.assert(
      fc.property(encodedLike, (input) => {
        const wire = JSON.parse(JSON.stringify(input)) as Encoded; // as it arrives over HTTP
        try {
          decodeSnapshot(wire);
        } catch (error) {
          refused++;
          if ((error as Error).name !== 'SnapshotError') throw new Error(`decoder threw ${(error as Error).name}: ${(error as Error).message}`);
        }
        return Reflect.ownKeys(Object.prototype).length === protoKeys && ({} as Record<string, unknown>).a === undefined;
      }),
      { numRuns: 3000, seed: 6 },
    );
    assert.ok(refused > 0, 'some fuzzed input is refused');
  });

  it('decodes whatever it encoded', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true, withNullPrototype: true, withObjectString: true, withBoxedValues: true }), (v) => {
        decodeSnapshot(JSON.parse(JSON.stringify(encodeSnapshot(v))) as Encoded);
      }),
      { numRuns: 1000, seed: 6 },
    );
  });
});
