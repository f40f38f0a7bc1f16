import type { Block, Case, CandidateSpec, SandboxLimits, TrialReport, TrialResult } from '../core/types.ts';
import type { SandboxPool } from './sandbox/index.ts';
import { instrumentForCoverage, rankSuspicious } from './localisation/index.ts';
import { generateTemplateCandidates, normaliseSource, type PriorFactors } from './generators/template/index.ts';
import type { LlmGenerator, LlmRepairInput } from './generators/llm/index.ts';
import { editSize, editsSize, unifiedDiff } from '../core/candidate-diff.ts';
import { answerProfile, deriveInvariants, invariantViolation, offKind, scoreCandidate, type AnswerProfile, type BehaviourInvariants } from './scoring/index.ts';
import type { CandidateReport, EngineEvent, RepairResult } from './repair-report.ts';
import {
  assessConfidence, descriptionCases, MovedThrows, notApplied, oracleCases, oracleRule, runBaseline, unusableRedacted, withoutEffects,
  type ConfidenceOptions, type OracleOptions,
} from './oracle/index.ts';
import { unknownFreeNames } from '../core/block-free-names.ts';

export interface RepairOptions {
  /** Sandbox pool the trials run in (shared between jobs). */
  pool: SandboxPool;
  /** Candidate generators to use. @defaultValue ['template'] */
  generators?: ('template' | 'llm')[];
  /** The LLM generator, required when generators includes 'llm'. */
  llm?: LlmGenerator;
  /** Wall-clock budget for the whole search, ms. @defaultValue 30000 */
  budgetMs?: number;
  /** Most candidates tried. @defaultValue 20000 */
  maxCandidates?: number;
  /**
   * Candidates still tried after the first plausible one, so that a smaller or more likely fix found a
   * little later can win over an overfitted early one. @defaultValue 400
   */
  explore?: number;
  /** Trials in flight at once. @defaultValue 2 × pool size */
  concurrency?: number;
  limits?: Partial<SandboxLimits>;
  /**
   * Candidates get a per-case CPU limit of this many times the slowest case of the original (within
   * `minCaseMs` and the configured limit): most mutants that loop forever then cost milliseconds, not seconds.
   * @defaultValue 20
   */
  timeoutFactor?: number;
  /** Floor of the adaptive per-case limit, ms. @defaultValue 50 */
  minCaseMs?: number;
  /** Failed candidates kept in the report (plausible ones are always kept). @defaultValue 200 */
  keepFailed?: number;
  /**
   * The original is the oracle wherever it does not throw: for a bug whose failures are all throws (every
   * case the original fails is a no-throw check, no case is a test script), inputs are generated around the
   * failing inputs and recorded calls, and wherever the original returns normally its answer becomes a case
   * (kind 'generated') every candidate must pass. `false` turns it off. @defaultValue true (40 inputs, seed 1)
   */
  oracle?: boolean | OracleOptions;
  /**
   * After the search, the top plausible candidates are run on generated inputs: when they answer differently
   * the result's confidence is 'low' (see oracle/confidence.ts). `false` skips it (no confidence is set).
   * @defaultValue true (4 candidates, 30 inputs)
   */
  confidence?: boolean | ConfidenceOptions;
  /**
   * Examples in the block's description (`f(2) === 4`, `>>> f(2)` then `4`…) join the cases as kind
   * 'description' (see oracle/description-examples.ts). @defaultValue true
   */
  descriptionExamples?: boolean;
  /** Learned factors per template operator family (engine/generators/template/learned-priors.ts). @defaultValue none */
  priorFactors?: PriorFactors;
  onEvent?: (event: EngineEvent) => void;
  signal?: AbortSignal;
}

/**
 * Fork-and-trial repair of one block: run the original to see what fails, localise, then stream
 * candidates from the generators into sandboxed trials, failing cases first and stopping each
 * candidate at its first failing case, and pick the best plausible one.
 */
