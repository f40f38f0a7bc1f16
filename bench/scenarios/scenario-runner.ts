import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import type { SutureConfig } from '../../config/config-settings.ts';
import { createRepairClient, type RepairClient, type ShadowEvent } from '../../sdk/index.ts';
import { ADMIN_TOKEN, startHarness, type Harness } from '../../testkit/service-harness.ts';
import { checkScenario, resultOf, sameResult, show, type CallResult, type Scenario } from './scenario-definition.ts';

/**
 * Runs scenarios end to end: one real daemon and worker (offline template engine, the service's
 * default settings unless told otherwise) against the real Redis; each scenario's app runs
 * through a fresh SDK client of its own app, the way an app would: healthy calls (recorded as
 * known-good calls), failing calls, then, once the patch is out, the hidden calls and the healthy
 * calls again. The expected answers come from the scenario's `intended` function only.
 */

export interface BenchSettings {
  /** Search budget of one repair job, ms (the service's default is 30 000). */
  budgetMs: number;
  /** Longest wait for a scenario's bug to settle after its first failing call, ms. */
  patchTimeoutMs: number;
  /** The SDK's record.sampleRate for the scenario apps. */
  sampleRate: number;
  /** Also grant replace mode (the operator's step) and check every call again with the patch answering all of them. */
  replacePhase: boolean;
  /** Progress lines. */
  log: (line: string) => void;
}

export const DEFAULT_SETTINGS: BenchSettings = { budgetMs: 30_000, patchTimeoutMs: 60_000, sampleRate: 1, replacePhase: true, log: () => undefined };

export type Grade = 'fixed' | 'wrong' | 'held-correct' | 'held-wrong' | 'no-patch' | 'skipped';

export interface CheckRow {
  args: string;
  expected: string;
  got: string;
  ok: boolean;
}

export interface PhaseResult {
  hiddenCorrect: number;
  hiddenTotal: number;
  healthyUnchanged: number;
  healthyTotal: number;
  hidden: CheckRow[];
  healthy: CheckRow[];
}

export interface ScenarioResult {
  id: string;
  title: string;
  uses: string[];
  grade: Grade;
  /** Why, in a few words (skipped, no patch, which checks failed). */
  note: string;
  /** A patch was published for the bug (whatever its status). */
  patched: boolean;
  /** The patch waited for an operator (low confidence); the bench approved it to judge it. */
  held: boolean;
  /** The engine's confidence in its winner ('low' holds the patch for approval) and why. */
  confidence?: string;
  confidenceReason?: string;
  bugStatus?: string;
  patchStatus?: string;
  patchSource?: string;
  /** From the first failing call to the patch being stored, ms. */
  msToPatch?: number;
  /** From the first failing call to this app's SDK running the patch, ms. */
  msToSdk?: number;
  /** Fallback mode, as published: what the app sees. */
  fallback?: PhaseResult;
  /** Shadow runs of the patch on healthy calls that disagreed with the block. */
  shadowDisagreements: number;
  /** Replace mode (granted by the bench): the patch answers every call. */
  replace?: PhaseResult;
  job?: { tried: number; ms: number; knownGood: number; cases: { total: number; failing: number }; stoppedBy: string };
}

export interface BenchReport {
  startedAt: string;
  settings: Omit<BenchSettings, 'log'> & { sandboxSize: number; policy: string; generators: string[] };
  machine: { cores: number; loadAvgAtStart: number[]; loadAvgAtEnd: number[] };
  totals: Totals;
  scenarios: ScenarioResult[];
  ms: number;
}

export interface Totals {
  scenarios: number;
  run: number;
  skipped: number;
  fixed: number;
  wrong: number;
  held: number;
  heldCorrect: number;
  heldWrong: number;
  noPatch: number;
}

/**
 * The grade of a scenario from what was observed. `fixed` needs every hidden call right and no
 * healthy answer changed: the SDK's answers to the healthy calls as before, no shadow run that
 * disagreed, and (when the replace phase ran) the same with the patch answering every call.
 */
