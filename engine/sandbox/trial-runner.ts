/**
 * Runs one candidate on its cases inside isolated-vm. Lives in a sandbox host process (see
 * sandbox-host.ts), never in the worker itself: a V8 out-of-memory abort takes the whole process
 * down, and it must be a process we can lose.
 *
 * One isolate per runner, holding one hardened context: SES, the snapshot codec, the hardened
 * realm and the harness are set up in it, then `lockdown()` freezes every intrinsic. Each request
 * evaluates its candidate in a compartment of its own (a fresh global object, nothing shared it
 * can change), so one candidate sees nothing of the previous one, and none can reach the harness
 * that encodes its results. Cases go in as JSON strings and results come out as JSON strings (no
 * References or callbacks are ever handed to sandboxed code). The comparison with the expectation
 * happens out here, so a candidate can't vouch for itself.
 */
import { readFileSync } from 'node:fs';
import ivm from 'isolated-vm';
import type { Block, Case, SandboxLimits, TrialError, TrialReport, TrialRequest, TrialResult } from '../../core/types.ts';
import { normaliseSnapshot, snapshotEqual } from '../../core/snapshot.ts';
import { BLOCK_PREFIX_LINES, REALM_SETUP_SCRIPTS } from '../../core/hardened-realm.ts';
import { offsetOfPosition } from './source-position.ts';
import { callVerdict, effectsVerdict, replayPayload, trialWorld, WorldError, type HarnessWorld, type ReplayPayload } from './world-replay.ts';
import { blockNames, type BlockNames } from '../../core/block-free-names.ts';
import { callGlobalOnce, IsolateSlot, runScripts, type IsolateRealm } from '../../core/isolate-lifecycle.ts';

const HARNESS_SOURCE = readFileSync(new URL('./sandbox-harness.js', import.meta.url), 'utf8');
const SETUP_SCRIPTS = [...REALM_SETUP_SCRIPTS, { code: HARNESS_SOURCE, filename: 'sandbox-harness.js' }];

/** A compile-only check of a candidate that did not evaluate: the block's text starts on line 2. */
const STRICT_PREFIX = '"use strict";\n';
/** Our own set-up (lockdown included) is bounded, so a poisoned isolate cannot hang it. */
const SETUP_TIMEOUT_MS = 5000;
/** Recycle the isolate after this many requests or when its heap stays over half the limit. */
const MAX_REQUESTS_PER_ISOLATE = 2000;
/** Requests between asynchronous visits to the isolate (see #maybeRecycle). */
const ASYNC_VISIT_EVERY = 4;

/**
 * A V8 start-up snapshot in which SES, the codec, the realm and the harness scripts have run
 * (lockdown cannot be in it: V8 must still write to the intrinsics of each new context), so a new
 * isolate skips compiling half a megabyte of SES. Built once per process; null where isolated-vm
 * can't make one.
 */
let setupSnapshot: ivm.ExternalCopy<ArrayBuffer> | null | undefined;

function harnessSnapshot(): ivm.ExternalCopy<ArrayBuffer> | null {
  if (setupSnapshot === undefined) {
    try {
      setupSnapshot = ivm.Isolate.createSnapshot(SETUP_SCRIPTS);
    } catch {
      setupSnapshot = null;
    }
  }
  return setupSnapshot;
}

type Settled<T> = { kind: 'value'; value: T } | { kind: 'error'; error: unknown } | { kind: 'wall' };

function settleWithin<T>(promise: Promise<T>, ms: number): Promise<Settled<T>> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ kind: 'wall' }), ms);
    promise.then(
      (value) => { clearTimeout(timer); resolve({ kind: 'value', value }); },
      (error: unknown) => { clearTimeout(timer); resolve({ kind: 'error', error }); },
    );
  });
}

function settleSync<T>(f: () => T): Settled<T> {
  try {
    return { kind: 'value', value: f() };
  } catch (error) {
    return { kind: 'error', error };
  }
}

