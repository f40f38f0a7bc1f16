import { describeEvidence } from '../core/patch-evidence.ts';
import { verifyPatchSignature } from '../core/patch-signature.ts';
import type { CandidateReport } from '../engine/index.ts';
import type { PatchedEvent, RepairClient } from '../sdk/index.ts';
import type { BugRecord, PatchRecord, StoredFailureCase } from '../service/store/service-store.ts';
import type { RepairJobReport } from '../worker/repair-job-report.ts';
import type { RepairJobProgress } from '../worker/repair-worker.ts';
import type { AdminClient } from './admin-client.ts';
import { publicKeyId } from './key-id.ts';

/** What a demo scenario gets from the demo's set-up: a running daemon and worker, and who to be. */
export interface DemoContext {
  url: string;
  admin: AdminClient;
  /** The app token of the demo's app (GAME_APP). */
  appToken: string;
  /** The daemon's patch-signing public key (PEM). */
  publicKey: string;
  deadlineMs: number;
}

/** One scenario of `suture demo`: its opening lines, then its sections; resolves to the exit code. */
export interface DemoScenario {
  intro: string[];
  run(ctx: DemoContext, onCleanup: (name: string, stop: () => Promise<unknown>) => void): Promise<number>;
}

export const out = (line = '') => process.stdout.write(`${line}\n`);
let sectionNumber = 0;
/** A numbered section heading (numbers go on across scenarios; `resetSections` starts again at 1). */
export const section = (title: string) => {
  const numbered = `${++sectionNumber}. ${title}`;
  out(`\n── ${numbered} ${'─'.repeat(Math.max(4, 72 - numbered.length))}`);
};
export const resetSections = () => {
  sectionNumber = 0;
};
export const indent = (text: string, pad = '    ') => text.replace(/\n$/, '').split('\n').map((l) => pad + l).join('\n');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Prints the SDK's `patched` events as `  ⚕ SDK event "patched": block B runs patch P (vN) <how>`.
 * Those heard before `release()` are kept back and printed then: the SDK may hear of a patch while
 * the job's section is still printing. `seen` lists each event's `via`.
 */
export function patchedEvents(repair: RepairClient, how: (e: PatchedEvent) => string): { seen: string[]; release(): void } {
  const seen: string[] = [];
  let held: string[] | null = [];
  repair.on('patched', (e) => {
    seen.push(e.via);
    const line = `  ⚕ SDK event "patched": block ${e.blockId} runs patch ${e.patchId} (v${e.version}) ${how(e)}`;
    if (held) held.push(line);
    else out(line);
  });
  return {
    seen,
    release() {
      for (const line of held ?? []) out(line);
      held = null;
    },
  };
}

/** Prints each failure the SDK reports: the error, then `explain`. */
export function printFailures(repair: RepairClient, explain: string[]): void {
  repair.on('failure', (e) => {
    const err = e.error as Error;
    out(`  ✗ ${err.name}: ${err.message}`);
    for (const line of explain) out(`    ${line}`);
  });
}

export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const v = await probe().catch(() => undefined);
    if (v) return v;
    await sleep(100);
  }
  throw new Error(`gave up waiting for ${what} after ${ms / 1000} s`);
}

/** Waits for the daemon to hold a bug of block `blockId` of `app`; returns it with its stored cases and job. */
export async function capturedBug(admin: AdminClient, app: string, blockId: string, deadlineMs: number): Promise<{ bug: BugRecord; cases: StoredFailureCase[]; jobId: string }> {
  const bug = await waitFor(async () => (await admin.get<{ bugs: BugRecord[] }>(`/v1/admin/bugs?app=${app}`)).bugs.find((b) => b.blockId === blockId), deadlineMs, 'the failure report');
  const detail = await admin.get<{ cases: StoredFailureCase[]; job: { id: string } | null }>(`/v1/admin/bugs/${bug.fingerprint}`);
  return { bug, cases: detail.cases, jobId: detail.job?.id ?? bug.fingerprint };
}

/**
 * The repair job's section: its progress as it changes, the search figures, the candidates and the
 * winner's diff. Returns the report, or null when no plausible patch was found.
 */
