/**
 * The original is the oracle wherever it does not throw. When a job's bug is a throw (every case the
 * original fails only asks "must not throw"), the failing inputs alone let a candidate answer anything
 * that does not throw: `${user.address}` for `${user.address.city}`. So inputs are generated around
 * the failing inputs and recorded calls (input-variations.ts), the original is run on each, and where
 * it returns normally its answer (value and argument state after the call) becomes a case of kind
 * 'generated' that every candidate must pass like a recorded call. Where the original throws the
 * input is dropped: a patch may answer differently there.
 *
 * A block that reads outside names (`uses`) runs each input in the world of a job's case (its
 * values, call log and receiver; core/world.ts), trying the worlds of the job in turn: the first in
 * which the original answers gives the case its world, with the calls the original made there as
 * the calls every candidate must make. An input on which the original makes a call no world's log
 * can answer is dropped: nothing says what the dependency would have answered.
 */
import type { Block, Case, SandboxLimits, TrialResult, TrialWorld } from '../../core/types.ts';
import type { CallWorld } from '../../core/world.ts';
import { comparedCalls, type SandboxPool } from '../sandbox/index.ts';
import { invariantViolation, type BehaviourInvariants, offKind, type AnswerProfile } from '../scoring/index.ts';
import { generateInputs } from './input-variations.ts';
import { readPaths } from './read-paths.ts';
import { runBaseline } from './original-runs.ts';
import type { OracleReport } from '../repair-report.ts';

export interface OracleOptions {
  /** Most inputs generated (and run on the original). @defaultValue 40 */
  maxInputs?: number;
  /** Seed of the generation order. @defaultValue 1 */
  seed?: number;
}

/** Most distinct worlds of a job an input is tried in. */
const MAX_WORLDS = 4;

/**
 * The rule applies to a bug whose failures are throws: the original compiles, no case is a test script,
 * and every case the original fails is a no-throw check. A failing case that expects a value (a
 * wrong-answer bug) says the original's answers are not the specification.
 */
export function oracleRule(cases: readonly Case[], failingIds: ReadonlySet<string>, compiled: boolean): { applies: boolean; reason: string } {
  if (!compiled) return { applies: false, reason: 'the original does not compile' };
  if (cases.some((c) => c.check === 'script')) return { applies: false, reason: 'test scripts specify the block' };
  const failing = cases.filter((c) => failingIds.has(c.id));
  if (failing.some((c) => c.check !== 'no-throw')) return { applies: false, reason: 'a failing case expects a value: the original answers wrongly, not only throws' };
  return { applies: true, reason: `every failing case is a throw (${failing.length}): the original is the oracle wherever it does not throw` };
}

export function notApplied(reason: string): OracleReport {
  return { applied: false, reason, generated: 0, cases: 0, originalThrew: 0, limits: 0, misbehaved: 0, unstable: 0, replayMisses: 0 };
}

/**
 * Generates inputs around the job's cases, runs the original on them with the baseline's path and limits,
 * and returns the value cases it answered (with the original's passing trial of each, for the baseline).
 */