/** The hardened context of the current isolate and the harness entry points the host calls. */
interface Realm extends IsolateRealm {
  context: ivm.Context;
  load: ivm.Reference<(loadJson: string) => string>;
  run: ivm.Reference<(caseJson: string) => string>;
  finish: ivm.Reference<() => Promise<string>>;
  drop: ivm.Reference<() => void>;
}

type PrepareResult = { ok: true; realm: Realm } | { ok: false; error: TrialError; verdict: 'threw' | 'timeout' | 'memory' };

/** What the harness hands back for one case. */
interface HarnessResult {
  status: 'returned' | 'threw' | 'too-large';
  actual?: unknown;
  argsAfter?: unknown[];
  error?: TrialError;
  covered?: number[];
  bytes?: number;
  /** A thenable answer of a block known to answer synchronously (not awaited). */
  thenable?: boolean;
  /** The answer was a thenable and was awaited. */
  awaited?: boolean;
  /** For a case with a world: calls answered, the first miss, values after the run. */
  world?: HarnessWorld;
}

export class TrialRunner {
  /** The runner's isolate, kept by the rules of core/isolate-lifecycle.ts. */
  readonly #slot: IsolateSlot<Realm>;
  #requestsOnIsolate = 0;

  /**
   * @param useSnapshot - start isolates from a start-up snapshot holding SES, codec, realm and
   * harness (falls back to running the scripts in each new isolate when isolated-vm can't make one).
   * @defaultValue true
   */
  constructor(readonly useSnapshot = true) {
    // harnessSnapshot() is made once per process: both callbacks see the same answer.
    this.#slot = new IsolateSlot<Realm>(
      (memoryMb) => {
        const snapshot = this.useSnapshot ? harnessSnapshot() : null;
        return new ivm.Isolate({
          memoryLimit: memoryMb,
          ...(snapshot ? { snapshot } : {}),
          // isolated-vm: after this, nothing in the process can be trusted; the pool restarts us.
          onCatastrophicError: () => process.exit(70),
        });
      },
      (iso) => {
        const context = iso.createContextSync();
        if (!(this.useSnapshot && harnessSnapshot())) runScripts(iso, context, SETUP_SCRIPTS, SETUP_TIMEOUT_MS);
        const ref = <T>(name: string) => context.global.getSync(name, { reference: true }) as ivm.Reference<T>;
        callGlobalOnce(context, '__sutureInit', SETUP_TIMEOUT_MS);
        const realm = { context, load: ref<(loadJson: string) => string>('__sutureLoad'), run: ref<(caseJson: string) => string>('__sutureRunSync'), finish: ref<() => Promise<string>>('__sutureFinish'), drop: ref<() => void>('__sutureDrop') };
        this.#requestsOnIsolate = 0;
        return { ...realm, handles: [realm.load, realm.run, realm.finish, realm.drop, context] };
      },
    );
  }

  /** Isolates created so far (1 + replacements after memory blow-ups, stuck code, recycling). */
  get isolatesCreated(): number {
    return this.#slot.created;
  }

  /**
   * Run a request. `onResult` sees each finished case's result before the next case starts, so a
   * parent that loses this process mid-request still has the finished cases; the last result is
   * only in the report (one message fewer per request, and most requests have one case).
   */
  async run(request: TrialRequest, limits: SandboxLimits, onResult?: (result: TrialResult) => void): Promise<TrialReport> {
    const started = performance.now();
    const results: TrialResult[] = [];
    const block = request.block;
    const cases = Array.isArray(request.cases) ? request.cases : [];
    const coverage = request.coverage === true;
    const names = blockNames(block.source, block.entry === undefined || block.entry === '');
    const worldOf = caseWorlds(block);
    let firstWorld: ReplayPayload | undefined;
    for (const c of cases) {
      const w = worldOf(c);
      if (w !== undefined && !(w instanceof WorldError)) {
        firstWorld = w;
        break;
      }
    }
    let realm: Realm | null = null;
    let unsent: TrialResult | undefined;
    let tainted = false;
    const flush = () => {
      if (unsent !== undefined) onResult?.(unsent);
      unsent = undefined;
    };
    try {
      const first = this.#prepare(block, limits, names, coverage, firstWorld);
      if (!first.ok) {
        if (first.verdict !== 'threw') tainted = true;
        return { compileError: first.error, results, ms: performance.now() - started };
      }
      realm = first.realm;
      for (const c of cases) {
        flush();
        if (realm === null) {
          // The isolate was replaced (memory blow-up or stuck code): rebuild the candidate in a new one.
          const again = this.#prepare(block, limits, names, coverage, firstWorld);
          if (!again.ok) {
            const r: TrialResult = { caseId: c.id, verdict: again.verdict === 'threw' ? 'crashed' : again.verdict, ms: 0, error: again.error };
            results.push(r);
            unsent = r;
            if (request.stopOnFirstFailure) break;
            continue;
          }
          realm = again.realm;
        }
        const world = worldOf(c);
        if (world instanceof WorldError) {
          const r: TrialResult = { caseId: c.id, verdict: 'crashed', ms: 0, error: { name: world.name, message: world.message } };
          results.push(r);
          unsent = r;
          if (request.stopOnFirstFailure) break;
          continue;
        }
        const { result, lost } = await this.#runCase(realm, block, c, limits, coverage, request.synchronous === true, world);
        if (lost) realm = null;
        // Code stopped by a limit can leave work behind in the isolate (a queue of ten million
        // promise reactions, a heap near its limit) that would land on the next candidate.
        if (result.verdict === 'timeout' || result.verdict === 'memory') tainted = true;
        results.push(result);
        unsent = result;
        if (request.stopOnFirstFailure && result.verdict !== 'pass') break;
      }
      return { results, ms: performance.now() - started };
    } catch (error) {
      flush();
      throw error;
    } finally {
      if (realm !== null && !tainted) {
        try {
          realm.drop.applySync(undefined, [], { timeout: SETUP_TIMEOUT_MS });
        } catch {
          tainted = true;
        }
      }
      if (tainted) this.#dropIsolate();
      else await this.#maybeRecycle();
    }
  }

  /** Create the isolate and its hardened context ahead of the first request. */
  warm(memoryMb: number): void {
    this.#ensureRealm(Math.max(8, Math.round(memoryMb)));
  }

  dispose(): void {
    this.#dropIsolate();
  }

  #ensureRealm(memoryMb: number): Realm {
    return this.#slot.realm(memoryMb);
  }

  #dropIsolate(): void {
    this.#slot.drop();
  }

  async #maybeRecycle(): Promise<void> {
    if (this.#slot.current === null) return;
    this.#requestsOnIsolate++;
    if (this.#requestsOnIsolate >= MAX_REQUESTS_PER_ISOLATE) {
      this.#dropIsolate();
      return;
    }
    // The asynchronous visit also lets the isolate run V8's pending tasks (incremental GC of the
    // released compartments).
    if (this.#requestsOnIsolate % ASYNC_VISIT_EVERY === 0) await this.#slot.dropIfHeapFull();
  }

  /** Evaluate the candidate in a fresh compartment of the hardened context; the entry function bound. */
  #prepare(block: Block, limits: SandboxLimits, names: BlockNames, coverage: boolean, world?: ReplayPayload): PrepareResult {
    const realm = this.#ensureRealm(limits.memoryMb);
    const entryless = block.entry === undefined || block.entry === '';
    // The candidate's top level runs synchronously: nothing there can wait on a promise, so the
    // time limit alone bounds it, and an async call would cost a thread round trip.
    const syncTimeout = Math.min(limits.cpuMs, limits.wallMs);
    const loadJson = JSON.stringify({ source: block.source, entry: entryless ? '' : block.entry, names: names.topLevel, free: names.free, coverage, ...(world ? { world } : {}) });
    const loaded = settleSync(() => realm.load.applySync(undefined, [loadJson], { timeout: syncTimeout, result: { copy: true } }));
    if (loaded.kind !== 'value') {
      const problem = this.#classifyFailureSync(loaded, limits);
      return { ok: false, verdict: problem.verdict === 'crashed' ? 'threw' : problem.verdict, error: withOffset(withStackPosition(problem.error), block.source) };
    }
    const answer = JSON.parse(String(loaded.value)) as { ok: boolean; error?: TrialError & { sesRejection?: boolean } };
    if (answer.ok) return { ok: true, realm };
    const error = answer.error ?? { name: 'EntryNotFound', message: 'entry not found' };
    if (error.name === 'SyntaxError' && !error.sesRejection) return { ok: false, verdict: 'threw', error: this.#syntaxError(block, entryless, error) };
    delete error.sesRejection;
    return { ok: false, verdict: 'threw', error: withOffset(error, block.source) };
  }

  /** V8's position of a syntax error: compile (never run) the block as strict code on its own. */
  #syntaxError(block: Block, entryless: boolean, fallback: TrialError): TrialError {
    const iso = this.#slot.isolate;
    if (iso === null || iso.isDisposed) return { name: fallback.name, message: fallback.message };
    try {
      const script = iso.compileScriptSync(entryless ? `${STRICT_PREFIX}(${block.source}\n);` : STRICT_PREFIX + block.source, { filename: 'block.js', lineOffset: -1 });
      script.release();
    } catch (e) {
      return syntaxErrorInfo(e, block.source);
    }
    return { name: fallback.name, message: fallback.message };
  }

  async #runCase(realm: Realm, block: Block, c: Case, limits: SandboxLimits, coverage: boolean, synchronous: boolean, world?: ReplayPayload): Promise<{ result: TrialResult; lost: boolean }> {
    const started = performance.now();
    const payload = JSON.stringify({
      ...(world ? { world } : {}),
      check: c.check,
      args: c.args ?? [],
      script: c.script ?? '',
      argsAfter: c.argsAfter !== undefined || c.check === 'no-throw',
      coverage,
      synchronous,
      maxResultBytes: limits.maxResultBytes,
    });
    // The call itself runs synchronously (a thread round trip saved per case): with no waiting
    // possible, the smaller of the two limits bounds it, as for the candidate's top level.
    const syncLimit = Math.min(limits.cpuMs, limits.wallMs);
    let settled: Settled<string> = settleSync(() => realm.run.applySync(undefined, [payload], { timeout: syncLimit, result: { copy: true } }));
    if (settled.kind === 'value' && settled.value === '') {
      // The value is a thenable: wait for it asynchronously, under what is left of both limits.
      const spent = performance.now() - started;
      const call = realm.finish.apply(undefined, [], {
        timeout: Math.max(1, Math.ceil(limits.cpuMs - spent)),
        result: { promise: true, copy: true },
      }) as unknown as Promise<string>;
      settled = await settleWithin(call, Math.max(1, limits.wallMs - spent));
    }
    if (settled.kind !== 'value') {
      const problem = await this.#classifyFailure(settled, realm.context, limits);
      const ms = performance.now() - started;
      // A rejection nobody handled surfaces as the call's own error, with the sandbox frames in its stack.
      const error = problem.verdict === 'threw' ? withOffset(withStackPosition(problem.error), block.source) : problem.error;
      return { result: { caseId: c.id, verdict: problem.verdict, ms, error }, lost: problem.lost };
    }
    const text = String(settled.value);
    const ms = performance.now() - started;
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > limits.maxResultBytes) return { result: tooLarge(c.id, ms, bytes, limits), lost: false };
    const parsed = JSON.parse(text) as HarnessResult;
    return { result: judge(c, parsed, block.source, ms, limits), lost: false };
  }

  /** A synchronous call that threw: limits, a disposed isolate, or the candidate's own error. */
  #classifyFailureSync(settled: Settled<unknown>, limits: SandboxLimits): { verdict: 'threw' | 'timeout' | 'memory' | 'crashed'; error: TrialError } {
    const e = settled.kind === 'error' ? settled.error : undefined;
    const message = e instanceof Error ? e.message : String(e);
    const failure = this.#slot.failed(e);
    if (failure === 'memory') return { verdict: 'memory', error: { name: 'MemoryLimitError', message: `memory limit of ${limits.memoryMb} MB exceeded` } };
    if (failure === 'disposed') return { verdict: 'crashed', error: { name: 'IsolateDisposed', message } };
    if (failure === 'timeout') return { verdict: 'timeout', error: { name: 'TimeoutError', message: `CPU limit of ${limits.cpuMs} ms exceeded` } };
    return { verdict: 'threw', error: e instanceof Error ? { name: e.name, message: e.message, stack: e.stack } : { name: 'Error', message } };
  }

  /**
   * Turn a rejected or wall-expired call into a verdict. On a wall-clock expiry, probe the
   * isolate: code still running (CPU limit above the wall limit) means it is stuck for us, so
   * the isolate is disposed and the caller starts over in a new one.
   */
  async #classifyFailure(
    settled: Settled<unknown>,
    context: ivm.Context,
    limits: SandboxLimits,
  ): Promise<{ verdict: 'threw' | 'timeout' | 'memory' | 'crashed'; error: TrialError; lost: boolean }> {
    const iso = this.#slot.isolate;
    if (settled.kind === 'wall') {
      let stuck = iso === null || iso.isDisposed;
      if (!stuck) {
        const probe = await settleWithin(context.eval('0', { timeout: 100 }), 300);
        stuck = probe.kind !== 'value';
      }
      if (stuck) this.#dropIsolate();
      return {
        verdict: 'timeout',
        error: {
          name: 'TimeoutError',
          message: stuck
            ? `wall-clock limit of ${limits.wallMs} ms exceeded while code was still running (isolate replaced)`
            : `wall-clock limit of ${limits.wallMs} ms exceeded (a promise never settled)`,
        },
        lost: stuck,
      };
    }
    const problem = this.#classifyFailureSync(settled, limits);
    return { ...problem, lost: problem.verdict === 'memory' || problem.verdict === 'crashed' };
  }
}

