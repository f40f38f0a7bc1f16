import type { Case, Encoded } from '../../core/types.ts';

/**
 * Answers of the kind the block gives. A failing call only asks "must not throw", and a plausible candidate
 * may answer it with something no known-good call ever got: a string where every known-good answer is a
 * number, an object whose field every known-good answer fills left `undefined` (`days: s.digestDays?.map(...)`),
 * an empty string where every known-good string has text (`if (rate == null) return ''`), or text that prints
 * a missing value (`for undefined`, `NaN`, `[object Object]`, or the hole of an empty one: `for , due`). Such a candidate passes, but it is the shape of
 * a patch that hides the failure rather than answering it.
 *
 * The profile is learned from the answers of the cases the original passes with an expected value (recorded
 * calls, tests, description examples), per path into the answer: the kinds seen there
 * (empty strings and empty lists apart from the others), the fields every object there has, and which of those
 * words its strings ever contain. A path with fewer than two known-good answers says nothing. An answer that
 * breaks the profile is "off kind": the search ranks such candidates after those that keep the kind
 * (repair-engine.ts) and the confidence check makes a winner that gives one 'low' (oracle/confidence.ts). Nothing
 * here rejects a candidate: when no candidate keeps the kind, the order among them is the usual one.
 */
export interface AnswerProfile {
  /** Known-good answers at this path. */
  count: number;
  /** Refined kinds seen here (see {@link answerKind}). */
  kinds: Set<string>;
  /** Every answer here was a plain object: the fields every one of them has. */
  fields?: Map<string, AnswerProfile>;
  /** False once some answer here was no plain object. */
  objectsOnly?: boolean;
  /** Lists here: the profile of their elements. */
  elements?: AnswerProfile;
  /** Tokens of a missing value ({@link MISSING_TOKENS}) some string here contains. */
  tokens: Set<string>;
}

/**
 * What a string shows when a missing or unprintable value was put in it: the words, or the hole an empty
 * value leaves between the words around it (`for , due`, `Dear  Ann`, `()`, a blank at an end).
 */
const MISSING_TOKENS: ReadonlyArray<[string, RegExp]> = [
  ['undefined', /\bundefined\b/],
  ['null', /\bnull\b/],
  ['NaN', /\bNaN\b/],
  ['[object Object]', /\[object Object\]/],
  ['an empty slot', /\s[,;:)\]]|[([]\s*[)\]]|\S {2,}\S|^\s|\s$/],
];

const MAX_DEPTH = 6;
/** Fewest known-good answers at a path for the path to say anything. */
const MIN_SUPPORT = 2;

/**
 * The profile of the answers of `cases` the original passes with an expected value, generated cases aside (the
 * original's answers on made-up inputs may print `undefined` themselves); undefined when there are fewer than two.
 */
export function answerProfile(cases: readonly Case[], failingIds: ReadonlySet<string>): AnswerProfile | undefined {
  const answers = cases.filter((c) => c.check === 'value' && c.kind !== 'generated' && !failingIds.has(c.id)).map((c) => (c.expect === undefined ? { $t: 'undefined' } : c.expect));
  if (answers.length < MIN_SUPPORT) return undefined;
  const profile = emptyProfile();
  for (const a of answers) addAnswer(profile, a, 0);
  return profile;
}

/**
 * Why `answer` is of another kind than every known-good answer (with the path), or undefined when it keeps the
 * kind. With `emptiness: false`, an empty list or string where the known-good ones there hold something is not
 * counted: "none" is an everyday right answer for missing data (no address lines, no days), so it orders
 * candidates (one that fills the value first) but is no reason on its own to doubt a winner.
 */
export function offKind(profile: AnswerProfile, answer: Encoded | undefined, options: { emptiness?: boolean } = {}): string | undefined {
  return check(profile, answer === undefined ? { $t: 'undefined' } : answer, 'the answer', 0, options.emptiness ?? true);
}

/**
 * The kind of an encoded value as this rule sees it: JSON types and snapshot tags, with `empty string`,
 * `empty list` and `NaN` apart; class instances by class name.
 */
