/**
 * A pool of sandbox host processes that run trials (one candidate on its cases) in parallel.
 *
 * Each host is a forked Node process with one isolated-vm isolate; it takes one request at a
 * time. Requests queue here and go to whichever host is idle, so different candidates use all
 * cores. A host that dies mid-request (V8 fatal OOM abort, segfault, kill -9) turns its
 * unfinished cases into `crashed` and is replaced; the pool carries on. Idle hosts don't keep the
 * parent's event loop alive, and close() ends them.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { SandboxLimits, TrialError, TrialReport, TrialRequest, TrialResult } from '../../core/types.ts';
import { SandboxClosedError, SandboxStartError } from './sandbox-errors.ts';
import type { FromHostMessage, ToHostMessage } from './sandbox-protocol.ts';
import { DEFAULT_LIMITS, resolveLimits } from './trial-limits.ts';

export { DEFAULT_LIMITS } from './trial-limits.ts';
export { SandboxClosedError, SandboxStartError } from './sandbox-errors.ts';

export interface SandboxPoolOptions {
  /** Number of sandbox host processes (each runs one request at a time). @defaultValue os.availableParallelism() */
  size?: number;
  /** Limits for every request; a request's own `limits` override these per key. @defaultValue {@link DEFAULT_LIMITS} */
  limits?: Partial<SandboxLimits>;
}

export interface SandboxPoolStats {
  /** Cases reported (every verdict, crashed included). */
  trials: number;
  /** Requests answered. */
  requests: number;
  /** Host processes that died while running a request or while idle. */
  crashes: number;
  /** Replacement hosts started after a death. */
  restarts: number;
}

/** A host that says nothing for this long beyond the case's own limits is killed. */
const WATCHDOG_MARGIN_MS = 5000;
/** How long close() waits for a host to leave before SIGKILL. */
const EXIT_GRACE_MS = 1000;
/** A host not ready after this long is killed (counts as a start failure). */
const START_TIMEOUT_MS = 30_000;
/** Consecutive hosts dying before "ready" after which queued requests are rejected. */
const MAX_START_FAILURES = 3;
/**
 * Requests a host holds at once: the one running and the next, sent ahead so the host starts it
 * without waiting for a round trip through this process. Hosts with nothing come first.
 */
const HOST_DEPTH = 2;

const IS_TYPESCRIPT = import.meta.url.endsWith('.ts');
const HOST_ENTRY = fileURLToPath(new URL(IS_TYPESCRIPT ? './sandbox-host.ts' : './sandbox-host.js', import.meta.url));

interface Job {
  id: number;
  request: TrialRequest;
  limits: SandboxLimits;
  results: TrialResult[];
  started: number;
  caseStarted: number;
  resolve(report: TrialReport): void;
  reject(error: Error): void;
}

interface Host {
  child: ChildProcess;
  pid: number;
  state: 'starting' | 'idle' | 'busy' | 'dead';
  /** Requests sent to this host, in the order it runs them; the first is running. */
  jobs: Job[];
  watchdog: NodeJS.Timeout | null;
  killedByWatchdog: boolean;
  stderrTail: string;
  exited: Promise<void>;
}

export class SandboxPool {
  readonly #size: number;
  readonly #limits: SandboxLimits;
  readonly #hosts = new Set<Host>();
  readonly #queue: Job[] = [];
  #closed = false;
  #nextJobId = 1;
  #startFailures = 0;
  readonly #stats: SandboxPoolStats = { trials: 0, requests: 0, crashes: 0, restarts: 0 };

  constructor(options: SandboxPoolOptions = {}) {
    const size = options.size ?? availableParallelism();
    this.#size = Number.isFinite(size) && size >= 1 ? Math.floor(size) : 1;
    this.#limits = resolveLimits(DEFAULT_LIMITS, options.limits);
  }

  /** Number of sandbox host processes the pool runs at most (requests in parallel). */
  get size(): number {
    return this.#size;
  }

  /** Per-case limits used when a request gives none. */
  get limits(): Readonly<SandboxLimits> {
    return this.#limits;
  }

