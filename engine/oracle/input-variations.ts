/**
 * Inputs generated around a job's failing inputs and recorded calls, so that the original block takes
 * its other paths: the read paths a failing input lacks filled in, fields taken from another input,
 * fields dropped, set to null, undefined or empty, numbers and strings varied. Where the original then
 * returns normally its answer is a case every candidate must give too (see oracle-cases.ts).
 *
 * Inputs are snapshot encodings (each argument its own snapshot, as in Case.args) and are edited as
 * such: plain objects and arrays are themselves, class instances keep their fields in `props`,
 * tagged arrays in `items`. Deterministic for a given seed, bounded, de-duplicated by encoded form.
 */
import type { Encoded } from '../../core/types.ts';
import { decodeSnapshot } from '../../core/snapshot.ts';
import { EACH, formatPath, type BlockReads, type PathKey, type ReadPath, type ValueHint } from './read-paths.ts';

export interface InputSeed {
  args: Encoded[];
  /** The original throws on it (a failing input). */
  failing: boolean;
}

export interface GeneratedInput {
  args: Encoded[];
  /** How it was made: `filled user.address.city`, `user.name dropped`, `user.age = 0`… */
  how: string;
}

export interface InputGenerationOptions {
  /** Most inputs returned. @defaultValue 40 */
  max?: number;
  /** Seed of the order in which variations are picked. @defaultValue 1 */
  seed?: number;
}

/** Seeds whose fields are varied, per kind (failing, other); every seed still lends values. */
const VARIED_SEEDS = 8;
/** Inputs that lend their values to the others. */
const DONOR_SEEDS = 50;
/** Deepest path varied, and most paths varied per argument. */
const MAX_DEPTH = 5;
const MAX_PATHS_PER_ARG = 120;
const UNDEFINED = { $t: 'undefined' };
const REMOVE = Symbol('remove');

type Fields = Record<string, Encoded> | Encoded[];

/**
 * Inputs around `seeds`, most telling first: every read path filled in on each seed (failing seeds
 * first), then in a seeded order the variations of read paths and values taken from other inputs,
 * then variations of fields the block does not read. Never an input equal to a seed.
 */
export function generateInputs(seeds: readonly InputSeed[], read: BlockReads, options: InputGenerationOptions = {}): GeneratedInput[] {
  const max = options.max ?? 40;
  if (max <= 0 || seeds.length === 0) return [];
  const random = mulberry32(options.seed ?? 1);
  const ordered = [...seeds.filter((s) => s.failing), ...seeds.filter((s) => !s.failing)];
  const varied = [...seeds.filter((s) => s.failing).slice(0, VARIED_SEEDS), ...seeds.filter((s) => !s.failing).slice(0, VARIED_SEEDS)];

  const completions: GeneratedInput[] = [];
  for (const seed of ordered.slice(0, VARIED_SEEDS * 2)) {
    for (const variant of [0, 1, 2] as const) {
      const filled = fillReadPaths(seed.args, read, seeds, variant, random);
      if (filled) completions.push(filled);
    }
  }

  // Variations are described first and built only when picked: there can be thousands.
  const onReadPath: Variation[] = [];
  const elsewhere: Variation[] = [];
  const donors = seeds.slice(0, DONOR_SEEDS);
  const bases = [...varied.map((s) => s.args), ...completions.map((c) => c.args)];
  bases.forEach((args, i) => {
    const from = i < varied.length ? '' : ` (${completions[i - varied.length].how})`;
    for (const v of variationsOf(args, donors, read)) {
      v.how += from;
      (isRead(read.paths, v.arg, v.keys) ? onReadPath : elsewhere).push(v);
    }
  });

  const known = new Set(seeds.map((s) => keyOf(s.args)));
  const out: GeneratedInput[] = [];
  const picked = [...completions.map((c) => ({ how: c.how, make: () => c.args })), ...shuffle(onReadPath, random), ...shuffle(elsewhere, random)];
  for (const v of picked) {
    if (out.length >= max) break;
    const input = { args: v.make(), how: v.how };
    const key = keyOf(input.args);
    if (known.has(key) || !decodes(input.args)) continue;
    known.add(key);
    out.push(input);
  }
  return out;
}

