/**
 * Refusing to guess. Plausible means "passes every case we have", and when several plausible candidates
 * behave differently elsewhere the cases did not decide between them: the ranking (prior, edit size) picked
 * one, and on bugs it was never tuned on that pick is often the overfitted one. So after the search the top
 * plausible candidates are run on inputs generated around the job's own inputs (input-variations.ts; the
 * arguments of value and no-throw cases, and the literal arguments of the entry's calls in test scripts),
 * and their answers compared:
 *
 * - one behaviour on every input (or a single plausible candidate): confidence 'high';
 * - two or more behaviours: confidence 'low', with the inputs they disagree on and each candidate's answer.
 *   A candidate marked suspect (a known overfitting shape) does not count against a winner that is not: the
 *   ranking has a reason to put it last. Inputs on which a candidate hit a limit are not compared.
 * - candidates that differ in source but no input could be generated to compare them: 'low' too, since
 *   nothing shows they agree.
 * - answers of another kind (scoring/answer-kinds.ts): a winner whose answer on a failing input is of a kind
 *   no known-good answer has (a number where they are all strings, a field left undefined, text showing
 *   `undefined`) is 'low' however many candidates agree (an empty list or string where they hold something
 *   only orders candidates: "none" is an everyday right answer for missing data): a guard returning a constant of another kind, or an
 *   optional chain that lets a missing value through, agrees with its own variants. Like a suspect, a
 *   candidate whose answers are off kind does not count against a winner whose answers are not. On a
 *   generated input, an answer of another kind and a throw count as the same answer: one candidate throwing
 *   where another lets `undefined` through is no disagreement about what the block should answer. (A winner
 *   is not made 'low' by its own off-kind answers there: a made-up input, a null e-mail, shows up in the
 *   answer of the right patch as much as in a wrong one's.)
 *
 * Nothing here changes which candidate wins; a low-confidence winner is published only with approval.
 */
import type { Block, Case, Encoded, SandboxLimits, TrialResult } from '../../core/types.ts';
import type { SandboxPool } from '../sandbox/index.ts';
import type { CandidateReport, RepairConfidence } from '../repair-report.ts';
import { generateInputs, type InputSeed } from './input-variations.ts';
import { encodedKind, literalCallArguments } from './literal-values.ts';
import { jobWorlds, withoutEffects } from './oracle-cases.ts';
import { readPaths } from './read-paths.ts';
import { offKind, type AnswerProfile } from '../scoring/index.ts';

export interface ConfidenceOptions {
  /** Plausible candidates compared, the winner included. @defaultValue 4 */
  compare?: number;
  /** Inputs generated. @defaultValue 30 */
  maxInputs?: number;
  /** Disagreeing inputs kept in the report. @defaultValue 5 */
  keep?: number;
  seed?: number;
}

/**
 * The confidence of a search whose plausible candidates are `ranked` (best first, the winner at 0), and the
 * trials it took.
 */
export async function assessConfidence(
  block: Block,
  cases: readonly Case[],
  failingIds: ReadonlySet<string>,
  ranked: readonly CandidateReport[],
  pool: SandboxPool,
  limits: Partial<SandboxLimits>,
  synchronous: boolean,
  options: ConfidenceOptions = {},
  profile?: AnswerProfile,
): Promise<{ confidence: RepairConfidence; trials: number }> {
  const winner = ranked[0];
  const distinct = new Set<string>();
  const compared = ranked.filter((c) => {
    if (c !== winner && c.suspect && !winner.suspect) return false;
    if (c !== winner && c.offKind !== undefined && !c.offKindEmptyOnly && (winner.offKind === undefined || winner.offKindEmptyOnly)) return false;
    if (distinct.has(c.source)) return false;
    distinct.add(c.source);
    return true;
  }).slice(0, options.compare ?? 4);
  const base = { compared: compared.map((c) => c.rank), inputs: 0, disagreements: [] };
  if (winner.offKind !== undefined && !winner.offKindEmptyOnly) {
    return { confidence: { level: 'low', reason: `the winner answers unlike every known-good call: ${winner.offKind}`, ...base }, trials: 0 };
  }
  if (compared.length < 2) {
    const reason = ranked.length === 1 ? 'a single plausible candidate' : 'the other plausible candidates are known overfitting shapes or answer unlike every known-good call';
    return { confidence: { level: 'high', reason, ...base }, trials: 0 };
  }

  // A block that reads outside names answers in a world: the job's first (a known-good call's when
  // there is one). A probe whose calls its log cannot answer is a replay miss, and not compared. A block
  // that reads its receiver gets receivers varied too: the receiver is one more argument to the generator
  // (the last), and each probe's world gets its own.
  const [world] = jobWorlds(cases, failingIds);
  const receiver = world !== undefined && Object.hasOwn(world, 'this') && readsReceiver(block);
  const seeds = seedsOf(block, cases, failingIds, receiver);
  const kinds = seenKinds(seeds);
  // Generated generously, then only those within the types the job's own inputs show: a null or a string
  // where every call passed a number is outside what the caller's calls say the block is for.
  const max = options.maxInputs ?? 30;
  const inputs = generateInputs(seeds, readPaths(block, { receiver }), { max: max * 4, seed: options.seed }).filter((input) => withinKinds(input.args, kinds)).slice(0, max);
  if (inputs.length === 0) {
    return { confidence: { level: 'low', reason: `${compared.length} plausible candidates differ in source and no input could be generated to compare them on`, ...base }, trials: 0 };
  }
  const probes: Case[] = inputs.map((input, i) => {
    const probe: Case = { id: `confidence-${i + 1}`, kind: 'generated', check: 'no-throw', args: receiver ? input.args.slice(0, -1) : input.args };
    if (world) probe.world = receiver ? { ...withoutEffects(world), this: input.args[input.args.length - 1] } : withoutEffects(world);
    return probe;
  });
  let trials = 0;
  const answers: (string | undefined)[][] = [];
  for (const candidate of compared) {
    const report = await pool.run({ block: { ...block, source: candidate.source }, cases: probes, limits, synchronous });
    trials += report.results.length;
    const byId = new Map(report.results.map((r) => [r.caseId, r]));
    answers.push(probes.map((p) => (report.compileError ? undefined : answerOf(byId.get(p.id), p.args!, profile))));
  }

  const disagreeing: number[] = [];
  probes.forEach((_, i) => {
    const seen = answers.map((a) => a[i]).filter((a): a is string => a !== undefined);
    if (new Set(seen).size > 1) disagreeing.push(i);
  });
  const compareBase = { ...base, inputs: probes.length };
  if (disagreeing.length === 0) {
    return { confidence: { level: 'high', reason: `the ${compared.length} top plausible candidates answer alike on ${probes.length} generated inputs`, ...compareBase }, trials };
  }
  const against = compared.filter((_, k) => k > 0 && disagreeing.some((i) => answers[k][i] !== undefined && answers[0][i] !== undefined && answers[k][i] !== answers[0][i]));
  const keep = options.keep ?? 5;
  return {
    confidence: {
      level: 'low',
      reason: `plausible candidates answer differently on ${disagreeing.length} of ${probes.length} generated inputs and no case decides between them`,
      ...compareBase,
      alternatives: against.map((c) => ({ rank: c.rank, generator: c.generator, description: c.description })),
      disagreements: disagreeing.slice(0, keep).map((i) => ({
        args: inputs[i].args,
        how: inputs[i].how,
        answers: compared.map((c, k) => ({ rank: c.rank, answer: answers[k][i] ?? 'no answer (limit)' })),
      })),
    },
    trials,
  };
}