export function gradeOf(r: Pick<ScenarioResult, 'patched' | 'held' | 'fallback' | 'replace' | 'shadowDisagreements'>): Grade {
  if (!r.patched || !r.fallback) return 'no-patch';
  const right = (p: PhaseResult) => p.hiddenCorrect === p.hiddenTotal && p.healthyUnchanged === p.healthyTotal;
  const good = right(r.fallback) && r.shadowDisagreements === 0 && (r.replace === undefined || right(r.replace));
  if (r.held) return good ? 'held-correct' : 'held-wrong';
  return good ? 'fixed' : 'wrong';
}

export function totalsOf(results: ScenarioResult[]): Totals {
  const count = (v: Grade) => results.filter((r) => r.grade === v).length;
  return {
    scenarios: results.length,
    run: results.length - count('skipped'),
    skipped: count('skipped'),
    fixed: count('fixed'),
    wrong: count('wrong'),
    held: count('held-correct') + count('held-wrong'),
    heldCorrect: count('held-correct'),
    heldWrong: count('held-wrong'),
    noPatch: count('no-patch'),
  };
}

interface BugView {
  fingerprint: string;
  blockId: string;
  status: string;
  patchId?: string;
  reason?: string;
}
interface PatchView {
  id: string;
  status: string;
  source: string;
  mode?: string;
  createdAt?: number;
}
interface ReportView {
  confidence?: { level: string; reason?: string };
  tried: number;
  ms: number;
  knownGood: number;
  cases: { total: number; failing: number };
  stoppedBy: string;
  finishedAt?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const OPEN = new Set(['new', 'repairing']);

/** The daemon and worker the scenarios share, and the apps' tokens. */
export class ScenarioBench {
  readonly settings: BenchSettings;
  readonly #h: Harness;
  readonly #tokens: Map<string, string>;
  readonly #publicKey: string;

  private constructor(h: Harness, tokens: Map<string, string>, publicKey: string, settings: BenchSettings) {
    this.#h = h;
    this.#tokens = tokens;
    this.#publicKey = publicKey;
    this.settings = settings;
  }

  /** Starts a daemon and a worker with one app (and token) per scenario id. */
  static async start(ids: string[], settings: Partial<BenchSettings> = {}): Promise<ScenarioBench> {
    const s = { ...DEFAULT_SETTINGS, ...settings };
    const tokens = new Map(ids.map((id) => [id, `tok-${randomBytes(9).toString('hex')}`]));
    const overrides: Partial<SutureConfig> = { budgetMs: s.budgetMs, sandboxSize: availableParallelism(), jobBackoffMs: 5000 };
    const h = await startHarness(overrides, { SUTURE_APP_TOKENS: [...tokens].map(([id, t]) => `${appOf(id)}:${t}`).join(',') });
    try {
      await h.startWorker();
      const { publicKey } = (await (await h.call('/v1/public-key', { token: null })).json()) as { publicKey: string };
      return new ScenarioBench(h, tokens, publicKey, s);
    } catch (e) {
      await h.close();
      throw e;
    }
  }

  get config(): SutureConfig {
    return this.#h.config;
  }

  async close(): Promise<void> {
    await this.#h.close();
  }

  async #admin<T>(path: string, body?: unknown): Promise<{ status: number; json: T }> {
    const res = await this.#h.call(path, { token: ADMIN_TOKEN, body, headers: { 'x-suture-actor': 'scenario-bench' } });
    return { status: res.status, json: (await res.json()) as T };
  }