export async function oracleCases(
  block: Block,
  cases: readonly Case[],
  failingIds: ReadonlySet<string>,
  pool: SandboxPool,
  limits: SandboxLimits,
  invariants: BehaviourInvariants,
  reason: string,
  options: OracleOptions = {},
  profile?: AnswerProfile,
): Promise<{ cases: Case[]; results: TrialResult[]; trials: number; report: OracleReport }> {
  const report: OracleReport = { ...notApplied(reason), applied: true };
  const seeds = cases.filter((c) => c.args !== undefined).map((c) => ({ args: c.args!, failing: failingIds.has(c.id) }));
  const inputs = generateInputs(seeds, readPaths(block), { max: options.maxInputs, seed: options.seed });
  report.generated = inputs.length;
  if (inputs.length === 0) return { cases: [], results: [], trials: 0, report };

  // The sandbox reports the value and the arguments' state after the call for no-throw checks
  // (and, in a world, the calls answered and the values after).
  const worlds = jobWorlds(cases, failingIds);
  const probes: { input: number; world?: CallWorld; probe: Case }[] = inputs.flatMap((input, i) => {
    const probe: Case = { id: `generated-${i + 1}`, kind: 'generated', check: 'no-throw', args: input.args };
    if (worlds.length === 0) return [{ input: i, probe }];
    // A probe expects no effects: the world's values after belong to its own call, not to this input.
    return worlds.map((world, k) => ({ input: i, world, probe: { ...probe, id: `${probe.id}-w${k + 1}`, world: withoutEffects(world) } }));
  });
  const first = await runBaseline(pool, block, probes.map((p) => p.probe), limits);
  let trials = first.trials;
  const byId = new Map(first.results.map((r) => [r.caseId, r]));
  const answered: Case[] = [];
  inputs.forEach((input, i) => {
    const tried = probes.filter((p) => p.input === i).map((p) => ({ ...p, result: byId.get(p.probe.id) }));
    // An answer of a kind no known-good call gets (`for undefined` where every known-good subject names
    // someone; scoring/answer-kinds.ts) is the bug showing on another input, not behaviour to keep.
    const kept = tried.find((t) => t.result?.verdict === 'pass' && !invariantViolation(invariants, t.result) && !(profile && offKind(profile, t.result.actual)));
    if (!kept) {
      const verdicts = tried.map((t) => t.result?.verdict);
      if (verdicts.includes('pass')) report.misbehaved++;
      else if (verdicts.includes('threw') || verdicts.includes('wrong-result')) report.originalThrew++;
      else if (verdicts.includes('replay-miss')) report.replayMisses++;
      else report.limits++;
      return;
    }
    const r = kept.result!;
    answered.push({
      id: `generated-${i + 1}`,
      kind: 'generated',
      check: 'value',
      args: input.args,
      expect: r.actual === undefined ? { $t: 'undefined' } : r.actual,
      ...(r.actualArgsAfter ? { argsAfter: r.actualArgsAfter } : {}),
      ...(kept.world ? { world: answeredWorld(kept.world, r.world) } : {}),
    });
  });
  if (answered.length === 0) return { cases: [], results: [], trials, report };

  // Judged as every candidate will be: after the job's known-good cases, in one context, by snapshot
  // equality. An answer the original does not give again (time, randomness, state) is no specification.
  const knownGood = cases.filter((c) => !failingIds.has(c.id));
  const again = await pool.run({ block, cases: [...knownGood, ...answered], limits });
  trials += again.results.length;
  const passed = new Map(again.results.filter((r) => r.verdict === 'pass').map((r) => [r.caseId, r]));
  const kept = answered.filter((c) => passed.has(c.id));
  report.unstable = answered.length - kept.length;
  report.cases = kept.length;
  return { cases: kept, results: kept.map((c) => passed.get(c.id)!), trials, report };
}

/** The distinct worlds of the job's cases, those of known-good cases first (their logs are whole). */
export function jobWorlds(cases: readonly Case[], failingIds: ReadonlySet<string>): CallWorld[] {
  const ordered = [...cases.filter((c) => !failingIds.has(c.id)), ...cases.filter((c) => failingIds.has(c.id))];
  const seen = new Set<string>();
  const out: CallWorld[] = [];
  for (const c of ordered) {
    if (!c.world || out.length >= MAX_WORLDS) continue;
    const key = JSON.stringify(c.world);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c.world);
  }
  return out;
}

export function withoutEffects(world: CallWorld): CallWorld {
  const { usesAfter: _uses, thisAfter: _receiver, ...rest } = world;
  return rest;
}

/**
 * The world of a generated case: the world it ran in, with the calls the original made there (a
 * prefix of the log: each call answered was the next logged one) and the values it left.
 */
function answeredWorld(world: CallWorld, did: TrialWorld | undefined): CallWorld {
  const out: CallWorld = { uses: world.uses, calls: comparedCalls(world).slice(0, did?.calls ?? 0) };
  if (world.sources) out.sources = world.sources;
  if (did?.usesAfter) out.usesAfter = did.usesAfter;
  if (Object.hasOwn(world, 'this')) {
    out.this = world.this;
    if (did && Object.hasOwn(did, 'thisAfter')) out.thisAfter = did.thisAfter;
  }
  return out;
}