/**
 * A copy of `args` with every read path it lacks filled in: leaf values from the same path of another
 * input where one has it, else a value of the type the block's use asks for, else (by variant) a
 * string or a number. Undefined when nothing was missing.
 */
export function fillReadPaths(args: readonly Encoded[], read: BlockReads, seeds: readonly InputSeed[], variant: 0 | 1 | 2, random: () => number = mulberry32(1)): GeneratedInput | undefined {
  const copy = structuredClone(args) as Encoded[];
  const filled: string[] = [];
  const leaves = read.paths.filter((p) => !read.paths.some((q) => q !== p && q.arg === p.arg && isPrefix(p.keys, q.keys)));
  for (const path of leaves) {
    while (copy.length <= path.arg) copy.push({ ...UNDEFINED });
    if (isMissing(copy[path.arg]) || copy[path.arg] === null) copy[path.arg] = containerFor(path.keys[0]);
    const leaf = () => leafValue(path, seeds, variant, random);
    if (fillPath(copy[path.arg], path.keys, leaf, path.hint !== undefined)) filled.push(formatPath(read.params, path));
  }
  return filled.length > 0 ? { args: copy, how: `filled ${filled.join(', ')}${variant === 1 ? ' (numbers)' : variant === 2 ? ' (other values)' : ''}` } : undefined;
}

/**
 * Fills the rest of `keys` under `node` in place; true when something was added. A null the block reads
 * through (a container on the way, or a leaf it calls a method on: `hinted`) counts as missing; a null
 * leaf the block only passes on is a value and stays.
 */
function fillPath(node: Encoded, keys: readonly PathKey[], leaf: () => Encoded, hinted: boolean): boolean {
  if (keys.length === 0) return false;
  const fields = fieldsOf(node);
  if (!fields) return false;
  const [key, ...rest] = keys;
  if (key === EACH) {
    if (!Array.isArray(fields)) return false;
    let added = false;
    if (fields.length === 0) {
      fields.push(rest.length === 0 ? leaf() : containerFor(rest[0]));
      added = true;
    }
    for (const item of fields) added = fillPath(item, rest, leaf, hinted) || added;
    return added;
  }
  if (Array.isArray(fields) && !/^\d+$/.test(key)) return false;
  const record = fields as Record<string, Encoded>;
  if (isMissing(record[key]) || (record[key] === null && (rest.length > 0 || hinted))) {
    record[key] = rest.length === 0 ? leaf() : containerFor(rest[0]);
    fillPath(record[key], rest, leaf, hinted);
    return true;
  }
  return fillPath(record[key], rest, leaf, hinted);
}

function leafValue(path: ReadPath, seeds: readonly InputSeed[], variant: 0 | 1 | 2, random: () => number): Encoded {
  const donors = distinct(seeds.flatMap((s) => valuesAt(s.args[path.arg], path.keys)).filter((v) => !isMissing(v) && v !== null));
  if (donors.length > 0) return structuredClone(donors[variant === 2 ? donors.length - 1 : 0]);
  const last = [...path.keys].reverse().find((k): k is string => typeof k === 'string') ?? 'value';
  const hint: ValueHint | undefined = path.hint ?? (variant === 1 ? 'number' : 'string');
  if (hint === 'array') return [];
  if (hint === 'number') return 2 + Math.floor(random() * 98);
  return variant === 2 ? `${last.toUpperCase()} ${Math.floor(random() * 90) + 10}` : last;
}

interface Variation {
  arg: number;
  keys: string[];
  how: string;
  make: () => Encoded[];
}