  /** Runs one scenario; `skip` (a reason) records it as skipped without running it. */
  async run(s: Scenario, skip?: string): Promise<ScenarioResult> {
    const base: ScenarioResult = { id: s.id, title: s.title, uses: s.uses, grade: 'skipped', note: '', patched: false, held: false, shadowDisagreements: 0 };
    if (skip) return { ...base, note: skip };
    const problems = await checkScenario(s);
    if (problems.length) throw new Error(`scenario ${s.id} is not well formed: ${problems.join('; ')}`);
    const token = this.#tokens.get(s.id);
    if (!token) throw new Error(`scenario ${s.id} was not given an app when the bench started`);
    const app = appOf(s.id);
    const log = (line: string) => this.settings.log(`[${s.id}] ${line}`);

    const client = createRepairClient({ url: this.#h.url, app, token, publicKey: this.#publicKey, instanceId: `${app}-1`, record: { sampleRate: this.settings.sampleRate }, flushInterval: 100 });
    const shadows: ShadowEvent[] = [];
    client.on('shadow', (e) => shadows.push(e));
    const sdkErrors: string[] = [];
    client.on('error', (e) => sdkErrors.push(`${e.code}: ${e.message}`));
    const r = { ...base };
    try {
      const entry = appEntry(s, client);
      const healthyBefore: CallResult[] = [];
      for (const args of s.healthy) healthyBefore.push(await resultOf(() => entry(structuredClone(args))));
      await client.flush();
      const t0 = Date.now();
      for (const args of s.failing) {
        const o = await resultOf(() => entry(structuredClone(args)));
        if (o.ok) throw new Error(`scenario ${s.id}: a failing call answered ${show(o)} through the SDK before any patch`);
      }
      await client.flush();
      log(`${s.healthy.length} healthy and ${s.failing.length} failing calls sent; waiting for the repair`);

      const settled = await this.#settle(app, t0);
      r.bugStatus = settled.bug?.status;
      if (settled.report) {
        const j = settled.report;
        r.confidence = j.confidence?.level;
        r.confidenceReason = j.confidence?.reason;
        r.job = { tried: j.tried, ms: j.ms, knownGood: j.knownGood, cases: j.cases, stoppedBy: j.stoppedBy };
      }
      if (!settled.patch) {
        r.grade = 'no-patch';
        r.note = settled.bug ? `bug ${settled.bug.status}${settled.bug.reason ? `: ${settled.bug.reason}` : ''}` : `no bug settled within ${this.settings.patchTimeoutMs} ms`;
        log(`no patch (${r.note})`);
        return r;
      }
      const patch = settled.patch;
      r.patched = true;
      r.patchStatus = patch.status;
      r.patchSource = patch.source;
      r.msToPatch = settled.at - t0;
      if (patch.status === 'pending-approval') {
        r.held = true;
        log(`patch ${patch.id} held for approval (confidence ${r.confidence ?? '?'}); approving it to judge it`);
        const approved = await this.#admin(`/v1/admin/patches/${patch.id}/approve`, { reason: 'scenario bench: judge the held patch' });
        if (approved.status !== 200) throw new Error(`approving ${patch.id} answered ${approved.status}: ${JSON.stringify(approved.json)}`);
      } else if (patch.status !== 'active' && patch.status !== 'canary') {
        r.grade = 'no-patch';
        r.note = `patch ${patch.status}`;
        return r;
      }
      if (!(await this.#reaches(client, app, token, patch.id, 'fallback'))) {
        r.grade = 'no-patch';
        r.note = `the SDK did not get patch ${patch.id} within 15 s${sdkErrors.length ? ` (${sdkErrors.join('; ')})` : ''}`;
        return r;
      }
      r.msToSdk = Date.now() - t0;
      log(`patch ${patch.id} in the SDK after ${r.msToSdk} ms${r.held ? ' (approved by the bench)' : ''}: ${oneLine(patch.source)}`);

      r.fallback = await this.#checks(s, entry, healthyBefore);
      await client.flush();
      await sleep(300);
      await client.flush();
      r.shadowDisagreements = shadows.filter((e) => e.patchId === patch.id && !e.agreed).length;

      if (this.settings.replacePhase) {
        const now = await this.#admin<PatchView>(`/v1/admin/patches/${patch.id}`);
        if (now.json.status === 'active' || now.json.status === 'canary') {
          const granted = await this.#admin(`/v1/admin/patches/${patch.id}/replace`, { reason: 'scenario bench: the patch answers every call' });
          if (granted.status === 200 && (await this.#reaches(client, app, token, patch.id, 'replace'))) r.replace = await this.#checks(s, entry, healthyBefore);
          else log(`replace mode not reached (HTTP ${granted.status})`);
        } else {
          log(`patch is ${now.json.status} after the healthy calls; no replace phase`);
          r.patchStatus = now.json.status;
        }
      }
      r.grade = gradeOf(r);
      r.note = noteOf(r, sdkErrors);
      return r;
    } finally {
      await client.close();
    }
  }

  /** Waits until every bug of the app is out of new/repairing; the newest with a patch (or any) and its report. */
  async #settle(app: string, t0: number): Promise<{ bug?: BugView; patch?: PatchView; report?: ReportView; at: number }> {
    const deadline = t0 + this.settings.patchTimeoutMs;
    let bugs: BugView[] = [];
    while (Date.now() < deadline) {
      bugs = (await this.#admin<{ bugs: BugView[] }>(`/v1/admin/bugs?app=${encodeURIComponent(app)}`)).json.bugs;
      if (bugs.length && bugs.every((b) => !OPEN.has(b.status))) break;
      if (bugs.some((b) => b.patchId)) break;
      await sleep(100);
    }
    const at = Date.now();
    const bug = bugs.find((b) => b.patchId) ?? bugs[0];
    if (!bug) return { at };
    const detail = (await this.#admin<{ report: ReportView | null }>(`/v1/admin/bugs/${bug.fingerprint}`)).json;
    const report = detail.report ?? undefined;
    if (!bug.patchId) return { bug: OPEN.has(bug.status) ? undefined : bug, report, at };
    const patch = (await this.#admin<PatchView>(`/v1/admin/patches/${bug.patchId}`)).json;
    return { bug, patch, report, at };
  }

  /** Waits until this client's manifest has the patch in `mode` (the revision the daemon serves with it). */
  async #reaches(client: RepairClient, app: string, token: string, patchId: string, mode: string): Promise<boolean> {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const res = await this.#h.call(`/v1/manifest?app=${encodeURIComponent(app)}`, { token });
      const m = (await res.json()) as { revision: number; patches: { id: string; mode: string; status: string }[] };
      const p = m.patches.find((x) => x.id === patchId);
      if (p && p.mode === mode && (p.status === 'active' || p.status === 'canary') && client.stats().manifestRevision >= m.revision) return true;
      await sleep(50);
    }
    return false;
  }

  /** The hidden calls against `intended`, then the healthy calls against their answers before the patch. */
  async #checks(s: Scenario, entry: (args: unknown[]) => unknown, healthyBefore: CallResult[]): Promise<PhaseResult> {
    const hidden: CheckRow[] = [];
    for (const args of s.hidden) {
      const want = await resultOf(() => s.intended(...structuredClone(args)));
      const got = await resultOf(() => entry(structuredClone(args)));
      hidden.push({ args: argsText(args), expected: show(want), got: show(got), ok: sameResult(got, want) });
    }
    const healthy: CheckRow[] = [];
    for (const [i, args] of s.healthy.entries()) {
      const got = await resultOf(() => entry(structuredClone(args)));
      healthy.push({ args: argsText(args), expected: show(healthyBefore[i]), got: show(got), ok: sameResult(got, healthyBefore[i]) });
    }
    return {
      hiddenCorrect: hidden.filter((c) => c.ok).length,
      hiddenTotal: hidden.length,
      healthyUnchanged: healthy.filter((c) => c.ok).length,
      healthyTotal: healthy.length,
      hidden,
      healthy,
    };
  }
}

/** Each scenario is its own app. */
export function appOf(id: string): string {
  return `scenario-${id}`;
}

function appEntry(s: Scenario, client: RepairClient): (args: unknown[]) => unknown {
  const app = s.createApp(client as never);
  const fn = app[s.entry];
  if (typeof fn !== 'function') throw new TypeError(`scenario ${s.id}: createApp() has no method '${s.entry}'`);
  return (args) => fn.apply(app, args);
}

function noteOf(r: ScenarioResult, sdkErrors: string[]): string {
  const parts: string[] = [];
  const phase = (name: string, p: PhaseResult | undefined) => {
    if (!p) return;
    const bad = p.hidden.filter((c) => !c.ok);
    if (bad.length) parts.push(`${name}: hidden ${bad.map((c) => `${c.args} -> ${c.got} (want ${c.expected})`).join('; ')}`);
    const changed = p.healthy.filter((c) => !c.ok);
    if (changed.length) parts.push(`${name}: healthy changed ${changed.map((c) => `${c.args} -> ${c.got} (was ${c.expected})`).join('; ')}`);
  };
  phase('fallback', r.fallback);
  if (r.shadowDisagreements) parts.push(`${r.shadowDisagreements} shadow run(s) disagreed`);
  phase('replace', r.replace);
  if (parts.length && sdkErrors.length) parts.push(`SDK errors: ${[...new Set(sdkErrors)].join('; ')}`);
  return parts.join(' | ');
}

function argsText(args: unknown[]): string {
  const t = JSON.stringify(args);
  return t.length > 100 ? `${t.slice(0, 97)}...` : t;
}

function oneLine(source: string): string {
  const t = source.replace(/\s+/g, ' ');
  return t.length > 160 ? `${t.slice(0, 157)}...` : t;
}

/** Whether this SDK takes the options form with `uses` (run({ id, description, uses }, fn)). */
export function sdkHasUses(): boolean {
  const c = createRepairClient({ url: 'http://127.0.0.1:9', app: 'probe', sync: 'off', record: { sampleRate: 0, first: 0 }, execution: 'trusted' });
  try {
    return (c.run as (...a: unknown[]) => unknown)({ id: 'probe', description: 'probe', uses: { K: 2 } }, () => 1) === 1;
  } catch {
    return false;
  } finally {
    void c.close();
  }
}

/** Runs scenarios one after another on one bench; progress through settings.log. */
export async function runScenarios(scenarios: Scenario[], settings: Partial<BenchSettings> = {}): Promise<BenchReport> {
  const started = Date.now();
  const loadAvgAtStart = loadavg();
  const bench = await ScenarioBench.start(scenarios.map((s) => s.id), settings);
  const log = bench.settings.log;
  const uses = sdkHasUses();
  const results: ScenarioResult[] = [];
  try {
    for (const [i, s] of scenarios.entries()) {
      log(`(${i + 1}/${scenarios.length}) ${s.id}: ${s.title}`);
      const skip = s.uses.length && !uses ? 'the SDK has no uses option (run({ id, description, uses }, fn))' : undefined;
      const r = await bench.run(s, skip);
      results.push(r);
      log(`(${i + 1}/${scenarios.length}) ${s.id}: ${r.grade}${r.fallback ? `, hidden ${r.fallback.hiddenCorrect}/${r.fallback.hiddenTotal}, healthy unchanged ${r.fallback.healthyUnchanged}/${r.fallback.healthyTotal}` : ''}${r.replace ? `, replace: hidden ${r.replace.hiddenCorrect}/${r.replace.hiddenTotal} healthy ${r.replace.healthyUnchanged}/${r.replace.healthyTotal}` : ''}${r.msToPatch !== undefined ? `, patch in ${(r.msToPatch / 1000).toFixed(1)} s` : ''}${r.note ? ` — ${r.note}` : ''}`);
    }
  } finally {
    await bench.close();
  }
  const c = bench.config;
  return {
    startedAt: new Date(started).toISOString(),
    settings: { budgetMs: bench.settings.budgetMs, patchTimeoutMs: bench.settings.patchTimeoutMs, sampleRate: bench.settings.sampleRate, replacePhase: bench.settings.replacePhase, sandboxSize: c.sandboxSize, policy: c.policy, generators: c.generators },
    machine: { cores: availableParallelism(), loadAvgAtStart, loadAvgAtEnd: loadavg() },
    totals: totalsOf(results),
    scenarios: results,
    ms: Date.now() - started,
  };
}