export function answerKind(value: Encoded): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value === '' ? 'empty string' : 'string';
  if (Array.isArray(value)) return value.length === 0 ? 'empty list' : 'list';
  if (typeof value !== 'object') return typeof value;
  const tag = (value as { $t?: unknown }).$t;
  if (tag === undefined) return 'object';
  if (tag === 'number') return (value as { v?: unknown }).v === 'NaN' ? 'NaN' : 'number';
  if (tag === 'array') return ((value as { items?: unknown[] }).items ?? []).length === 0 ? 'empty list' : 'list';
  if (tag === 'object') return `${String((value as { class?: unknown }).class ?? 'object')} instance`;
  return String(tag);
}

function emptyProfile(): AnswerProfile {
  return { count: 0, kinds: new Set(), tokens: new Set() };
}

function itemsOf(value: Encoded): Encoded[] | undefined {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object' && (value as { $t?: unknown }).$t === 'array') return ((value as { items?: Encoded[] }).items ?? []);
  return undefined;
}

/** A plain object's fields (snapshot-escaped objects too), or undefined for anything else. */
function fieldsOf(value: Encoded): Record<string, Encoded> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const o = value as Record<string, Encoded>;
  if (o.$t === undefined) return o;
  if (o.$t === 'object' && o.props && typeof o.props === 'object') return o.props as Record<string, Encoded>;
  return undefined;
}

function addAnswer(profile: AnswerProfile, value: Encoded, depth: number): void {
  profile.count++;
  profile.kinds.add(answerKind(value));
  if (typeof value === 'string') for (const [token, re] of MISSING_TOKENS) if (re.test(value)) profile.tokens.add(token);
  if (depth >= MAX_DEPTH) return;
  const items = itemsOf(value);
  if (items) {
    for (const item of items) addAnswer((profile.elements ??= emptyProfile()), item, depth + 1);
    return;
  }
  const fields = fieldsOf(value);
  if (!fields || profile.objectsOnly === false) {
    profile.objectsOnly = false;
    profile.fields = undefined;
    return;
  }
  if (profile.objectsOnly === undefined) {
    profile.objectsOnly = true;
    profile.fields = new Map(Object.keys(fields).map((k) => [k, emptyProfile()]));
  } else {
    for (const k of [...profile.fields!.keys()]) if (!Object.hasOwn(fields, k)) profile.fields!.delete(k);
  }
  for (const [k, sub] of profile.fields!) addAnswer(sub, fields[k], depth + 1);
}

function check(profile: AnswerProfile, value: Encoded, where: string, depth: number, emptiness: boolean): string | undefined {
  if (profile.count < MIN_SUPPORT) return undefined;
  const kind = answerKind(value);
  const emptied = (kind === 'empty list' && profile.kinds.has('list')) || (kind === 'empty string' && profile.kinds.has('string'));
  if (!profile.kinds.has(kind) && (emptiness || !emptied)) return `${where} is ${article(kind)} where every known-good answer there is ${[...profile.kinds].map(article).join(' or ')}`;
  if (typeof value === 'string') {
    for (const [token, re] of MISSING_TOKENS) {
      if (re.test(value) && !profile.tokens.has(token)) return `${where} shows ${token.startsWith('an ') ? token : `\`${token}\``}, which no known-good answer there does`;
    }
  }
  if (depth >= MAX_DEPTH) return undefined;
  const items = itemsOf(value);
  if (items && profile.elements) {
    for (const item of items) {
      const why = check(profile.elements, item, `an element of ${where}`, depth + 1, emptiness);
      if (why) return why;
    }
    return undefined;
  }
  const fields = fieldsOf(value);
  if (fields && profile.fields) {
    for (const [k, sub] of profile.fields) {
      const why = check(sub, Object.hasOwn(fields, k) ? fields[k] : { $t: 'undefined' }, `field ${k} of ${where}`, depth + 1, emptiness);
      if (why) return why;
    }
  }
  return undefined;
}

function article(kind: string): string {
  if (kind === 'undefined' || kind === 'null' || kind === 'NaN') return kind;
  return /^[aeiou]/i.test(kind) ? `an ${kind}` : `a ${kind}`;
}