function tooLarge(caseId: string, ms: number, bytes: number, limits: SandboxLimits): TrialResult {
  // A result over the output limit is a resource-limit violation, reported like memory.
  return {
    caseId,
    verdict: 'memory',
    ms,
    error: { name: 'ResultTooLarge', message: `encoded result of ${bytes} bytes exceeds maxResultBytes (${limits.maxResultBytes})` },
  };
}

/**
 * The replay payload of a case with a world (a WorldError for a malformed one, undefined without a world),
 * built when first asked for and kept: a request that stops at its first failing case (most candidates) builds
 * only the payloads of the cases it reaches. With `block.uses` given, only those names of a world are defined:
 * the block says which outside names it reads.
 */
function caseWorlds(block: Block): (c: Case) => ReplayPayload | WorldError | undefined {
  const made = new Map<Case, ReplayPayload | WorldError | undefined>();
  return (c) => {
    if (made.has(c)) return made.get(c);
    const world = caseWorld(block, c);
    made.set(c, world);
    return world;
  };
}

function caseWorld(block: Block, c: Case): ReplayPayload | WorldError | undefined {
  if (c.world === undefined || c.world === null) return undefined;
  try {
    const payload = replayPayload(c, c.world);
    if (Array.isArray(block.uses)) {
      const wanted = new Set(block.uses);
      payload.uses = Object.fromEntries(Object.entries(payload.uses).filter(([name]) => wanted.has(name)));
    }
    return payload;
  } catch (error) {
    return error instanceof WorldError ? error : new WorldError(`case ${c.id}: ${String(error)}`);
  }
}

