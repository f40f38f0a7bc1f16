/**
 * The host side of replaying a case's world (core/world.ts) in a trial: what the harness is given
 * (sandbox-harness.js defines each `uses` name from it in the candidate's compartment, with every
 * function turned into a replayer answering from the call log), and how what the candidate did
 * with it is judged. The judging happens out here, on data the harness copied out, so a candidate
 * cannot vouch for its own calls.
 *
 * Two rules, by what a case expects:
 * - a case expecting the original's behaviour (a `value` or `script` check: recorded, generated and
 *   test cases) expects its calls too: the candidate's calls, path and arguments in order, must be
 *   exactly `world.calls`. A call the log does not have next, or a call left out, is a wrong result,
 *   named in the message;
 * - a case expecting only "no throw" (a failure: `calls` is what the original did before it threw)
 *   holds the candidate to the log as far as its calls go. A call the log cannot answer leaves the
 *   case unverifiable: verdict `replay-miss`, which never passes.
 * Either way the miss is recorded by the harness, out of the candidate's reach: catching the error
 * the replayer throws does not hide it.
 */
import type { Case, Encoded, TrialError, TrialVerdict, TrialWorld } from '../../core/types.ts';
import type { CallWorld, DependencyCall } from '../../core/world.ts';
import { REPLAY_MISS } from '../../core/world.ts';
import { normaliseSnapshot, snapshotEqual } from '../../core/snapshot.ts';
import { isPureHelperSource } from '../../core/function-shape.ts';

/** One logged call as the harness gets it: arguments normalised like an expectation. */
interface ReplayCall {
  path: string;
  args: Encoded[];
  async: boolean;
  result?: Encoded;
  error?: { name: string; message: string };
}

/** What the harness gets for a case with a world. */
export interface ReplayPayload {
  uses: Record<string, Encoded>;
  /** The receiver, when the world has one. */
  this?: Encoded;
  hasThis: boolean;
  calls: ReplayCall[];
  /** Pure helpers run as code (path → source). */
  helpers: Record<string, string>;
  /** Report the `uses` values and the receiver after the run. */
  after: boolean;
}

/** What the harness reports about a case's world. */
export interface HarnessWorld {
  /** Logged calls answered, in order. */
  calls: number;
  /** The first call the log could not answer: where it came in the candidate's calls, path, arguments. */
  miss?: { at: number; path: string; args: Encoded[] };
  misses?: number;
  usesAfter?: Record<string, Encoded>;
  thisAfter?: Encoded;
}

/** A world the engine cannot use (malformed input from a report or a suite). */
export class WorldError extends Error {
  override name = 'WorldError';
}

const pureBySource = new Map<string, boolean>();

function pureHelper(source: string): boolean {
  let pure = pureBySource.get(source);
  if (pure === undefined) {
    pure = isPureHelperSource(source);
    if (pureBySource.size >= 1024) pureBySource.clear();
    pureBySource.set(source, pure);
  }
  return pure;
}

/**
 * The calls of `world` the trial compares: every logged call except those to a helper shipped as a
 * pure source (it runs as code, and its calls are not behaviour).
 */
export function comparedCalls(world: CallWorld): DependencyCall[] {
  const helpers = pureHelperPaths(world);
  return helpers.size === 0 ? world.calls : world.calls.filter((c) => !helpers.has(c.path));
}

function pureHelperPaths(world: CallWorld): Set<string> {
  const out = new Set<string>();
  for (const [path, source] of Object.entries(world.sources ?? {})) if (pureHelper(source)) out.add(path);
  return out;
}

/** Checks the shape of a world; throws a WorldError naming the field. */
export function checkWorld(world: unknown, where: string): asserts world is CallWorld {
  const fail = (field: string, what: string): never => {
    throw new WorldError(`${where}: world${field} ${what}`);
  };
  if (!isRecord(world)) fail('', 'must be an object');
  const w = world as Record<string, unknown>;
  if (!isRecord(w.uses)) fail('.uses', 'must be an object of encoded values');
  if (!Array.isArray(w.calls)) fail('.calls', 'must be an array');
  (w.calls as unknown[]).forEach((c, i) => {
    if (!isRecord(c)) fail(`.calls[${i}]`, 'must be an object');
    const call = c as Record<string, unknown>;
    if (typeof call.path !== 'string' || call.path === '') fail(`.calls[${i}].path`, 'must be a non-empty string');
    if (!Array.isArray(call.args)) fail(`.calls[${i}].args`, 'must be an array');
    if (typeof call.async !== 'boolean') fail(`.calls[${i}].async`, 'must be true or false');
    if (call.error !== undefined && (!isRecord(call.error) || typeof (call.error as { message?: unknown }).message !== 'string')) {
      fail(`.calls[${i}].error`, 'must be { name, message }');
    }
  });
  if (w.usesAfter !== undefined && !isRecord(w.usesAfter)) fail('.usesAfter', 'must be an object of encoded values');
  if (w.sources !== undefined) {
    if (!isRecord(w.sources)) fail('.sources', 'must be an object of source texts');
    for (const [k, v] of Object.entries(w.sources as object)) if (typeof v !== 'string') fail(`.sources.${k}`, 'must be a string');
  }
}