  get stats(): Readonly<SandboxPoolStats> {
    return { ...this.#stats };
  }

  /** Pids of the live host processes (for tests and operations). */
  hostPids(): number[] {
    return [...this.#hosts].filter((h) => h.state !== 'dead').map((h) => h.pid);
  }

  /**
   * Run one candidate on its cases in a fresh sandbox context. Resolves with a report whatever
   * the candidate does (throws, loops, blows memory, kills its host); rejects only with
   * {@link SandboxClosedError} when the pool is closed, or {@link SandboxStartError} when hosts
   * can't start at all.
   */
  run(request: TrialRequest): Promise<TrialReport> {
    if (this.#closed) return Promise.reject(new SandboxClosedError());
    if (this.#queue.length === 0 && this.#startFailures >= MAX_START_FAILURES) this.#startFailures = 0;
    return new Promise<TrialReport>((resolve, reject) => {
      const now = performance.now();
      this.#queue.push({
        id: this.#nextJobId++,
        request,
        limits: resolveLimits(this.#limits, request.limits),
        results: [],
        started: now,
        caseStarted: now,
        resolve,
        reject,
      });
      this.#pump();
    });
  }

  /** Stop every host; queued and running requests reject with {@link SandboxClosedError}. */
  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      for (const job of this.#queue.splice(0)) job.reject(new SandboxClosedError());
      for (const host of this.#hosts) {
        for (const job of host.jobs.splice(0)) job.reject(new SandboxClosedError('sandbox pool closed while the request ran'));
        this.#clearWatchdog(host);
        if (host.state !== 'dead') {
          // Hold the event loop until the host is really gone, so close() can resolve.
          host.child.ref();
          host.child.channel?.ref();
          this.#send(host, { type: 'exit' });
          const timer = setTimeout(() => host.child.kill('SIGKILL'), EXIT_GRACE_MS);
          timer.unref();
          void host.exited.then(() => clearTimeout(timer));
        }
      }
    }
    await Promise.all([...this.#hosts].map((h) => h.exited));
  }

  #pump(): void {
    if (this.#closed) return;
    for (let depth = 0; depth < HOST_DEPTH && this.#queue.length > 0; depth++) {
      for (const host of this.#hosts) {
        if (this.#queue.length === 0) break;
        if ((host.state === 'idle' || host.state === 'busy') && host.jobs.length === depth) this.#dispatch(host, this.#queue.shift()!);
      }
    }
    const starting = [...this.#hosts].filter((h) => h.state === 'starting').length;
    let wanted = Math.min(this.#queue.length - starting, this.#size - this.#hosts.size);
    while (wanted-- > 0) this.#spawn();
  }

  #spawn(restart = false): void {
    if (restart) this.#stats.restarts++;
    const child = fork(HOST_ENTRY, [String(this.#limits.memoryMb)], {
      execPath: process.execPath,
      execArgv: ['--no-node-snapshot', ...(IS_TYPESCRIPT ? ['--import', 'tsx'] : [])],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    let markExited!: () => void;
    const host: Host = {
      child,
      pid: child.pid ?? -1,
      state: 'starting',
      jobs: [],
      watchdog: null,
      killedByWatchdog: false,
      stderrTail: '',
      exited: new Promise<void>((resolve) => (markExited = resolve)),
    };
    this.#hosts.add(host);
    const startTimer = setTimeout(() => {
      if (host.state === 'starting') child.kill('SIGKILL');
    }, START_TIMEOUT_MS);
    startTimer.unref();
    // Keep the last bit of stderr: V8's fatal-error text is the best crash explanation we get.
    child.stderr?.on('data', (chunk: Buffer) => {
      host.stderrTail = (host.stderrTail + chunk.toString('utf8')).slice(-2000);
    });
    (child.stderr as Socket | null)?.unref?.();
    child.unref();
    // A host starting for queued work keeps the parent alive until it answers; a spare one doesn't.
    if (this.#queue.length === 0) child.channel?.unref();
    child.on('message', (message: FromHostMessage) => this.#onMessage(host, message));
    child.on('error', () => {
      /* spawn or IPC failure: 'exit' follows and handles it */
    });
    child.on('exit', (code, signal) => {
      clearTimeout(startTimer);
      markExited();
      this.#onExit(host, code, signal);
    });
  }

  #onMessage(host: Host, message: FromHostMessage): void {
    switch (message.type) {
      case 'ready':
        host.state = 'idle';
        host.child.channel?.unref();
        this.#startFailures = 0;
        this.#pump();
        return;
      case 'result': {
        const job = host.jobs[0];
        if (!job || job.id !== message.id) return;
        job.results.push(message.result);
        job.caseStarted = performance.now();
        this.#armWatchdog(host, job);
        return;
      }
      case 'done': {
        const job = host.jobs[0];
        if (!job || job.id !== message.id) return;
        this.#finish(host, job, message.report);
        return;
      }
      case 'failed': {
        const job = host.jobs[0];
        if (!job || job.id !== message.id) return;
        // The host exits right after; report now so the error text is the host's own.
        host.jobs.shift();
        this.#clearWatchdog(host);
        // Nothing more goes to a leaving host; what it had not started goes back to the queue.
        host.state = 'dead';
        this.#queue.unshift(...host.jobs.splice(0));
        const report = this.#crashReport(job, { name: 'SandboxHostError', message: message.message });
        job.resolve(report);
        this.#countReport(report);
        this.#pump();
        return;
      }
    }
  }

  #dispatch(host: Host, job: Job): void {
    host.state = 'busy';
    host.jobs.push(job);
    if (host.jobs.length === 1) this.#begin(host, job);
    // A busy host keeps the parent alive until its answer arrives; an idle one doesn't.
    host.child.channel?.ref();
    this.#send(host, { type: 'run', id: job.id, request: job.request, limits: job.limits });
  }

  /** The host starts `job` now (it was sent earlier or just now). */
  #begin(host: Host, job: Job): void {
    job.started = job.caseStarted = performance.now();
    this.#armWatchdog(host, job);
  }

  #finish(host: Host, job: Job, report: TrialReport): void {
    host.jobs.shift();
    this.#clearWatchdog(host);
    const next = host.jobs[0];
    if (next) this.#begin(host, next);
    else if (host.state === 'busy') {
      host.state = 'idle';
      host.child.channel?.unref();
    }
    job.resolve(report);
    this.#countReport(report);
    this.#pump();
  }

  #countReport(report: TrialReport): void {
    this.#stats.requests++;
    this.#stats.trials += report.results.length;
  }

  #onExit(host: Host, code: number | null, signal: NodeJS.Signals | null): void {
    const wasStarting = host.state === 'starting';
    host.state = 'dead';
    this.#clearWatchdog(host);
    this.#hosts.delete(host);
    if (this.#closed) return;
    this.#stats.crashes++;
    // Only the first request ran; the ones sent after it go back to the front of the queue.
    const [job, ...unstarted] = host.jobs.splice(0);
    this.#queue.unshift(...unstarted);
    if (job) {
      const why = host.killedByWatchdog
        ? `sandbox host stopped answering and was killed (no word for ${job.limits.cpuMs + job.limits.wallMs + WATCHDOG_MARGIN_MS} ms)`
        : `sandbox host process exited (${signal ? `signal ${signal}` : `code ${code}`})`;
      const tail = host.stderrTail.trim().split('\n').slice(-5).join('\n');
      const report = this.#crashReport(job, { name: 'SandboxCrashed', message: tail ? `${why}: ${tail}` : why });
      job.resolve(report);
      this.#countReport(report);
    }
    if (wasStarting) {
      this.#startFailures++;
      if (this.#startFailures >= MAX_START_FAILURES) {
        const error = new SandboxStartError(`sandbox host failed to start ${this.#startFailures} times: ${host.stderrTail.trim().slice(-500)}`);
        for (const queued of this.#queue.splice(0)) queued.reject(error);
        return;
      }
    }
    // Replace the lost host at once when work waits; otherwise on demand.
    if (this.#queue.length > 0) this.#spawn(true);
    else if (this.#hosts.size < this.#size) this.#spawn(true);
  }

  /** Finished cases as reported, the one in flight and the rest `crashed` (or just the first, with stopOnFirstFailure). */
  #crashReport(job: Job, error: TrialError): TrialReport {
    const now = performance.now();
    const results = [...job.results];
    const stoppedEarly = job.request.stopOnFirstFailure && results.some((r) => r.verdict !== 'pass');
    if (!stoppedEarly) {
      let first = true;
      // Results arrive in case order, so the unfinished cases are the tail.
      for (const c of job.request.cases.slice(results.length)) {
        results.push({ caseId: c.id, verdict: 'crashed', ms: first ? now - job.caseStarted : 0, error });
        first = false;
        if (job.request.stopOnFirstFailure) break;
      }
    }
    return { results, ms: now - job.started };
  }

  #armWatchdog(host: Host, job: Job): void {
    this.#clearWatchdog(host);
    host.watchdog = setTimeout(() => {
      host.killedByWatchdog = true;
      host.child.kill('SIGKILL');
    }, job.limits.cpuMs + job.limits.wallMs + WATCHDOG_MARGIN_MS);
    host.watchdog.unref();
  }

  #clearWatchdog(host: Host): void {
    if (host.watchdog) clearTimeout(host.watchdog);
    host.watchdog = null;
  }

  #send(host: Host, message: ToHostMessage): void {
    if (!host.child.connected) return;
    host.child.send(message, (error) => {
      // A failed send means the host is going away; its 'exit' reports the job.
      if (error) host.child.kill('SIGKILL');
    });
  }
}
