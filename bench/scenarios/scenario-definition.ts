import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

/**
 * An end-to-end scenario: an app-like module (`apps/<id>.mjs`, plain JavaScript so that the block
 * source the SDK sees is the code as written, not a transpiler's output) with one buggy block.
 *
 * The module exports:
 * - `scenario`: `{ id, title, entry, uses?, healthy, failing, hidden }`, where `healthy`, `failing`
 *   and `hidden` are lists of argument lists (cloned with structuredClone before every call);
 * - `createApp(repair)`: the app, wired to a repair client (or anything with `run` and `wrap`);
 *   it returns an object whose `entry` method is what the app's callers call;
 * - `intended(...args)`: what the entry should have answered, the developer's fixed version. The
 *   bench's expected answers come from it, never from the engine.
 */
export interface ScenarioSpec {
  id: string;
  title: string;
  /** The method of the app object the calls go through. */
  entry: string;
  /** Names of the closure the block reads through `uses` (empty for a pure block). */
  uses: string[];
  healthy: unknown[][];
  failing: unknown[][];
  hidden: unknown[][];
}

/** The subset of the repair client an app module uses. */
export interface RepairLike {
  run(...a: unknown[]): unknown;
  wrap(...a: unknown[]): (...args: unknown[]) => unknown;
}

export interface Scenario extends ScenarioSpec {
  file: string;
  createApp(repair: RepairLike): Record<string, (...args: unknown[]) => unknown>;
  intended(...args: unknown[]): unknown;
}

export const APPS_DIR = join(import.meta.dirname, 'apps');

/** Loads and shape-checks one scenario module; errors name the file and the field. */
export async function loadScenario(file: string): Promise<Scenario> {
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const where = `scenario ${file}`;
  const s = mod.scenario as Record<string, unknown> | undefined;
  if (!s || typeof s !== 'object') throw new TypeError(`${where}: no exported 'scenario' object`);
  for (const key of ['id', 'title', 'entry'] as const) {
    if (typeof s[key] !== 'string' || s[key] === '') throw new TypeError(`${where}: scenario.${key} must be a non-empty string`);
  }
  for (const key of ['healthy', 'failing', 'hidden'] as const) {
    const list = s[key];
    if (!Array.isArray(list) || list.length === 0 || !list.every(Array.isArray)) throw new TypeError(`${where}: scenario.${key} must be a non-empty list of argument lists`);
  }
  if (s.uses !== undefined && (!Array.isArray(s.uses) || !s.uses.every((u) => typeof u === 'string'))) throw new TypeError(`${where}: scenario.uses must be a list of names`);
  if (typeof mod.createApp !== 'function') throw new TypeError(`${where}: no exported createApp(repair)`);
  if (typeof mod.intended !== 'function') throw new TypeError(`${where}: no exported intended(...args)`);
  return {
    ...(s as unknown as ScenarioSpec),
    uses: (s.uses as string[] | undefined) ?? [],
    file,
    createApp: mod.createApp as Scenario['createApp'],
    intended: mod.intended as Scenario['intended'],
  };
}

/** Every scenario in `dir` (default: apps/), sorted by id; ids must be unique. */
export async function loadScenarios(dir = APPS_DIR): Promise<Scenario[]> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.mjs')).sort();
  const out: Scenario[] = [];
  for (const f of files) out.push(await loadScenario(join(dir, f)));
  const seen = new Set<string>();
  for (const s of out) {
    if (seen.has(s.id)) throw new TypeError(`two scenarios have id ${s.id}`);
    seen.add(s.id);
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

/** A repair client stand-in that calls the block directly: the app exactly as written, no suture. */
export const directRepair: RepairLike = {
  run(first: unknown, second: unknown, ...rest: unknown[]) {
    if (typeof first === 'string') {
      const [fn, ...args] = rest as [(...a: unknown[]) => unknown, ...unknown[]];
      return fn(...args);
    }
    const fn = second as (...a: unknown[]) => unknown;
    return fn.apply((first as { receiver?: unknown }).receiver, rest);
  },
  wrap(first: unknown, second: unknown, third?: unknown) {
    const fn = (typeof first === 'string' ? third : second) as (...a: unknown[]) => unknown;
    return function (this: unknown, ...args: unknown[]) {
      return fn.apply(this, args);
    };
  },
};

/** The result of one call: its answer, or the error it threw. */
export type CallResult = { ok: true; value: unknown } | { ok: false; error: string };

export async function resultOf(call: () => unknown): Promise<CallResult> {
  try {
    return { ok: true, value: await call() };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

export function sameResult(a: CallResult, b: CallResult): boolean {
  return a.ok && b.ok ? isDeepStrictEqual(a.value, b.value) : !a.ok && !b.ok && a.error === b.error;
}

/**
 * Checks a scenario against itself with no suture in the way: the buggy app answers every healthy
 * call as `intended` does, throws on every failing call, and `intended` answers every hidden call.
 * Returns the problems found (empty when the scenario is well formed).
 */
export async function checkScenario(s: Scenario): Promise<string[]> {
  const problems: string[] = [];
  const app = s.createApp(directRepair);
  const entry = app[s.entry];
  if (typeof entry !== 'function') return [`createApp() has no method '${s.entry}'`];
  for (const [i, args] of s.healthy.entries()) {
    const got = await resultOf(() => entry.apply(app, structuredClone(args)));
    const want = await resultOf(() => s.intended(...structuredClone(args)));
    if (!got.ok) problems.push(`healthy[${i}] throws in the app as written (${got.error})`);
    else if (!sameResult(got, want)) problems.push(`healthy[${i}]: the app answers ${show(got)}, intended ${show(want)}`);
  }
  for (const [i, args] of s.failing.entries()) {
    const got = await resultOf(() => entry.apply(app, structuredClone(args)));
    if (got.ok) problems.push(`failing[${i}] does not throw in the app as written (answers ${show(got)})`);
  }
  for (const [i, args] of s.hidden.entries()) {
    const want = await resultOf(() => s.intended(...structuredClone(args)));
    if (!want.ok) problems.push(`hidden[${i}]: intended throws (${want.error})`);
  }
  return problems;
}

export function show(o: CallResult): string {
  if (!o.ok) return `throws ${o.error}`;
  const text = o.value === undefined ? 'undefined' : JSON.stringify(o.value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