export async function showRepairJob(admin: AdminClient, jobId: string, deadlineMs: number): Promise<RepairJobReport | null> {
  out(`  job ${jobId.slice(0, 16)}… queued (BullMQ); a worker takes it, runs the original on the cases, localises, tries candidates`);
  const report = await followJob(admin, jobId, deadlineMs);
  out(`  searched ${(report.ms / 1000).toFixed(1)} s: ${report.tried} candidates tried, ${report.trials} sandbox trials, ${report.cases.total} cases (${report.cases.failing} failing on the original)`);
  if (report.llm) out(`  LLM generator: ${report.llm.requests} requests (${report.llm.failures} failed), ${report.llm.promptTokens + report.llm.completionTokens} tokens, $${report.llm.costUsd.toFixed(4)}`);
  printCandidates(report);
  if (!report.winner) {
    out('  no plausible patch found');
    return null;
  }
  out(`\n  winner: ${report.winner.generator}: ${report.winner.description} (score ${report.winner.score?.toFixed(1)})`);
  out(indent(report.winner.diff.split('\n').filter((l) => !l.startsWith('=====')).join('\n')));
  return report;
}

/** The published patch's section: waits for it, prints its record, evidence and signature check. */
export async function showPatch(admin: AdminClient, app: string, bug: BugRecord, publicKey: string): Promise<PatchRecord> {
  const patch = await waitFor(async () => (await admin.get<{ patches: PatchRecord[] }>(`/v1/admin/patches?app=${app}`)).patches.find((p) => p.fingerprint === bug.fingerprint), 10_000, 'the patch');
  out(`  patch ${patch.id}: version ${patch.version} of block ${patch.blockId}, status ${patch.status}, rollout ${Math.round(patch.rollout * 100)}%`);
  out(`  checked against: ${describeEvidence(patch.evidence)}`);
  out(`  signature (Ed25519 over id, app, block, source hash, version, source, evidence): ${patch.signature.slice(0, 24)}…`);
  out(`  signed by key ${publicKeyId(publicKey)}: ${verifyPatchSignature(patch, publicKey) ? 'signature verifies' : 'SIGNATURE DOES NOT VERIFY'}`);
  out('  the daemon announces it on the manifest stream (SSE); SDK instances verify it before running it');
  return patch;
}

/** Prints job progress as it changes until the job finishes; returns the job's report. */
async function followJob(admin: AdminClient, jobId: string, deadlineMs: number): Promise<RepairJobReport> {
  const deadline = Date.now() + deadlineMs;
  let last = '';
  while (Date.now() < deadline) {
    const job = await admin.get<{ state: string; progress: RepairJobProgress | number; report?: RepairJobReport | null; failedReason?: string }>(`/v1/admin/jobs/${encodeURIComponent(jobId)}`).catch(() => null);
    if (job) {
      const p = typeof job.progress === 'object' ? job.progress : null;
      const line = p ? `  [${job.state}] ${p.phase}: ${p.tried} tried, ${p.plausible} plausible${p.best ? `, best so far: ${p.best.generator} ${p.best.description}` : ''}` : `  [${job.state}]`;
      if (line !== last) out(line);
      last = line;
      if (job.state === 'completed' && job.report) return job.report;
      if (job.state === 'failed') throw new Error(`repair job failed: ${job.failedReason}`);
    }
    await sleep(150);
  }
  throw new Error(`the repair job did not finish within ${deadlineMs / 1000} s`);
}

function printCandidates(report: RepairJobReport): void {
  const plausible = report.candidates.filter((c) => c.status === 'plausible');
  const rejected = report.candidates.filter((c) => c.status !== 'plausible').sort((a, b) => a.rank - b.rank);
  out(`\n  plausible candidates (pass every case), best score first (lower is better):`);
  for (const c of plausible.slice(0, 6)) out(`    #${String(c.rank).padEnd(4)} ${c.generator.padEnd(30)} score ${c.score?.toFixed(1).padStart(5)}  ${c.description}`);
  if (plausible.length > 6) out(`    … and ${plausible.length - 6} more`);
  out(`  some rejected candidates (each stopped at its first failing case):`);
  for (const c of rejected.slice(0, 5)) out(`    #${String(c.rank).padEnd(4)} ${c.generator.padEnd(30)} ${why(c).padEnd(26)} ${c.description}`);
}

function why(c: CandidateReport): string {
  if (c.status === 'compile-error') return 'does not compile';
  const t = c.trials.at(-1);
  return t ? `${t.verdict} on ${t.caseId}` : c.status;
}