/** Every single-field variation of `args`: dropped, null, undefined, empty, varied, or taken from another input. */
function variationsOf(args: readonly Encoded[], donors: readonly InputSeed[], read: BlockReads): Variation[] {
  const out: Variation[] = [];
  const params = read.params;
  args.forEach((root, arg) => {
    for (const { keys, value, inArray } of walk(root).slice(0, MAX_PATHS_PER_ARG)) {
      const name = formatPath(params, { arg, keys });
      const put = (v: Encoded | typeof REMOVE, how: string) => out.push({ arg, keys, how, make: () => replaced(args, arg, keys, v) });
      if (keys.length > 0) put(REMOVE, inArray ? `${name} removed` : `${name} dropped`);
      put(null, `${name} = null`);
      put(UNDEFINED, `${name} = undefined`);
      for (const [v, label] of scalarVariants(value)) put(v, `${name} = ${label}`);
      // A string the block names (a lookup table's key, a compared literal) may take it down another path.
      if (typeof value === 'string' && isRead(read.paths, arg, keys)) {
        for (const text of read.strings) if (text !== value) put(text, `${name} = ${JSON.stringify(text)} (named by the block)`);
      }
      const own = keyOf([value]);
      for (const donor of distinct(donors.flatMap((other) => valuesAt(other.args[arg], keys)))) {
        if (keyOf([donor]) !== own) put(donor, `${name} from another input`);
      }
    }
    // A field another input has and this one lacks.
    for (const other of donors) {
      if (other.args[arg] === undefined) continue;
      for (const { keys, value } of walk(other.args[arg]).slice(0, MAX_PATHS_PER_ARG)) {
        // The parent must be an object or array here (a `null` product has no price to add).
        if (keys.length === 0 || valuesAt(root, keys).length > 0 || !valuesAt(root, keys.slice(0, -1)).some((v) => fieldsOf(v) !== undefined)) continue;
        out.push({ arg, keys, how: `${formatPath(params, { arg, keys })} from another input`, make: () => replaced(args, arg, keys, value) });
      }
    }
  });
  return out;
}

function scalarVariants(value: Encoded): [Encoded, string][] {
  const out: [Encoded, string][] = [];
  if (typeof value === 'number') {
    for (const n of [0, 1, -1, value + 1]) if (n !== value) out.push([n, String(n)]);
  } else if (typeof value === 'string') {
    if (value !== '') out.push(['', "''"]);
    out.push([`${value}${value.slice(-1) || 'a'}`, 'a longer string']);
    if (value.length > 1) out.push([value.slice(0, -1), 'a shorter string']);
    const other = value === value.toUpperCase() ? value.toLowerCase() : value.toUpperCase();
    if (other !== value) out.push([other, 'the other case']);
  } else if (typeof value === 'boolean') {
    out.push([!value, String(!value)]);
  } else if (Array.isArray(value) || (isPlainRecord(value) && (value as { $t?: unknown }).$t === 'array')) {
    if (fieldsOf(value)!.length !== 0) out.push([[], '[]']);
  } else if (isPlainRecord(value)) {
    const fields = fieldsOf(value);
    if (fields && !Array.isArray(fields) && Object.keys(fields).length > 0) out.push([{}, '{}']);
  }
  return out;
}

/** Every node of an encoded value with its path, outer first, down to MAX_DEPTH. */
function walk(root: Encoded): { keys: string[]; value: Encoded; inArray: boolean }[] {
  const out: { keys: string[]; value: Encoded; inArray: boolean }[] = [];
  const visit = (value: Encoded, keys: string[], inArray: boolean) => {
    out.push({ keys, value, inArray });
    if (keys.length >= MAX_DEPTH) return;
    const fields = fieldsOf(value);
    if (!fields) return;
    if (Array.isArray(fields)) fields.slice(0, 3).forEach((v, i) => visit(v, [...keys, String(i)], true));
    else for (const [k, v] of Object.entries(fields)) visit(v, [...keys, k], false);
  };
  visit(root, [], false);
  return out;
}

