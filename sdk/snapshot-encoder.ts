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
  /** The encoder of one report (a failure, a recorded call, a shadow disagreement): see {@link ReportEncoder}. */
  report(): ReportEncoder;
}

/**
 * Key-name redaction hides `headers.authorization`, but not the same token returned by the block,
 * copied into another field, passed to a dependency or thrown in an error message. A report
 * encoder remembers every value it redacted by key (strings, and the strings inside a redacted
 * object) and, once all of a report's parts are encoded, its `redact*` methods redact those values
 * wherever else they appear in the report:
 * - a string (or number) equal to one becomes `{"$t":"redacted"}` like the original;
 * - a string containing one has it replaced by `[REDACTED]` (`'Bearer abc.def.ghi'` in a log line);
 * - a redacted string's whitespace-, comma-, semicolon-, `=`- or `&`-separated parts count on
 *   their own, so the token a block cut out of `'Bearer abc.def.ghi'` is caught too.
 * Only values of at least {@link MIN_SECRET_LENGTH} characters count: shorter ones (`''`, `'en'`,
 * a 5-character token) would redact ordinary data. At most {@link MAX_SECRETS} values per report.
 */
export interface ReportEncoder {
  encode(value: unknown): Encoded;
  encodeEach(values: readonly unknown[]): Encoded[];
  /** An encoding of this report with the values redacted elsewhere redacted (in place; a root string is replaced). */
  redact(node: Encoded): Encoded;
  redactEach(nodes: Encoded[]): Encoded[];
  /** Text of this report (an error message, a stack): redacted values replaced by `[REDACTED]`. */
  redactText(text: string): string;
}

export const MIN_SECRET_LENGTH = 8;
export const MAX_SECRETS = 4096;
/** Values walked inside one redacted object for its strings. */
const MAX_SECRET_WALK = 2000;
const REDACTED_TEXT = '[REDACTED]';
const SECRET_PARTS = /[\s,;=&]+/;

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

/** The values one report redacted by key, and the redaction of their copies. */
class ReportSecrets {
  readonly exact = new Set<string>();
  #pattern: RegExp | null = null;

  /** Takes the strings of a value redacted by key (bounded walk; never throws). */
  collect(value: unknown): void {
    const stack: unknown[] = [value];
    const seen = new Set<object>();
    for (let n = 0; stack.length > 0 && n < MAX_SECRET_WALK && this.exact.size < MAX_SECRETS; n++) {
      const v = stack.pop();
      if (typeof v === 'string') this.#add(v);
      else if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'bigint') this.#add(String(v));
      else if (v !== null && typeof v === 'object' && !seen.has(v)) {
        seen.add(v);
        try {
          if (v instanceof Map) for (const [k, x] of v) stack.push(k, x);
          else if (v instanceof Set) for (const x of v) stack.push(x);
          else for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
        } catch {
          /* a hostile object: what was read so far counts */
        }
      }
    }
  }

  #add(s: string): void {
    if (s.length < MIN_SECRET_LENGTH) return;
    for (const part of [s, ...s.split(SECRET_PARTS)]) {
      if (part.length >= MIN_SECRET_LENGTH && !this.exact.has(part) && this.exact.size < MAX_SECRETS) {
        this.exact.add(part);
        this.#pattern = null;
      }
    }
  }

  text(s: string): string {
    if (this.exact.size === 0 || s.length < MIN_SECRET_LENGTH) return s;
    if (this.exact.has(s)) return REDACTED_TEXT;
    // Longest first, so a secret wins over a part of it.
    this.#pattern ??= new RegExp([...this.exact].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g');
    return s.replace(this.#pattern, REDACTED_TEXT);
  }

  /** A value position of an encoding: an equal string or number becomes the redacted marker. */
  value(node: Encoded): Encoded {
    if (this.exact.size === 0) return node;
    if (typeof node === 'string') return this.exact.has(node) ? ({ $t: 'redacted' } as Encoded) : (this.text(node) as Encoded);
    if (typeof node === 'number') return this.exact.has(String(node)) ? ({ $t: 'redacted' } as Encoded) : node;
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) node[i] = this.value(node[i] as Encoded);
      return node;
    }
    const obj = node as Record<string, Encoded>;
    if (typeof obj.$t === 'string') this.#tagged(obj);
    else this.#holder(obj);
    return obj;
  }

  /** A plain object of the encoding: its keys are data, its values value positions. */
  #holder(obj: Record<string, Encoded>): void {
    for (const key of Object.keys(obj)) {
      const value = this.value(obj[key]);
      const safeKey = this.text(key);
      if (safeKey !== key) {
        delete obj[key];
        Object.defineProperty(obj, safeKey, { value, enumerable: true, writable: true, configurable: true });
      } else obj[key] = value;
    }
  }

  /**
   * A tagged node (`{"$t": ...}`): its tag and ids stay; its strings (class and function names, an
   * error's message, a truncated string's prefix) stay strings; `props` is a plain holder and the
   * other containers (items, entries, values, cause) hold values.
   */
  #tagged(obj: Record<string, Encoded>): void {
    for (const key of Object.keys(obj)) {
      if (key === '$t' || key === '$id') continue;
      const v = obj[key];
      if (typeof v === 'string') obj[key] = this.text(v) as Encoded;
      else if (key === 'props' && v !== null && typeof v === 'object' && !Array.isArray(v)) this.#holder(v as Record<string, Encoded>);
      else if (v !== null && typeof v === 'object') obj[key] = this.value(v);
    }
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function createSnapshotEncoder(redactKeys: ReadonlyArray<string | RegExp> | undefined): SnapshotEncoder {
  // The report whose encodings are under way, told of every value the codec redacts by key.
  let current: ReportSecrets | null = null;
  const redacting = createSnapshotCodec({ ...(redactKeys ? { redactKeys } : {}), onRedact: (v) => current?.collect(v) });
  const exact = createSnapshotCodec(EXACT_CODEC_OPTIONS);
  const encodeOne = (value: unknown): Encoded => redactValues(redacting.encode(value));
  const within = <T>(secrets: ReportSecrets | null, f: () => T): T => {
    const outer = current;
    current = secrets;
    try {
      return withoutStacks(f);
    } finally {
      current = outer;
    }
  };
  return {
    encodeEach: (values) => within(null, () => values.map(encodeOne)),
    encode: (value) => within(null, () => encodeOne(value)),
    exact: {
      ...exact,
      encode: (value: unknown) => withoutStacks(() => exact.encode(value)),
    },
    report: () => {
      const secrets = new ReportSecrets();
      return {
        encode: (value) => within(secrets, () => encodeOne(value)),
        encodeEach: (values) => within(secrets, () => values.map(encodeOne)),
        redact: (node) => secrets.value(node),
        redactEach: (nodes) => nodes.map((n) => secrets.value(n)),
        redactText: (text) => secrets.text(text),
      };
    },
  };
}
