/**
 * Loads a benchmark suite from disk (layout in bench/suites/README.md) into engine types.
 * Every file is validated up front so a broken suite fails before a long benchmark run, with an
 * error naming the file and the field.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import type { Block, Case } from '../core/types.ts';
import { SuiteFormatError } from './suite-format-error.ts';
import { bugJsonSchema, caseFileSchema, suiteJsonSchema, toCoreCase } from './suite-schema.ts';
import { unknownFreeNames } from '../core/block-free-names.ts';

export { SuiteFormatError } from './suite-format-error.ts';

export interface SuiteBug {
  id: string;
  entry: string;
  description: string;
  bugType?: string;
  block: Block;
  /** Visible cases, handed to the engine. */
  cases: Case[];
  /** Hidden cases, used only to judge correctness. */
  hidden: Case[];
  /** Path of fixed.js when present; never read by the engine. */
  fixedPath?: string;
  dir: string;
}

export interface Suite {
  name: string;
  description: string;
  license?: string;
  dir: string;
  bugs: SuiteBug[];
}

export interface LoadSuiteOptions {
  /**
   * Load only these bugs, matched by bug id (`JavaScript/2`) or bug directory name (`JavaScript-2`).
   * An unknown name is an error, so a typo does not silently shrink a run.
   * @defaultValue every bug
   */
  only?: string[];
}

/** Natural order of ids, so `JavaScript/2` sorts before `JavaScript/10`. */
export const compareBugIds = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' }).compare;

export async function loadSuite(dir: string, options: LoadSuiteOptions = {}): Promise<Suite> {
  const suiteDir = path.resolve(dir);
  const suiteFile = path.join(suiteDir, 'suite.json');
  const meta = await readJson(suiteFile, suiteJsonSchema);

  const bugsDir = path.join(suiteDir, 'bugs');
  let dirNames: string[];
  try {
    const entries = await readdir(bugsDir, { withFileTypes: true });
    dirNames = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  } catch (err) {
    throw new SuiteFormatError(bugsDir, '', `cannot read the bugs directory (${(err as Error).message})`);
  }

  const bugs = await Promise.all(dirNames.map((name) => loadBug(path.join(bugsDir, name))));
  const seen = new Map<string, string>();
  for (const bug of bugs) {
    const other = seen.get(bug.id);
    if (other) throw new SuiteFormatError(path.join(bug.dir, 'bug.json'), 'id', `duplicate id "${bug.id}" (also in ${other})`);
    seen.set(bug.id, bug.dir);
  }

  let selected = bugs;
  if (options.only) {
    const wanted = new Set(options.only);
    selected = bugs.filter((b) => wanted.has(b.id) || wanted.has(path.basename(b.dir)));
    const found = new Set(selected.flatMap((b) => [b.id, path.basename(b.dir)]));
    const missing = options.only.filter((name) => !found.has(name));
    if (missing.length > 0) throw new SuiteFormatError(bugsDir, '', `no bug named ${missing.map((m) => `"${m}"`).join(', ')}`);
  }
  selected.sort((a, b) => compareBugIds(a.id, b.id));

  const suite: Suite = { name: meta.name, description: meta.description, dir: suiteDir, bugs: selected };
  if (meta.license !== undefined) suite.license = meta.license;
  return suite;
}

async function loadBug(bugDir: string): Promise<SuiteBug> {
  const meta = await readJson(path.join(bugDir, 'bug.json'), bugJsonSchema);
  const sourceFile = path.join(bugDir, meta.source);
  const source = await readText(sourceFile);
  if (source.trim() === '') throw new SuiteFormatError(sourceFile, '', 'empty source');

  const visibleFile = path.join(bugDir, 'cases.json');
  const cases = (await readJson(visibleFile, caseFileSchema)).map((c, i) => toCoreCase(c, `visible-${i}`));
  if (cases.length === 0) throw new SuiteFormatError(visibleFile, '', 'a bug needs at least one visible case');

  const hiddenFile = path.join(bugDir, 'hidden.json');
  const hidden = (await exists(hiddenFile))
    ? (await readJson(hiddenFile, caseFileSchema)).map((c, i) => toCoreCase(c, `hidden-${i}`))
    : [];

  const bug: SuiteBug = {
    id: meta.id,
    entry: meta.entry,
    description: meta.description,
    // A suite's world is exactly its uses: any other outside name is undefined, and reading it is the bug.
    block: withAbsentNames({ source, entry: meta.entry, description: meta.description, ...(meta.uses ? { uses: meta.uses } : {}) }),
    cases,
    hidden,
    dir: bugDir,
  };
  if (meta.bug_type !== undefined) bug.bugType = meta.bug_type;
  const fixedPath = path.join(bugDir, 'fixed.js');
  if (await exists(fixedPath)) bug.fixedPath = fixedPath;
  return bug;
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new SuiteFormatError(file, '', code === 'ENOENT' ? 'missing file' : `cannot read (${(err as Error).message})`);
  }
}

async function readJson<S extends z.ZodType>(file: string, schema: S): Promise<z.output<S>> {
  const text = await readText(file);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new SuiteFormatError(file, '', `invalid JSON (${(err as Error).message})`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more problems)` : '';
    // Unknown keys are reported on the object, so name them: the key is the field the author must fix.
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const field = formatPath(keys.length > 0 ? [...issue.path, keys[0]!] : issue.path);
    throw new SuiteFormatError(file, field, `${issue.message}${more}`);
  }
  return parsed.data;
}

function formatPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out;
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Marks every outside name a suite block reads beyond its `uses` as absent (see Block.absent). */
function withAbsentNames(block: Block): Block {
  let absent: string[];
  try {
    absent = unknownFreeNames(block.source, block.uses ?? [], block.entry);
  } catch {
    return block; // a block that does not parse: the engine says so
  }
  return absent.length > 0 ? { ...block, absent } : block;
}