export async function repairBlock(block: Block, jobCases: Case[], options: RepairOptions): Promise<RepairResult> {
  const started = performance.now();
  // A name the block reads that no trial defines throws ReferenceError in every trial, whatever the
  // candidate: the only "fixes" a search could find delete the logic that reads it. Say so instead.
  const unseen = unknownFreeNames(block.source, [...(block.uses ?? []), ...(block.absent ?? [])], block.entry);
  if (unseen.length > 0) return cannotSee(jobCases, unseen, started, options.onEvent);
  const fromDescription = options.descriptionExamples === false ? undefined : descriptionCases(block, jobCases);
  let cases = fromDescription?.cases.length ? [...jobCases, ...fromDescription.cases] : jobCases;
  const budgetMs = options.budgetMs ?? 30_000;
  const deadline = started + budgetMs;
  const maxCandidates = options.maxCandidates ?? 20_000;
  const explore = options.explore ?? 400;
  const keepFailed = options.keepFailed ?? 200;
  const generators = options.generators ?? ['template'];
  const emit = options.onEvent ?? (() => {});
  const pool = options.pool;
  let trials = 0;

  const configured = { ...pool.limits, ...options.limits };
  let baseline = await runBaseline(pool, block, cases, configured);
  trials += baseline.trials;
  const failingIds = new Set(baseline.results.filter((r) => r.verdict !== 'pass').map((r) => r.caseId));
  if (baseline.compileError) for (const c of cases) failingIds.add(c.id);
  // A recorded answer that came from a value the SDK redacted cannot be given by any trial (oracle/redacted-cases.ts).
  const redacted = baseline.compileError ? [] : unusableRedacted(cases, failingIds);
  if (redacted.length > 0) {
    const dropped = new Set(redacted.map((r) => r.id));
    cases = cases.filter((c) => !dropped.has(c.id));
    baseline = { ...baseline, results: baseline.results.filter((r) => !dropped.has(r.caseId)) };
    for (const id of dropped) failingIds.delete(id);
  }
  // A dependency's own effects on a uses object (a live moveRight() moving self) are not replayed:
  // replayers answer, they do not act. Where the original fails a known-good case only on the
  // values its world holds after the call, those values are no expectation a trial can hold any
  // candidate to: the case keeps its answer and its calls.
  const effectsOnly = baseline.compileError ? [] : cases.filter((c) => failingIds.has(c.id) && c.check === 'value' && c.kind !== 'failure' && c.world && (c.world.usesAfter !== undefined || 'thisAfter' in c.world));
  let unreplayedEffects = 0;
  if (effectsOnly.length > 0) {
    const stripped = effectsOnly.map((c) => ({ ...c, world: withoutEffects(c.world!) }));
    const rerun = await runBaseline(pool, block, stripped, configured);
    trials += rerun.trials;
    const passing = new Map(rerun.results.filter((r) => r.verdict === 'pass').map((r) => [r.caseId, r]));
    const replaced = new Map(stripped.filter((c) => passing.has(c.id)).map((c) => [c.id, c]));
    cases = cases.map((c) => replaced.get(c.id) ?? c);
    baseline = { ...baseline, results: baseline.results.map((r) => passing.get(r.caseId) ?? r) };
    for (const id of replaced.keys()) failingIds.delete(id);
    unreplayedEffects = replaced.size;
  }
  emit({ type: 'baseline', failing: failingIds.size, total: cases.length });

  const knownGood = cases.filter((c) => c.kind !== 'failure' && c.check !== 'no-throw' && !failingIds.has(c.id)).length;
  // An original that answered (or threw) without ever handing back a thenable answers
  // synchronously, and so must every candidate: the SDK runs its patch synchronously.
  const answered = baseline.results.filter((r) => r.verdict === 'pass' || r.verdict === 'wrong-result' || r.verdict === 'threw');
  const synchronous = answered.length > 0 && answered.every((r) => r.awaited !== true);
  const result: RepairResult = {
    synchronous,
    plausible: false,
    candidates: [],
    baseline,
    cases,
    knownGood,
    warnings: [],
    localisation: [],
    generated: 0,
    tried: 0,
    trials: 0,
    ms: 0,
    stoppedBy: 'exhausted',
  };
  if (redacted.length > 0) {
    const paths = [...new Set(redacted.map((r) => r.path))].join(', ');
    warn(`${redacted.length} recorded call${redacted.length === 1 ? '' : 's'} left out: the input holds a value the SDK redacted (${paths}) and the original does not give the recorded answer without it, so no trial could`);
  }
  if (unreplayedEffects > 0) {
    warn(`${unreplayedEffects} recorded call${unreplayedEffects === 1 ? '' : 's'} judged on answer and calls only: the original does not leave its uses values or receiver as recorded when dependencies are replayed (their own effects are not), so those values are not compared`);
  }
  if (fromDescription && (fromDescription.found > 0 || fromDescription.skipped.length > 0)) {
    result.description = { examples: fromDescription.found, cases: fromDescription.cases.length, skipped: fromDescription.skipped };
  }
  if (failingIds.size === 0) {
    result.stoppedBy = 'nothing-to-repair';
    return finish();
  }

  // The original's answers on inputs around the failing ones join the cases (see oracle-cases.ts).
  const jobInvariants = deriveInvariants(cases);
  // Generated cases never enter the profile, so it is the same before and after the oracle's.
  const profile = answerProfile(cases, failingIds);
  const rule = oracleRule(cases, failingIds, !baseline.compileError);
  if (options.oracle !== false) {
    if (rule.applies) {
      const made = await oracleCases(block, cases, failingIds, pool, configured, jobInvariants, rule.reason, options.oracle === true ? {} : options.oracle, profile);
      trials += made.trials;
      cases = [...cases, ...made.cases];
      baseline = { ...baseline, results: [...baseline.results, ...made.results] };
      result.baseline = baseline;
      result.cases = cases;
      result.oracle = made.report;
    } else {
      result.oracle = notApplied(rule.reason);
    }
    emit({ type: 'oracle', report: result.oracle });
  }
  if (knownGood === 0) {
    const generated = result.oracle?.cases ?? 0;
    warn(`no known-good call: no recorded call of this block passes on the original, so only the failing input${failingIds.size === 1 ? '' : 's'}${generated > 0 ? ` and the original's answers on ${generated} generated input${generated === 1 ? '' : 's'}` : ''} say what a patch must do`);
  }

  const candidateLimits = adaptiveLimits(baseline, configured, options.timeoutFactor ?? 20, options.minCaseMs ?? 50);

  const invariants = result.oracle?.cases ? deriveInvariants(cases) : jobInvariants;
  const noThrowIds = new Set(cases.filter((c) => c.check === 'no-throw').map((c) => c.id));

  // Failing cases first: they reject most candidates on the first trial.
  const ordered = [...cases.filter((c) => failingIds.has(c.id)), ...cases.filter((c) => !failingIds.has(c.id))];

  const localisation = await localise(block, cases, baseline, pool, candidateLimits);
  trials += localisation.trials;
  result.localisation = localisation.ranking;
  emit({ type: 'localised', top: localisation.ranking.slice(0, 5) });

  const firstError = baseline.results.find((r) => r.verdict === 'threw')?.error;
  const seen = new Set<string>([safeNormalise(block.source)]);
  const llmQueue: CandidateSpec[] = [];
  let llmActive = 0;
  let templateIter: Iterator<CandidateSpec> | undefined = generators.includes('template')
    ? generateTemplateCandidates(block, localisation.ranking, { maxCandidates, priorFactors: options.priorFactors }, firstError
        ? { name: firstError.name, message: firstError.message, offset: firstError.offset }
        : undefined)[Symbol.iterator]()
    : undefined;

  const llmInput = generators.includes('llm') && options.llm ? buildLlmInput(block, ordered, baseline) : undefined;
  // When the search ends (budget, abort, nothing left) the job must not wait on a slow endpoint:
  // rounds stop listening at once; the generator's own timeout ends the abandoned requests.
  let stopLlm: () => void = () => {};
  const llmStopped = new Promise<'stopped'>((resolve) => (stopLlm = () => resolve('stopped')));
  const llmRound = async (iterable: AsyncIterable<CandidateSpec>) => {
    llmActive++;
    const iterator = iterable[Symbol.asyncIterator]();
    try {
      while (true) {
        const next = await Promise.race([iterator.next(), llmStopped]);
        if (next === 'stopped') {
          iterator.return?.().catch(() => {});
          return;
        }
        if (next.done) return;
        llmQueue.push(next.value);
      }
    } finally {
      llmActive--;
    }
  };
  const llmRounds: Promise<void>[] = [];
  // The generator may be shared between jobs: report this job's share of its usage.
  const usageBefore = options.llm?.usage();
  if (llmInput && options.llm) llmRounds.push(llmRound(options.llm.generate(llmInput)));
  let refined = false;

  // Candidates that fixed the first throw site but throw further on: followed up if nothing is plausible
  // (bugs that are throws only, as for the oracle rule; tests and expected values judge the others).
  const moved = new MovedThrows(new Map(baseline.results.filter((r) => failingIds.has(r.caseId)).map((r) => [r.caseId, r.error])));
  let followedUp = !generators.includes('template') || !rule.applies;

  let firstPlausibleTried: number | undefined;
  let inFlight = 0;
  let failedKept = 0;
  const concurrency = options.concurrency ?? Math.max(2, pool.size * 2);

  const nextSpec = (): CandidateSpec | undefined => {
    while (true) {
      let spec = llmQueue.shift();
      if (!spec && templateIter) {
        const n = templateIter.next();
        if (n.done) templateIter = undefined;
        else spec = n.value;
      }
      if (!spec) return undefined;
      const key = safeNormalise(spec.source);
      if (seen.has(key)) continue;
      seen.add(key);
      result.generated++;
      return spec;
    }
  };

  const stopReason = (): RepairResult['stoppedBy'] | undefined => {
    if (options.signal?.aborted) return 'aborted';
    if (performance.now() > deadline) return 'budget';
    if (result.tried >= maxCandidates) return 'candidate-limit';
    if (firstPlausibleTried !== undefined && result.tried >= firstPlausibleTried + explore && llmActive === 0) return 'converged';
    return undefined;
  };

  const tryOne = async (spec: CandidateSpec): Promise<void> => {
    const rank = ++result.tried;
    const report: TrialReport = await pool.run({ block: { ...block, source: spec.source }, cases: ordered, limits: candidateLimits, stopOnFirstFailure: true, synchronous });
    trials += report.results.length;
    applyInvariants(report.results, noThrowIds, invariants);
    const passed = countLeadingPasses(report.results);
    const plausible = !report.compileError && passed === ordered.length;
    const candidate: CandidateReport = {
      rank,
      generator: spec.generator,
      description: spec.description,
      prior: spec.prior,
      suspect: spec.suspect ?? false,
      source: spec.source,
      diff: '',
      // Character diffs cost more than the rest of a failed candidate's bookkeeping, and only
      // plausible candidates are ranked by size: work it out on first read.
      get editSize(): number {
        const size = spec.edits?.length ? editsSize(block.source, spec.edits) : editSize(block.source, spec.source);
        Object.defineProperty(this, 'editSize', { value: size, enumerable: true, writable: true, configurable: true });
        return size;
      },
      status: report.compileError ? 'compile-error' : plausible ? 'plausible' : 'failed',
      passed,
      total: ordered.length,
      trials: report.results,
      ms: report.ms,
      compileError: report.compileError,
    };
    if (plausible) {
      candidate.diff = unifiedDiff(block.source, spec.source);
      candidate.score = scoreCandidate(candidate);
      const why = profile && answersOffKind(report.results, noThrowIds, profile);
      if (why) {
        candidate.offKind = why;
        if (!answersOffKind(report.results, noThrowIds, profile!, { emptiness: false })) candidate.offKindEmptyOnly = true;
      }
      if (firstPlausibleTried === undefined) {
        firstPlausibleTried = rank;
        result.firstPlausibleMs = performance.now() - started;
      }
      result.candidates.push(candidate);
      emit({ type: 'plausible', candidate });
    } else {
      moved.consider(candidate);
    }
    if (!plausible && failedKept < keepFailed) {
      failedKept++;
      candidate.diff = unifiedDiff(block.source, spec.source);
      result.candidates.push(candidate);
    }
    emit({ type: 'candidate', candidate });
  };

  // A fixed number of lanes pull candidates until the search stops; LLM candidates jump the queue.
  const lane = async (): Promise<void> => {
    while (true) {
      const reason = stopReason();
      if (reason) {
        if (result.stoppedBy === 'exhausted') result.stoppedBy = reason;
        return;
      }
      const spec = nextSpec();
      if (!spec) {
        if (llmActive > 0) {
          await delay(20);
          continue;
        }
        // Refine only once every round-one candidate has been judged: one of them may still turn plausible.
        if (inFlight > 0 && llmInput && !refined) {
          await delay(20);
          continue;
        }
        if (llmInput && options.llm && !refined && firstPlausibleTried === undefined) {
          refined = true;
          llmRounds.push(llmRound(options.llm.refine(llmInput, feedbackFrom(result.candidates))));
          continue;
        }
        if (!followedUp && firstPlausibleTried === undefined) {
          if (inFlight > 0) {
            await delay(20);
            continue;
          }
          followedUp = true;
          if (moved.size > 0) {
            templateIter = moved.followUps(block)[Symbol.iterator]();
            continue;
          }
        }
        return;
      }
      inFlight++;
      try {
        await tryOne(spec);
      } finally {
        inFlight--;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  stopLlm();
  await Promise.allSettled(llmRounds);
  if (options.llm && llmInput && usageBefore) {
    const u = options.llm.usage();
    result.llm = {
      requests: u.requests - usageBefore.requests,
      failures: u.failures - usageBefore.failures,
      promptTokens: u.promptTokens - usageBefore.promptTokens,
      completionTokens: u.completionTokens - usageBefore.completionTokens,
      costUsd: u.costUsd - usageBefore.costUsd,
    };
  }
  const ranked = rankPlausible(result.candidates);
  if (ranked.length > 0 && options.confidence !== false && !options.signal?.aborted) {
    const assessed = await assessConfidence(block, cases, failingIds, ranked, pool, candidateLimits, synchronous, options.confidence === true ? {} : options.confidence, profile);
    trials += assessed.trials;
    result.confidence = assessed.confidence;
    emit({ type: 'confidence', confidence: assessed.confidence });
  }
  return finish();

  function warn(message: string) {
    result.warnings.push(message);
    emit({ type: 'warning', message });
  }

  function finish(): RepairResult {
    const plausible = rankPlausible(result.candidates);
    result.winner = plausible[0];
    result.plausible = plausible.length > 0;
    result.candidates.sort((a, b) => a.rank - b.rank);
    result.trials = trials;
    result.ms = performance.now() - started;
    emit({ type: 'done', result });
    return result;
  }
}

/**
 * Plausible candidates, best first: those whose answers keep the kind of the known-good answers before those
 * that do not (scoring/answer-kinds.ts), then by score, then in trial order.
 */
function rankPlausible(candidates: readonly CandidateReport[]): CandidateReport[] {
  return candidates
    .filter((c) => c.status === 'plausible')
    .sort((a, b) => Number(a.offKind !== undefined) - Number(b.offKind !== undefined) || (a.score ?? 0) - (b.score ?? 0) || a.rank - b.rank);
}

/** Why a plausible candidate's answer on some no-throw case is off kind (the first such case), or undefined. */
function answersOffKind(results: readonly TrialResult[], noThrowIds: ReadonlySet<string>, profile: AnswerProfile, options: { emptiness?: boolean } = {}): string | undefined {
  for (const r of results) {
    if (!noThrowIds.has(r.caseId) || r.verdict !== 'pass') continue;
    const why = offKind(profile, r.actual, options);
    if (why) return `${r.caseId}: ${why}`;
  }
  return undefined;
}

function cannotSee(cases: Case[], unseen: string[], started: number, onEvent: RepairOptions['onEvent']): RepairResult {
  const warning = `the block reads ${unseen.join(', ')}, which ${unseen.length === 1 ? 'is' : 'are'} not declared in it, not a standard global and not in its uses: a trial cannot see ${unseen.length === 1 ? 'it' : 'them'}, so no search was run (pass ${unseen.length === 1 ? 'it' : 'them'} in uses)`;
  const result: RepairResult = {
    plausible: false,
    synchronous: false,
    candidates: [],
    baseline: { results: [], ms: 0 },
    cases,
    knownGood: 0,
    warnings: [warning],
    localisation: [],
    generated: 0,
    tried: 0,
    trials: 0,
    ms: performance.now() - started,
    stoppedBy: 'cannot-see',
    cannotSee: unseen,
  };
  onEvent?.({ type: 'warning', message: warning });
  onEvent?.({ type: 'done', result });
  return result;
}

async function localise(block: Block, cases: Case[], baseline: TrialReport, pool: SandboxPool, limits?: Partial<SandboxLimits>) {
  const throwOffsets = baseline.results.flatMap((r) => (r.error?.offset !== undefined ? [r.error.offset] : []));
  let runs: { passed: boolean; covered: number[] }[] = [];
  let probes: ReturnType<typeof instrumentForCoverage>['probes'] = [];
  let trials = 0;
  try {
    const instrumented = instrumentForCoverage(block);
    probes = instrumented.probes;
    const report = await pool.run({ block: instrumented.block, cases, limits, coverage: true });
    trials = report.results.length;
    if (!report.compileError) {
      const byId = new Map(report.results.map((r) => [r.caseId, r]));
      runs = baseline.results.map((r) => ({ passed: r.verdict === 'pass', covered: byId.get(r.caseId)?.covered ?? [] }));
    }
  } catch {
    // Source the instrumenter cannot handle still gets a uniform ranking below.
  }
  return { ranking: rankSuspicious(probes, runs, throwOffsets), trials };
}

function adaptiveLimits(baseline: TrialReport, limits: SandboxLimits, factor: number, floorMs: number): Partial<SandboxLimits> {
  const configuredCpu = limits.cpuMs;
  const configuredWall = limits.wallMs;
  const measured = baseline.results.filter((r) => r.verdict !== 'timeout' && r.verdict !== 'crashed').map((r) => r.ms);
  // Nothing finished in time (the bug is an endless loop): give candidates the probe limit.
  if (measured.length === 0) return { ...limits, cpuMs: Math.min(configuredCpu, floorMs * 4), wallMs: Math.min(configuredWall, floorMs * 8) };
  const cpuMs = Math.min(configuredCpu, Math.max(floorMs, Math.ceil(Math.max(...measured) * factor)));
  return { ...limits, cpuMs, wallMs: Math.min(configuredWall, Math.max(cpuMs * 2, floorMs * 4)) };
}

function buildLlmInput(block: Block, ordered: Case[], baseline: TrialReport): LlmRepairInput {
  const byId = new Map(baseline.results.map((r) => [r.caseId, r]));
  const failing: LlmRepairInput['failing'] = [];
  const passing: LlmRepairInput['passing'] = [];
  for (const c of ordered) {
    const r = byId.get(c.id);
    if (r && r.verdict !== 'pass') {
      if (failing.length < 5) failing.push({ args: c.args, script: c.script, expected: c.expect, actual: r.actual, error: r.error ? `${r.error.name}: ${r.error.message}` : r.verdict });
    } else if (passing.length < 3) {
      passing.push({ args: c.args, script: c.script, expected: c.expect });
    }
  }
  const err = baseline.results.find((r) => r.error)?.error;
  return { block, description: block.description, error: err ? { name: err.name, message: err.message, stack: err.stack } : undefined, failing, passing };
}

function feedbackFrom(candidates: CandidateReport[]) {
  return candidates
    .filter((c) => c.generator.startsWith('llm:') && c.status !== 'plausible')
    .sort((a, b) => b.passed - a.passed)
    .slice(0, 3)
    .map((c) => ({ source: c.source, failures: c.trials.filter((t) => t.verdict !== 'pass').map(describeFailure) }));
}

export function describeFailure(t: TrialResult): string {
  if (t.verdict === 'replay-miss') return `${t.caseId}: unverifiable (replay miss): ${t.error?.message ?? 'a dependency call the recorded calls cannot answer'}`;
  if (t.error) return `${t.caseId}: ${t.verdict} ${t.error.name}: ${t.error.message}`;
  if (t.verdict === 'wrong-result') return `${t.caseId}: wrong result ${JSON.stringify(t.actual)?.slice(0, 200)}`;
  return `${t.caseId}: ${t.verdict}`;
}

/** A no-throw pass that breaks what known-good calls show (NaN, a missing result) counts as a wrong result. */
function applyInvariants(results: TrialResult[], noThrowIds: Set<string>, invariants: BehaviourInvariants) {
  for (let i = 0; i < results.length; i++) {
    const r = results[i];
    if (!noThrowIds.has(r.caseId)) continue;
    const why = invariantViolation(invariants, r);
    if (why) {
      results[i] = { ...r, verdict: 'wrong-result', error: { name: 'InvariantViolation', message: why } };
      results.length = i + 1;
      return;
    }
  }
}

function countLeadingPasses(results: TrialResult[]): number {
  let n = 0;
  for (const r of results) {
    if (r.verdict !== 'pass') break;
    n++;
  }
  return n;
}

function safeNormalise(source: string): string {
  try {
    return normaliseSource(source);
  } catch {
    return source;
  }
}

function delay(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
