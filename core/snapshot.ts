/**
 * Snapshot encoding: a lossless JSON encoding of a JS value graph (docs/architecture.md, "Vocabulary").
 *
 * The codec itself lives in `snapshot-codec.js`, a plain script, because the very same text runs
 * inside every isolated-vm sandbox context (where it encodes results under the time limit) and
 * tsx rewrites functions, so `fn.toString()` can't carry it there. This module loads that text,
 * exports it as {@link SNAPSHOT_CODEC_SOURCE}, and builds the host instance from it.
 *
 * | value | encoding |
 * |---|---|
 * | null, booleans, strings, finite numbers except -0, arrays, plain objects | themselves |
 * | undefined | `{"$t":"undefined"}` |
 * | NaN, -0, ±Infinity | `{"$t":"number","v":"NaN" \| "-0" \| "Infinity" \| "-Infinity"}` |
 * | BigInt | `{"$t":"bigint","v":"123"}` |
 * | Date | `{"$t":"date","v":"<ISO>" \| "Invalid"}` |
 * | RegExp | `{"$t":"regexp","source","flags"}` (lastIndex not kept) |
 * | Map / Set | `{"$t":"map","entries":[[k,v]...]}` / `{"$t":"set","values":[...]}` (+`class` for subclasses) |
 * | typed arrays, ArrayBuffer, DataView | `{"$t":"typed","type":"Uint8Array","v":[...]}` (BigInt elements as strings) |
 * | Error | `{"$t":"error","name","message","stack"?,"class"?,"cause"?,"props"?}` |
 * | function | `{"$t":"function","name"}` — decodes to a stand-in of that name that throws a `SnapshotError` (code `SNAPSHOT_STAND_IN`) when called |
 * | symbol | `{"$t":"symbol","description"?}` — decodes to a fresh `Symbol(description)` |
 * | class instance | `{"$t":"object","class":"Player","props":{...}}` — decodes to an instance of a synthetic class with that name (no methods) |
 * | null-prototype object | `{"$t":"object","class":null,"props":{...}}` |
 * | plain object with an own `$t` or `$id` key | `{"$t":"object","props":{...}}` (escaped) |
 * | array hole | `{"$t":"hole"}` as the element |
 * | subclassed / truncated array, array seen twice | `{"$t":"array","class"?,"items":[...],"truncated"?,"$id"?}` |
 * | shared reference / cycle | `"$id": n` on the first occurrence, `{"$t":"ref","id":n}` afterwards |
 * | secret-looking key | value replaced by `{"$t":"redacted"}` |
 * | over a cap | `{"$t":"truncated","reason":"depth" \| "nodes"}`, `{"$t":"truncated","reason":"string","v":prefix,"length"}`, or `"truncated": omittedCount` on the container |
 * | value whose reading threw (throwing getter, revoked proxy) | `{"$t":"unreadable","name","message"}` |
 *
 * Reading: encode reads own enumerable string-keyed properties through their getters (so it
 * sees what the program would see); accessors on prototypes, symbol keys, non-index properties
 * of arrays and private fields are not recorded. Encode never throws.
 * Markers with no JS value (`redacted`, `truncated`, `unreadable`) decode to frozen
 * null-prototype objects that encode back to the same marker, so `encode(decode(e))` equals `e`.
 */
import { readFileSync } from 'node:fs';
import type { Encoded } from './types.ts';

/** Options for {@link encodeSnapshot} (and the codec created from {@link SNAPSHOT_CODEC_SOURCE}). */
export interface SnapshotOptions {
  /**
   * Keys whose values are replaced by `{"$t":"redacted"}`. A string matches when its words
   * (split on camelCase and separators, lowercased) appear consecutively among the key's words,
   * so `'api key'` matches `apiKey`, `X-API-Key` and `api_key_v2` but `'token'` does not match
   * `tokens` or `tokenizer`. A RegExp is tested against the raw key. Replaces the default list;
   * extend it with `[...DEFAULT_REDACT_KEYS, 'ssn']`.
   * @defaultValue {@link DEFAULT_REDACT_KEYS}
   */
  redactKeys?: ReadonlyArray<string | RegExp>;
  /** Deepest container nesting encoded; deeper containers become `{"$t":"truncated","reason":"depth"}`. @defaultValue 64 */
  maxDepth?: number;
  /** Longest string kept whole; longer ones keep a prefix in a truncation marker. @defaultValue 100_000 */
  maxStringLength?: number;
  /** Most entries kept per array, object, Map, Set or typed array; the rest are counted in `truncated`. @defaultValue 10_000 */
  maxEntries?: number;
  /** Most values encoded in one snapshot; later ones become `{"$t":"truncated","reason":"nodes"}`. @defaultValue 200_000 */
  maxNodes?: number;
  /** Deepest JSON nesting accepted by decode and compare (hostile input bound). @defaultValue max(1000, 3 × maxDepth + 10) */
  maxDecodeDepth?: number;
  /**
   * Called with the real value of each entry redacted by key, as encode meets it (a getter runs to
   * read it). What it throws is ignored. For the SDK, which redacts copies of those values found
   * elsewhere in a report (sdk/snapshot-encoder.ts).
   */
  onRedact?: (value: unknown) => void;
}

