/**
 * Runs one candidate on its cases inside isolated-vm. Lives in a sandbox host process (see
 * sandbox-host.ts), never in the worker itself: a V8 out-of-memory abort takes the whole process
 * down, and it must be a process we can lose.
 *
 * One isolate per runner, a fresh context per request. Nothing from this process is reachable
 * inside: each new context starts as its own copy of a start-up snapshot in which the codec and
 * harness scripts have run (or runs both scripts itself without one); cases go in as JSON strings and results come out as JSON strings (no References or
 * callbacks are ever handed to sandboxed code). The comparison with the expectation happens out
 * here, so a candidate can't vouch for itself.
 */
import { readFileSync } from 'node:fs';
import ivm from 'isolated-vm';
import type { Block, Case, SandboxLimits, TrialError, TrialReport, TrialRequest, TrialResult } from '../../core/types.ts';
import { normaliseSnapshot, SNAPSHOT_CODEC_SOURCE, snapshotEqual } from '../../core/snapshot.ts';
import { offsetOfPosition } from './source-position.ts';

const HARNESS_SOURCE = readFileSync(new URL('./sandbox-harness.js', import.meta.url), 'utf8');

/** An entry-less block is a function expression; the prefix sits on its own line (lineOffset -1). */
const ENTRYLESS_PREFIX = 'const __sutureBlock = (\n';
const ENTRYLESS_SUFFIX = '\n);';
/** Our own setup scripts are small; a bound keeps a poisoned isolate from hanging setup. */
const SETUP_TIMEOUT_MS = 2000;
/** Recycle the isolate after this many requests or when its heap stays over half the limit. */
const MAX_REQUESTS_PER_ISOLATE = 2000;
const TIMED_OUT = 'Script execution timed out.';
/** Requests between asynchronous visits to the isolate (see #maybeRecycle). */
const ASYNC_VISIT_EVERY = 4;

/**
 * A V8 start-up snapshot with the codec and harness already run: every context created in an
 * isolate made from it starts as its own copy of that state, about a third cheaper than running
 * both scripts in each new context. Built once per process; null where isolated-vm can't make one.
 */
let setupSnapshot: ivm.ExternalCopy<ArrayBuffer> | null | undefined;