/** The harness's view of a case's world. */
export function replayPayload(c: Case, world: CallWorld): ReplayPayload {
  checkWorld(world, `case ${c.id}`);
  const helpers: Record<string, string> = {};
  for (const [path, source] of Object.entries(world.sources ?? {})) if (pureHelper(source)) helpers[path] = source;
  const calls = comparedCalls(world).map((call): ReplayCall => {
    const out: ReplayCall = { path: call.path, args: call.args.map((a) => normaliseSnapshot(a)), async: call.async };
    if (call.error !== undefined) out.error = { name: String(call.error.name ?? 'Error'), message: String(call.error.message) };
    else if (call.result !== undefined) out.result = call.result;
    return out;
  });
  const payload: ReplayPayload = {
    uses: world.uses,
    hasThis: Object.hasOwn(world, 'this'),
    calls,
    helpers,
    after: c.check === 'no-throw' || world.usesAfter !== undefined || world.thisAfter !== undefined,
  };
  if (payload.hasThis) payload.this = world.this;
  return payload;
}

/** A call as a message shows it: `db.getUser(7)`. */
export function describeCall(path: string, args: readonly Encoded[]): string {
  let text = args.map((a) => JSON.stringify(a) ?? 'undefined').join(', ');
  if (text.length > 120) text = `${text.slice(0, 117)}...`;
  return `${path}(${text})`;
}

/**
 * The verdict of a case's calls, before its answer is looked at, or undefined when the calls are
 * as the case expects. `returned`: the candidate answered (a left-out call only counts then: a
 * throw is its own verdict).
 */
export function callVerdict(c: Case, world: CallWorld, w: HarnessWorld | undefined, returned: boolean): { verdict: TrialVerdict; error: TrialError } | undefined {
  if (w === undefined) return undefined;
  const expected = comparedCalls(world);
  const exact = c.check !== 'no-throw';
  if (w.miss !== undefined) {
    const made = describeCall(w.miss.path, w.miss.args);
    const logged = expected[w.miss.at];
    if (exact) {
      const instead = logged ? `where the original called ${describeCall(logged.path, logged.args)}` : `after the original's last call (${expected.length} call${expected.length === 1 ? '' : 's'})`;
      return { verdict: 'wrong-result', error: { name: 'CallMismatch', message: `call ${w.miss.at + 1}: called ${made} ${instead}` } };
    }
    const why = logged ? `the log has ${describeCall(logged.path, logged.args)} there` : `the log ends after ${expected.length} call${expected.length === 1 ? '' : 's'}`;
    return { verdict: REPLAY_MISS, error: { name: 'ReplayMiss', message: `unverifiable: call ${w.miss.at + 1}, ${made}, cannot be answered from the recorded calls (${why})` } };
  }
  if (exact && returned && w.calls < expected.length) {
    const left = expected[w.calls];
    return {
      verdict: 'wrong-result',
      error: { name: 'CallMismatch', message: `did not call ${describeCall(left.path, left.args)} (call ${w.calls + 1} of ${expected.length} in the original)` },
    };
  }
  return undefined;
}

/** Why the `uses` values or the receiver after the run differ from the world's expectation, or undefined. */
export function effectsVerdict(world: CallWorld, w: HarnessWorld | undefined): string | undefined {
  if (world.usesAfter !== undefined) {
    const actual = w?.usesAfter ?? {};
    for (const name of Object.keys(world.usesAfter)) {
      if (!Object.hasOwn(actual, name)) return `${name} after the call is not reported`;
      if (!snapshotEqual(withoutFunctions(actual[name]), withoutFunctions(normaliseSnapshot(world.usesAfter[name])))) return `${name} after the call differs from the original's`;
    }
  }
  if (world.thisAfter !== undefined) {
    if (w === undefined || !Object.hasOwn(w, 'thisAfter')) return 'the receiver after the call is not reported';
    if (!snapshotEqual(withoutFunctions(w.thisAfter), withoutFunctions(normaliseSnapshot(world.thisAfter)))) return 'the receiver (this) after the call differs from the original\'s';
  }
  return undefined;
}

/** What a TrialResult keeps of the harness's report. */
export function trialWorld(w: HarnessWorld): TrialWorld {
  const out: TrialWorld = { calls: w.calls };
  if (w.usesAfter !== undefined) out.usesAfter = w.usesAfter;
  if (Object.hasOwn(w, 'thisAfter')) out.thisAfter = w.thisAfter;
  return out;
}

/**
 * An encoding with every function left out (object properties holding one dropped, array elements
 * replaced by null): effects compare data; the functions of a world are replayers in a trial and
 * live functions in an app.
 */
export function withoutFunctions(value: Encoded, depth = 0): Encoded {
  if (isFunctionNode(value)) return { $t: 'function', name: '' };
  if (depth > 200 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => (isFunctionNode(v) ? null : withoutFunctions(v, depth + 1)));
  const out: Record<string, Encoded> = {};
  for (const [k, v] of Object.entries(value as Record<string, Encoded>)) {
    if (isFunctionNode(v)) continue;
    out[k] = withoutFunctions(v, depth + 1);
  }
  return out;
}

function isFunctionNode(v: Encoded): boolean {
  return isRecord(v) && (v as { $t?: unknown }).$t === 'function';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