function judge(c: Case, r: HarnessResult, source: string, ms: number, limits: SandboxLimits): TrialResult {
  if (r.status === 'too-large') return tooLarge(c.id, ms, r.bytes ?? 0, limits);
  const base: TrialResult = { caseId: c.id, verdict: 'pass', ms };
  if (r.covered) base.covered = r.covered;
  if (r.awaited) base.awaited = true;
  if (c.world && r.world) {
    base.world = trialWorld(r.world);
    // A call the log cannot answer decides the case whatever the candidate did next (caught it or not).
    const calls = callVerdict(c, c.world, r.world, r.status === 'returned' && !r.thenable);
    if (calls) return { ...base, verdict: calls.verdict, error: calls.error, ...(r.actual !== undefined ? { actual: r.actual } : {}) };
  }
  if (r.thenable) {
    return { ...base, verdict: 'wrong-result', error: { name: 'AsyncAnswer', message: 'returned a thenable where the block answers synchronously' } };
  }
  if (r.status === 'threw') {
    return { ...base, verdict: 'threw', error: withOffset(r.error ?? { name: 'Error', message: '' }, source) };
  }
  const effects = c.world ? effectsVerdict(c.world, r.world) : undefined;
  if (effects) return { ...base, verdict: 'wrong-result', actual: r.actual, error: { name: 'EffectMismatch', message: effects } };
  if (c.check === 'no-throw') return { ...base, actual: r.actual, actualArgsAfter: r.argsAfter };
  if (c.check !== 'value') return base;
  const expected = normaliseSnapshot(c.expect === undefined ? { $t: 'undefined' } : c.expect);
  let ok = snapshotEqual(r.actual, expected);
  const result: TrialResult = { ...base, actual: r.actual };
  if (c.argsAfter !== undefined) {
    const after = r.argsAfter ?? [];
    result.actualArgsAfter = after;
    if (after.length !== c.argsAfter.length) ok = false;
    for (let i = 0; ok && i < c.argsAfter.length; i++) ok = snapshotEqual(after[i], normaliseSnapshot(c.argsAfter[i]));
  }
  result.verdict = ok ? 'pass' : 'wrong-result';
  return result;
}