/** Values at a path; EACH gives every element. */
function valuesAt(root: Encoded, keys: readonly PathKey[]): Encoded[] {
  if (root === undefined) return [];
  if (keys.length === 0) return [root];
  const fields = fieldsOf(root);
  if (!fields) return [];
  const [key, ...rest] = keys;
  if (key === EACH) return Array.isArray(fields) ? fields.flatMap((v) => valuesAt(v, rest)) : [];
  if (!Object.hasOwn(fields, key)) return [];
  return valuesAt((fields as Record<string, Encoded>)[key], rest);
}

/** A copy of `args` with the value at arg/keys replaced (or removed). */
function replaced(args: readonly Encoded[], arg: number, keys: readonly string[], value: Encoded | typeof REMOVE): Encoded[] {
  const copy = structuredClone(args) as Encoded[];
  if (keys.length === 0) {
    copy[arg] = structuredClone(value === REMOVE ? UNDEFINED : value);
    return copy;
  }
  let fields = fieldsOf(copy[arg])!;
  for (const key of keys.slice(0, -1)) fields = fieldsOf((fields as Record<string, Encoded>)[key])!;
  const last = keys[keys.length - 1];
  if (value !== REMOVE) (fields as Record<string, Encoded>)[last] = structuredClone(value);
  else if (Array.isArray(fields)) fields.splice(Number(last), 1);
  else delete fields[last];
  return copy;
}

/** The properties (or elements) an encoded value holds, or undefined for a leaf. Never the `$id` of a shared object. */
function fieldsOf(value: Encoded): Fields | undefined {
  if (Array.isArray(value)) return value;
  if (!isPlainRecord(value)) return undefined;
  const o = value as Record<string, Encoded>;
  if (o.$t === undefined) return withoutId(o);
  if (o.$t === 'object' && isPlainRecord(o.props)) return o.props as Record<string, Encoded>;
  if (o.$t === 'array' && Array.isArray(o.items)) return o.items;
  return undefined;
}

/** A plain encoded object carries the id of a shared reference as `$id`; it is not a field. */
function withoutId(o: Record<string, Encoded>): Record<string, Encoded> {
  if (!Object.hasOwn(o, '$id')) return o;
  return new Proxy(o, {
    ownKeys: (t) => Reflect.ownKeys(t).filter((k) => k !== '$id'),
    has: (t, k) => k !== '$id' && Reflect.has(t, k),
    getOwnPropertyDescriptor: (t, k) => (k === '$id' ? undefined : Reflect.getOwnPropertyDescriptor(t, k)),
  });
}

function isPlainRecord(value: Encoded): value is Record<string, Encoded> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isMissing(value: Encoded): boolean {
  return value === undefined || (isPlainRecord(value) && value.$t === 'undefined');
}

function containerFor(next: PathKey): Encoded {
  return next === EACH || /^\d+$/.test(next) ? [] : {};
}

function isPrefix(short: readonly PathKey[], long: readonly PathKey[]): boolean {
  return short.length < long.length && short.every((k, i) => k === long[i]);
}

/** True for a parameter itself, and when the block reads this concrete path or something under it (array indices match EACH). */
function isRead(paths: readonly ReadPath[], arg: number, keys: readonly string[]): boolean {
  return keys.length === 0 || paths.some((p) => p.arg === arg && keys.length <= p.keys.length && keys.every((k, i) => p.keys[i] === k || (p.keys[i] === EACH && /^\d+$/.test(k))));
}

function distinct(values: Encoded[]): Encoded[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = keyOf([v]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function keyOf(args: readonly Encoded[]): string {
  return JSON.stringify(args);
}

/** Inputs whose snapshots no longer decode (a dropped field held a shared object that a reference still names) are left out. */
function decodes(args: readonly Encoded[]): boolean {
  try {
    for (const a of args) decodeSnapshot(a);
    return true;
  } catch {
    return false;
  }
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** Small seeded PRNG (mulberry32): the same job generates the same inputs. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