export interface SnapshotCodec {
  encode(value: unknown): Encoded;
  decode(encoded: Encoded): unknown;
  equal(a: Encoded, b: Encoded): boolean;
  /** JSON text of an encoding, ignoring toJSON hooks. */
  stringify(encoded: Encoded): string;
  isSecretKey(key: string): boolean;
  readonly DEFAULT_REDACT_KEYS: readonly string[];
  readonly limits: Readonly<Required<Omit<SnapshotOptions, 'redactKeys' | 'onRedact'>>>;
}

/** Thrown by {@link decodeSnapshot} for encodings it refuses; `code` says why. */
export interface SnapshotError extends Error {
  name: 'SnapshotError';
  code: 'SNAPSHOT_TOO_DEEP' | 'SNAPSHOT_BAD_REF' | 'SNAPSHOT_BAD_NODE' | 'SNAPSHOT_BAD_TAG' | 'SNAPSHOT_STAND_IN';
}

/** Text of `snapshot-codec.js`: a script defining `createSnapshotCodec(options)`. */
export const SNAPSHOT_CODEC_SOURCE: string = readFileSync(new URL('./snapshot-codec.js', import.meta.url), 'utf8');

type CreateSnapshotCodec = (options?: SnapshotOptions) => SnapshotCodec;

/** Builds a codec from the script text, exactly as the sandbox does. */
export const createSnapshotCodec: CreateSnapshotCodec = new Function(
  `${SNAPSHOT_CODEC_SOURCE}\nreturn createSnapshotCodec;`,
)() as CreateSnapshotCodec;

const defaultCodec = createSnapshotCodec();

/** Default secret key patterns (see {@link SnapshotOptions.redactKeys}). */
export const DEFAULT_REDACT_KEYS: readonly string[] = defaultCodec.DEFAULT_REDACT_KEYS;

/** Encode a value; never throws. Without options uses the defaults shared with the sandbox. */
export function encodeSnapshot(value: unknown, options?: SnapshotOptions): Encoded {
  return (options ? createSnapshotCodec(options) : defaultCodec).encode(value);
}

/**
 * Decode an encoding into a fresh value graph. Throws a {@link SnapshotError} for malformed or
 * hostile encodings (unknown tags, dangling refs, nesting over the bound). Keys such as
 * `__proto__` become own properties; they never change a prototype.
 */
export function decodeSnapshot(encoded: Encoded): unknown {
  return defaultCodec.decode(encoded);
}

/**
 * Structural equality of two encodings: object key order ignored, arrays ordered, numbers by
 * `Object.is` (NaN equals NaN, -0 differs from 0), shared references compared by graph shape
 * (ids may be numbered differently), and the `stack` of errors ignored.
 */
export function snapshotEqual(a: Encoded, b: Encoded): boolean {
  return defaultCodec.equal(a, b);
}

/**
 * What `encode(decode(expected))` gives: the expectation passed through the same redaction and
 * caps as a freshly encoded actual value, so the two can be compared. Falls back to the input
 * when it doesn't decode.
 */
export function normaliseSnapshot(encoded: Encoded, options?: SnapshotOptions): Encoded {
  const codec = options ? createSnapshotCodec(options) : defaultCodec;
  try {
    return codec.encode(codec.decode(encoded));
  } catch {
    return encoded;
  }
}

/** JSON text of an encoding (ignores toJSON hooks). */
export function stringifySnapshot(encoded: Encoded): string {
  return defaultCodec.stringify(encoded);
}