function withOffset(error: TrialError, source: string): TrialError {
  if (error.line === undefined || error.column === undefined) return error;
  const offset = offsetOfPosition(source, error.line, error.column);
  return offset === undefined ? error : { ...error, offset };
}

/** Host-side copies of sandbox errors keep the sandbox frames in their stack. */
function withStackPosition(error: TrialError): TrialError {
  if (error.line !== undefined || typeof error.stack !== 'string') return error;
  const m = /^\s*at (?:.*\()?block\.js:(\d+):(\d+)\)?\s*$/m.exec(error.stack);
  if (!m || Number(m[1]) <= BLOCK_PREFIX_LINES) return error;
  return { ...error, line: Number(m[1]) - BLOCK_PREFIX_LINES, column: Number(m[2]) };
}

/** isolated-vm reports a compile error's position as a "[block.js:L:C]" suffix of the message. */
function syntaxErrorInfo(e: unknown, source: string): TrialError {
  const name = e instanceof Error ? e.name : 'SyntaxError';
  let message = e instanceof Error ? e.message : String(e);
  const m = /\s*\[block\.js:(\d+):(\d+)\]$/.exec(message);
  const error: TrialError = { name, message };
  if (m) {
    error.message = message = message.slice(0, m.index);
    error.line = Number(m[1]);
    error.column = Number(m[2]);
  }
  return withOffset(error, source);
}