function harnessSnapshot(): ivm.ExternalCopy<ArrayBuffer> | null {
  if (setupSnapshot === undefined) {
    try {
      setupSnapshot = ivm.Isolate.createSnapshot([
        { code: SNAPSHOT_CODEC_SOURCE, filename: 'snapshot-codec.js' },
        { code: HARNESS_SOURCE, filename: 'sandbox-harness.js' },
      ]);
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

interface Prepared {
  context: ivm.Context;
  run: ivm.Reference<(caseJson: string) => string>;
}

type PrepareResult = { ok: true; prepared: Prepared } | { ok: false; error: TrialError; outcome: 'threw' | 'timeout' | 'memory' };

/** What the harness hands back for one case. */
interface HarnessResult {
  status: 'returned' | 'threw' | 'too-large';
  actual?: unknown;
  argsAfter?: unknown[];
  error?: TrialError;
  covered?: number[];
  bytes?: number;
}

export class TrialRunner {
  #isolate: ivm.Isolate | null = null;
  #memoryMb = 0;
  #setup: ivm.Script[] = [];
  #requestsOnIsolate = 0;
  /** Isolates created so far (1 + replacements after memory blow-ups, stuck code, recycling). */
  isolatesCreated = 0;

  /**
   * @param useSnapshot - start contexts from a start-up snapshot holding the codec and harness
   * (falls back to running both scripts in each context when isolated-vm can't make one).
   * @defaultValue true
   */
  constructor(readonly useSnapshot = true) {}

  /**
   * Run a request. `onResult` sees each finished case's result before the next case starts, so a
   * parent that loses this process mid-request still has the finished cases; the last result is
   * only in the report (one message fewer per request, and most requests have one case).
   */
  async run(request: TrialRequest, limits: SandboxLimits, onResult?: (result: TrialResult) => void): Promise<TrialReport> {
    const started = performance.now();
    const results: TrialResult[] = [];
    const block = request.block;
    let prepared: Prepared | null = null;
    let unsent: TrialResult | undefined;
    let tainted = false;
    const flush = () => {
      if (unsent !== undefined) onResult?.(unsent);
      unsent = undefined;
    };
    try {
      const first = await this.#prepare(block, limits);
      if (!first.ok) {
        if (first.outcome !== 'threw') tainted = true;
        return { compileError: first.error, results, ms: performance.now() - started };
      }
      prepared = first.prepared;
      for (const c of Array.isArray(request.cases) ? request.cases : []) {
        flush();
        if (prepared === null) {
          // The isolate was replaced (memory blow-up or stuck code): rebuild the candidate in a new one.
          const again = await this.#prepare(block, limits);
          if (!again.ok) {
            const r: TrialResult = { caseId: c.id, outcome: again.outcome === 'threw' ? 'crashed' : again.outcome, ms: 0, error: again.error };
            results.push(r);
            unsent = r;
            if (request.stopOnFirstFailure) break;
            continue;
          }
          prepared = again.prepared;
        }
        const { result, lost } = await this.#runCase(prepared, block, c, limits, request.coverage === true);
        if (lost) prepared = null;
        // Code stopped by a limit can leave work behind in the isolate (a queue of ten million
        // promise reactions, a heap near its limit) that would land on the next candidate.
        if (result.outcome === 'timeout' || result.outcome === 'memory') tainted = true;
        results.push(result);
        unsent = result;
        if (request.stopOnFirstFailure && result.outcome !== 'pass') break;
      }
      return { results, ms: performance.now() - started };
    } catch (error) {
      flush();
      throw error;
    } finally {
      if (prepared !== null) this.#release(prepared);
      if (tainted) this.#dropIsolate();
      else await this.#maybeRecycle();
    }
  }

  /** Create the isolate ahead of the first request. */
  warm(memoryMb: number): void {
    this.#ensureIsolate(Math.max(8, Math.round(memoryMb)));
  }

  dispose(): void {
    this.#dropIsolate();
  }

  #ensureIsolate(memoryMb: number): ivm.Isolate {
    if (this.#isolate !== null && (this.#isolate.isDisposed || this.#memoryMb !== memoryMb)) this.#dropIsolate();
    if (this.#isolate === null) {
      const snapshot = this.useSnapshot ? harnessSnapshot() : null;
      this.#isolate = new ivm.Isolate({
        memoryLimit: memoryMb,
        ...(snapshot ? { snapshot } : {}),
        // isolated-vm: after this, nothing in the process can be trusted; the pool restarts us.
        onCatastrophicError: () => process.exit(70),
      });
      this.#memoryMb = memoryMb;
      this.#setup = snapshot
        ? []
        : [
            this.#isolate.compileScriptSync(SNAPSHOT_CODEC_SOURCE, { filename: 'snapshot-codec.js' }),
            this.#isolate.compileScriptSync(HARNESS_SOURCE, { filename: 'sandbox-harness.js' }),
          ];
      this.#requestsOnIsolate = 0;
      this.isolatesCreated++;
    }
    return this.#isolate;
  }

  #dropIsolate(): void {
    const iso = this.#isolate;
    this.#isolate = null;
    this.#setup = [];
    if (iso !== null && !iso.isDisposed) {
      try {
        iso.dispose();
      } catch {
        /* already going away */
      }
    }
  }

  #release(prepared: Prepared): void {
    try {
      prepared.run.release();
      prepared.context.release();
    } catch {
      /* the isolate is gone */
    }
  }

  async #maybeRecycle(): Promise<void> {
    const iso = this.#isolate;
    if (iso === null || iso.isDisposed) return;
    this.#requestsOnIsolate++;
    if (this.#requestsOnIsolate >= MAX_REQUESTS_PER_ISOLATE) {
      this.#dropIsolate();
      return;
    }
    if (this.#requestsOnIsolate % ASYNC_VISIT_EVERY === 0) {
      // An asynchronous call lets the isolate run V8's own pending tasks (incremental GC of the
      // released contexts); with only synchronous calls they never run, the heap fills with dead
      // contexts and each fresh candidate costs about twice the CPU.
      const stats = await iso.getHeapStatistics();
      if (stats.used_heap_size > (this.#memoryMb * 1024 * 1024) / 2) this.#dropIsolate();
    }
  }

  /** Fresh context with codec, harness and the candidate; the entry function bound. */
  async #prepare(block: Block, limits: SandboxLimits): Promise<PrepareResult> {
    const iso = this.#ensureIsolate(limits.memoryMb);
    // Our own set-up runs synchronously: each async isolated-vm call is a round trip to the
    // isolate's thread (tens of µs), and nothing of the candidate's runs yet.
    const context = iso.createContextSync();
    const fail = (outcome: 'threw' | 'timeout' | 'memory', error: TrialError): PrepareResult => {
      try {
        context.release();
      } catch {
        /* isolate gone */
      }
      return { ok: false, outcome, error };
    };
    for (const script of this.#setup) script.runSync(context, { timeout: SETUP_TIMEOUT_MS });
    const run = context.global.getSync('__sutureRunSync', { reference: true }) as ivm.Reference<(caseJson: string) => string>;

    const entryless = block.entry === undefined || block.entry === '';
    let script: ivm.Script;
    try {
      script = iso.compileScriptSync(entryless ? ENTRYLESS_PREFIX + block.source + ENTRYLESS_SUFFIX : block.source, {
        filename: 'block.js',
        lineOffset: entryless ? -1 : 0,
      });
    } catch (e) {
      run.release();
      return fail('threw', syntaxErrorInfo(e, block.source));
    }
    // The candidate's top level and the entry lookup run synchronously too: nothing there can wait
    // on a promise, so the time limit alone bounds them, and an async call would cost a thread
    // round trip each (about a third of a fresh candidate's set-up here).
    const syncTimeout = Math.min(limits.cpuMs, limits.wallMs);
    const ran = settleSync(() => script.runSync(context, { timeout: syncTimeout }));
    script.release();
    if (ran.kind !== 'value') {
      run.release();
      const problem = await this.#classifyFailure(ran, context, limits);
      return fail(problem.outcome === 'crashed' ? 'threw' : problem.outcome, withOffset(withStackPosition(problem.error), block.source));
    }
    const bound = settleSync(() => context.evalClosureSync('return __sutureBind($0)', [block.entry ?? ''], { timeout: syncTimeout, result: { copy: true } }));
    if (bound.kind !== 'value') {
      run.release();
      const problem = await this.#classifyFailure(bound, context, limits);
      return fail(problem.outcome === 'crashed' ? 'threw' : problem.outcome, problem.error);
    }
    const answer = JSON.parse(String(bound.value)) as { ok: boolean; error?: TrialError };
    if (!answer.ok) {
      run.release();
      return fail('threw', withOffset(answer.error ?? { name: 'EntryNotFound', message: 'entry not found' }, block.source));
    }
    return { ok: true, prepared: { context, run } };
  }

  async #runCase(prepared: Prepared, block: Block, c: Case, limits: SandboxLimits, coverage: boolean): Promise<{ result: TrialResult; lost: boolean }> {
    const started = performance.now();
    const payload = JSON.stringify({
      check: c.check,
      args: c.args ?? [],
      script: c.script ?? '',
      argsAfter: c.argsAfter !== undefined || c.check === 'no-throw',
      coverage,
      maxResultBytes: limits.maxResultBytes,
    });
    // The call itself runs synchronously (a thread round trip saved per case): with no waiting
    // possible, the smaller of the two limits bounds it, as for the candidate's top level.
    const syncLimit = Math.min(limits.cpuMs, limits.wallMs);
    let settled: Settled<string> = settleSync(() => prepared.run.applySync(undefined, [payload], { timeout: syncLimit, result: { copy: true } }));
    if (settled.kind === 'value' && settled.value === '') {
      // The value is a thenable: wait for it asynchronously, under what is left of both limits.
      const spent = performance.now() - started;
      const call = prepared.context.evalClosure('return __sutureFinish()', [], {
        timeout: Math.max(1, Math.ceil(limits.cpuMs - spent)),
        result: { promise: true, copy: true },
      }) as unknown as Promise<string>;
      settled = await settleWithin(call, Math.max(1, limits.wallMs - spent));
    }
    if (settled.kind !== 'value') {
      const problem = await this.#classifyFailure(settled, prepared.context, limits);
      const ms = performance.now() - started;
      // A rejection nobody handled surfaces as the call's own error, with the sandbox frames in its stack.
      const error = problem.outcome === 'threw' ? withOffset(withStackPosition(problem.error), block.source) : problem.error;
      return { result: { caseId: c.id, outcome: problem.outcome, ms, error }, lost: problem.lost };
    }
    const text = String(settled.value);
    const ms = performance.now() - started;
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > limits.maxResultBytes) return { result: tooLarge(c.id, ms, bytes, limits), lost: false };
    const parsed = JSON.parse(text) as HarnessResult;
    return { result: judge(c, parsed, block.source, ms, limits), lost: false };
  }

  /**
   * Turn a rejected or wall-expired call into an outcome. On a wall-clock expiry, probe the
   * isolate: code still running (CPU limit above the wall limit) means it is stuck for us, so
   * the isolate is disposed and the caller starts over in a new one.
   */
  async #classifyFailure(
    settled: Settled<unknown>,
    context: ivm.Context,
    limits: SandboxLimits,
  ): Promise<{ outcome: 'threw' | 'timeout' | 'memory' | 'crashed'; error: TrialError; lost: boolean }> {
    const iso = this.#isolate;
    if (settled.kind === 'wall') {
      let stuck = iso === null || iso.isDisposed;
      if (!stuck) {
        const probe = await settleWithin(context.eval('0', { timeout: 100 }), 300);
        stuck = probe.kind !== 'value';
      }
      if (stuck) this.#dropIsolate();
      return {
        outcome: 'timeout',
        error: {
          name: 'TimeoutError',
          message: stuck
            ? `wall-clock limit of ${limits.wallMs} ms exceeded while code was still running (isolate replaced)`
            : `wall-clock limit of ${limits.wallMs} ms exceeded (a promise never settled)`,
        },
        lost: stuck,
      };
    }
    const e = settled.kind === 'error' ? settled.error : undefined;
    const message = e instanceof Error ? e.message : String(e);
    if (iso === null || iso.isDisposed) {
      this.#dropIsolate();
      if (/memory limit/i.test(message)) {
        return { outcome: 'memory', error: { name: 'MemoryLimitError', message: `memory limit of ${limits.memoryMb} MB exceeded` }, lost: true };
      }
      return { outcome: 'crashed', error: { name: 'IsolateDisposed', message }, lost: true };
    }
    if (message === TIMED_OUT) {
      return { outcome: 'timeout', error: { name: 'TimeoutError', message: `CPU limit of ${limits.cpuMs} ms exceeded` }, lost: false };
    }
    const err = e instanceof Error ? { name: e.name, message: e.message, stack: e.stack } : { name: 'Error', message };
    return { outcome: 'threw', error: err, lost: false };
  }
}

function tooLarge(caseId: string, ms: number, bytes: number, limits: SandboxLimits): TrialResult {
  // A result over the output limit is a resource-limit violation, reported like memory.
  return {
    caseId,
    outcome: 'memory',
    ms,
    error: { name: 'ResultTooLarge', message: `encoded result of ${bytes} bytes exceeds maxResultBytes (${limits.maxResultBytes})` },
  };
}

function judge(c: Case, r: HarnessResult, source: string, ms: number, limits: SandboxLimits): TrialResult {
  if (r.status === 'too-large') return tooLarge(c.id, ms, r.bytes ?? 0, limits);
  const base: TrialResult = { caseId: c.id, outcome: 'pass', ms };
  if (r.covered) base.covered = r.covered;
  if (r.status === 'threw') {
    return { ...base, outcome: 'threw', error: withOffset(r.error ?? { name: 'Error', message: '' }, source) };
  }
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
  result.outcome = ok ? 'pass' : 'wrong-result';
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
  return m ? { ...error, line: Number(m[1]), column: Number(m[2]) } : error;
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