/** Whether the block's function reads its own `this` (not only a nested function's). */
function readsReceiver(block: Block): boolean {
  return readPaths(block, { receiver: true }).paths.some((p) => p.arg === readPaths(block).params.length);
}

const NO_ANSWER_OF_THE_KIND = 'throws, or answers unlike every known-good call';

/**
 * A comparable summary of one answer; undefined for a limit (time, memory, crash) or a missing row. With a
 * profile of the known-good answers, a throw and an answer of another kind are one and the same summary.
 */
function answerOf(r: TrialResult | undefined, args: readonly Encoded[], profile?: AnswerProfile): string | undefined {
  if (!r) return undefined;
  if (profile && (r.verdict === 'threw' || (r.verdict === 'pass' && offKind(profile, r.actual, { emptiness: false }) !== undefined))) return NO_ANSWER_OF_THE_KIND;
  if (r.verdict === 'pass') {
    const value = JSON.stringify(r.actual === undefined ? { $t: 'undefined' } : r.actual);
    const after = r.actualArgsAfter ? JSON.stringify(r.actualArgsAfter) : undefined;
    return after !== undefined && after !== JSON.stringify(args) ? `${value} (arguments after: ${after})` : value;
  }
  if (r.verdict === 'threw') return `throws ${r.error?.name ?? 'Error'}`;
  if (r.verdict === 'wrong-result') return `wrong result ${JSON.stringify(r.actual)}`;
  return undefined;
}

/**
 * The job's own inputs: value and no-throw case arguments, and literal call arguments of the entry in scripts;
 * with `receiver`, each case's receiver (`world.this`) after its arguments (cases without one are left out).
 */
function seedsOf(block: Block, cases: readonly Case[], failingIds: ReadonlySet<string>, receiver = false): InputSeed[] {
  const seeds: InputSeed[] = [];
  const seen = new Set<string>();
  const add = (args: Encoded[], failing: boolean) => {
    const key = JSON.stringify(args);
    if (seen.has(key)) return;
    seen.add(key);
    seeds.push({ args, failing });
  };
  for (const c of cases) {
    if (receiver) {
      if (c.args && c.world && Object.hasOwn(c.world, 'this')) add([...c.args, c.world.this as Encoded], failingIds.has(c.id));
    } else if (c.args) add(c.args, failingIds.has(c.id));
    else if (c.script && block.entry) for (const args of literalCallArguments(c.script, block.entry)) add(args, failingIds.has(c.id));
  }
  return seeds;
}

interface SeenKinds {
  /** Per argument position: the kinds seen there. */
  args: Set<string>[];
  /** Per argument position: the kinds of array elements seen there. */
  elements: Set<string>[];
}

function seenKinds(seeds: readonly InputSeed[]): SeenKinds {
  const out: SeenKinds = { args: [], elements: [] };
  for (const seed of seeds) {
    seed.args.forEach((arg, i) => {
      (out.args[i] ??= new Set()).add(encodedKind(arg));
      if (Array.isArray(arg)) for (const item of arg) (out.elements[i] ??= new Set()).add(encodedKind(item));
    });
  }
  return out;
}

/** Every argument of a kind seen at its position (array elements too, when elements were seen there). */
function withinKinds(args: readonly Encoded[], kinds: SeenKinds): boolean {
  return args.every((arg, i) => {
    if (!kinds.args[i]?.has(encodedKind(arg))) return false;
    const elements = kinds.elements[i];
    return !Array.isArray(arg) || !elements || arg.every((item) => elements.has(encodedKind(item)));
  });
}
