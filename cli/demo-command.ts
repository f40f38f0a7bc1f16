import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { loadConfig } from '../config/load-config.ts';
import { describeEvidence } from '../core/patch-evidence.ts';
import { verifyPatchSignature } from '../core/patch-signature.ts';
import { createDaemon, type Daemon } from '../daemon/daemon-server.ts';
import type { BugRecord, PatchRecord, StoredFailureCase } from '../service/store/service-store.ts';
import { DemoGame, DAMAGE_BLOCK, GAME_APP } from '../demo/game-loop.ts';
import { ensureRedis, RedisMissingError, type RedisHandle } from '../demo/local-redis.ts';
import type { CandidateReport } from '../engine/repair-report.ts';
import type { RepairJobReport } from '../worker/repair-job-report.ts';
import { startRepairWorker, type RepairJobProgress, type RepairWorkerHandle } from '../worker/repair-worker.ts';
import { AdminClient } from './admin-client.ts';
import { publicKeyId } from './key-id.ts';
import { deleteKeysUnder } from '../service/store/key-scan.ts';

export interface DemoOptions {
  /** Search budget of the repair job, ms. @defaultValue 20000 */
  budgetMs: number;
  /** Redis to use (else a private redis-server is started). @defaultValue SUTURE_REDIS_URL or redis://127.0.0.1:6379 */
  redisUrl: string;
  /** Longest the whole demo waits for the patch before it gives up, ms. @defaultValue 90000 */
  deadlineMs: number;
}

export function demoCommand(): Command {
  return new Command('demo')
    .description('The whole loop: starts a daemon and a worker, runs a small game on the SDK that hits a bug, and shows suture repair it live; stops everything at the end')
    .option('--budget <seconds>', 'search budget of the repair job, seconds', (v) => positive(v), 20)
    .addHelpText('after', '\nUses the Redis at SUTURE_REDIS_URL (default redis://127.0.0.1:6379), or starts a private redis-server.\nSet OPENAI_API_KEY (and SUTURE_LLM_MODEL, OPENAI_BASE_URL) to add the LLM generator.')
    .action(async (opts) => {
      process.exitCode = await runDemo({ budgetMs: opts.budget * 1000, redisUrl: process.env.SUTURE_REDIS_URL ?? 'redis://127.0.0.1:6379', deadlineMs: 90_000 });
    });
}

const out = (line = '') => process.stdout.write(`${line}\n`);
const section = (title: string) => out(`\n── ${title} ${'─'.repeat(Math.max(4, 72 - title.length))}`);
const indent = (text: string, pad = '    ') => text.replace(/\n$/, '').split('\n').map((l) => pad + l).join('\n');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the demo; returns the exit code. Everything it starts is stopped and its Redis keys deleted. */
export async function runDemo(o: DemoOptions): Promise<number> {
  const started = Date.now();
  const cleanups: [string, () => Promise<unknown>][] = [];
  out('suture demo: a game server calls applyAttack(player, enemy) through the suture SDK. An enemy');
  out('spawned from an old template has no `stats`, so the attack throws. Watch suture capture the');
  out('failure, search for a fix in sandboxes, publish a signed patch, and the game run it.');

  section('1. Starting suture');
  let redis: RedisHandle;
  try {
    redis = await ensureRedis(o.redisUrl);
  } catch (error) {
    if (error instanceof RedisMissingError) {
      process.stderr.write(`suture demo: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  out(redis.started ? `Redis: none at ${o.redisUrl}; started a private redis-server at ${redis.url} (stopped at the end)` : `Redis: ${redis.url}`);
  if (redis.started) cleanups.push(['redis-server', () => redis.stop()]);

  const prefix = `suture-demo-${randomBytes(4).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'suture-demo-'));
  cleanups.push(['data dir', async () => rmSync(dataDir, { recursive: true, force: true })]);
  const adminToken = randomBytes(16).toString('hex');
  const appToken = randomBytes(12).toString('hex');
  const llm = Boolean(process.env.OPENAI_API_KEY);
  const llmModel = process.env.SUTURE_LLM_MODEL ?? 'gpt-4o-mini';
  const silent = pino({ level: 'silent' });
  let daemon: Daemon | undefined;
  let worker: RepairWorkerHandle | undefined;
  let game: DemoGame | undefined;
  let code = 1;
  try {
    // The environment's SUTURE_* settings are not read: the demo must not touch a real deployment.
    const config = loadConfig({
      env: {},
      overrides: {
        port: 0, host: '127.0.0.1', redisUrl: redis.url, prefix, dataDir, adminToken, appTokens: { [GAME_APP]: appToken },
        policy: 'auto', budgetMs: o.budgetMs, sandboxSize: 2, logLevel: 'silent', jobBackoffMs: 500,
        generators: llm ? ['template', 'llm'] : ['template'],
        ...(llm ? { llmModel, llmApiKey: process.env.OPENAI_API_KEY, ...(process.env.OPENAI_BASE_URL ? { llmBaseUrl: process.env.OPENAI_BASE_URL } : {}) } : {}),
      },
    });
    daemon = await createDaemon(config, { logger: silent });
    const url = await daemon.listen();
    cleanups.unshift(['daemon', () => daemon!.close()]);
    worker = await startRepairWorker(config, { logger: silent });
    cleanups.unshift(['worker and its sandboxes', () => worker!.close()]);
    out(`daemon: ${url} (Redis keys under "${prefix}:", data in ${dataDir})`);
    out(`worker: ${worker.pool.size} sandbox processes (isolated-vm), publication policy "auto"`);
    out(llm
      ? `generators: offline mutation engine + LLM generator (${llmModel} at ${process.env.OPENAI_BASE_URL ?? 'the OpenAI API'}), because OPENAI_API_KEY is set`
      : 'generators: offline mutation engine only (set OPENAI_API_KEY, and SUTURE_LLM_MODEL, to add the LLM generator)');
    const admin = new AdminClient({ url, token: adminToken, actor: 'demo' });
    const { publicKey } = await admin.getPublic<{ publicKey: string }>('/v1/public-key');
    out(`patch-signing key: Ed25519, public key ${publicKeyId(publicKey)} (the game verifies every patch with it)`);

    section('2. The game runs; the SDK records calls that work');
    game = new DemoGame({ url, token: appToken, publicKey, waitForFixMs: o.deadlineMs });
    const g = game;
    cleanups.unshift(['game SDK client', () => g.repair.close()]);
    const patchedEvents: string[] = [];
    const shadows: boolean[] = [];
    g.repair.on('shadow', (e) => shadows.push(e.agreed));
    // The SDK may hear of the patch while section 4 is still printing; its events are told in section 6.
    let heldEvents: string[] | null = [];
    g.repair.on('patched', (e) => {
      patchedEvents.push(e.via);
      const line = `  ⚕ SDK event "patched": block ${e.blockId} runs patch ${e.patchId} (v${e.version}) ${e.via === 'wait' ? 'for the held call' : 'from the manifest, for the calls the block throws on (fallback mode)'}`;
      if (heldEvents) heldEvents.push(line);
      else out(line);
    });
    g.repair.on('failure', (e) => {
      const err = e.error as Error;
      out(`  ✗ ${err.name}: ${err.message}`);
      out('    The SDK sends a failure report (inputs as they were on entry, secrets redacted) and');
      out('    holds the call: waitForFix is on, so it waits for a fix instead of rethrowing.');
    });
    for (const enemy of [DemoGame.spawn('goblin', 50, 8), DemoGame.spawn('wolf', 30, 2), DemoGame.spawn('golem', 300, 40)]) {
      const before = enemy.health;
      const damage = await g.attack(enemy);
      out(`  ${g.hero.name} hits the ${enemy.name.padEnd(6)} (armor ${String(enemy.stats?.armor).padStart(2)}) for ${String(damage).padStart(2)}: health ${before} → ${enemy.health}`);
    }
    await g.repair.flush();
    out('  3 successful calls recorded and sent: inputs, result, and the arguments\' state after each call.');

    section('3. The bug: an enemy without stats');
    const ghost = DemoGame.spawn('ghost', 40);
    out(`  ${g.hero.name} attacks a ghost ${JSON.stringify(ghost)}`);
    const pending = Promise.resolve(g.attack(ghost)).then((d) => ({ ok: true as const, d }), (error: unknown) => ({ ok: false as const, error }));

    const bug = await waitFor(async () => (await admin.get<{ bugs: BugRecord[] }>(`/v1/admin/bugs?app=${GAME_APP}`)).bugs.find((b) => b.blockId === DAMAGE_BLOCK), o.deadlineMs, 'the failure report');
    const detail = await admin.get<{ cases: StoredFailureCase[]; job: { id: string } | null }>(`/v1/admin/bugs/${bug.fingerprint}`);
    out(`  failure captured by the daemon: bug ${bug.fingerprint.slice(0, 16)}… (${bug.errorName} at ${bug.topFrame || 'the block'})`);
    out('  the failing input as stored (snapshot encoding; the session token never left the game):');
    for (const [i, a] of (detail.cases[0]?.args ?? []).entries()) out(`    arg ${i + 1}: ${JSON.stringify(a)}`);

    section('4. The repair job');
    const jobId = detail.job?.id ?? bug.fingerprint;
    out(`  job ${jobId.slice(0, 16)}… queued (BullMQ); a worker takes it, runs the original on the cases, localises, tries candidates`);
    const report = await followJob(admin, jobId, o.deadlineMs);
    out(`  searched ${(report.ms / 1000).toFixed(1)} s: ${report.tried} candidates tried, ${report.trials} sandbox trials, ${report.cases.total} cases (${report.cases.failing} failing on the original)`);
    if (report.llm) out(`  LLM generator: ${report.llm.requests} requests (${report.llm.failures} failed), ${report.llm.promptTokens + report.llm.completionTokens} tokens, $${report.llm.costUsd.toFixed(4)}`);
    printCandidates(report);
    if (!report.winner) {
      out('  no plausible patch found');
      return 1;
    }
    out(`\n  winner: ${report.winner.generator}: ${report.winner.description} (score ${report.winner.score?.toFixed(1)})`);
    out(indent(report.winner.diff.split('\n').filter((l) => !l.startsWith('=====')).join('\n')));

    section('5. The patch: published and signed');
    const patch = await waitFor(async () => (await admin.get<{ patches: PatchRecord[] }>(`/v1/admin/patches?app=${GAME_APP}`)).patches.find((p) => p.fingerprint === bug.fingerprint), 10_000, 'the patch');
    out(`  patch ${patch.id}: version ${patch.version} of block ${patch.blockId}, status ${patch.status}, rollout ${Math.round(patch.rollout * 100)}%`);
    out(`  checked against: ${describeEvidence(patch.evidence)}`);
    out(`  signature (Ed25519 over id, app, block, source hash, version, source, evidence): ${patch.signature.slice(0, 24)}…`);
    out(`  signed by key ${publicKeyId(publicKey)}: ${verifyPatchSignature(patch, publicKey) ? 'signature verifies' : 'SIGNATURE DOES NOT VERIFY'}`);
    out('  the daemon announces it on the manifest stream (SSE); SDK instances verify it before running it');

    section('6. The game continues on the patch');
    const rescued = await pending;
    for (const line of heldEvents) out(line);
    heldEvents = null;
    if (!rescued.ok) {
      out(`  the waiting call failed: ${(rescued.error as Error)?.message ?? rescued.error}`);
      return 1;
    }
    out(`  the held call returned: ${g.hero.name} hits the ghost for ${rescued.d}: health 40 → ${ghost.health}`);
    await waitFor(async () => g.repair.stats().manifestRevision > 0 || null, 5000, 'the manifest').catch(() => undefined);
    for (const enemy of [DemoGame.spawn('wisp', 25), DemoGame.spawn('ghost', 40), DemoGame.spawn('orc', 60, 5)]) {
      const before = enemy.health;
      const damage = await g.attack(enemy);
      out(`  ${g.hero.name} hits the ${enemy.name.padEnd(5)} (${enemy.stats ? `armor ${enemy.stats.armor}` : 'no stats'}) for ${damage}: health ${before} → ${enemy.health}`);
    }
    await waitFor(async () => shadows.length > 0 || null, 2000, 'a shadow run').catch(() => undefined);
    await g.repair.flush();
    const counted = await waitFor(async () => {
      const p = await admin.get<PatchRecord>(`/v1/admin/patches/${patch.id}`);
      return p.passed >= 3 ? p : null;
    }, 5000, 'the outcome counts').catch(() => null);
    if (counted) out(`  the daemon counts the patch's calls: ${counted.passed} ran clean, ${counted.threw} threw (too many throws would roll it back)`);
    if (shadows.length > 0) {
      const agreed = shadows.filter((a) => a).length;
      out(`  the orc got the block's own answer; in the background the patch ran on a copy of its inputs (shadow run): ${agreed} of ${shadows.length} agreed with the block (a disagreement would roll it back)`);
    }
    out(`  patched events seen: ${patchedEvents.join(', ')}`);
    out(`\nRepaired: the game kept running. Export the fix for your code with \`suture export ${patch.id} --out DIR\`.`);
    code = 0;
    return code;
  } catch (error) {
    process.stderr.write(`suture demo: ${(error as Error)?.message ?? error}\n`);
    return 1;
  } finally {
    section('7. Clean-up');
    for (const [name, stop] of cleanups.filter(([n]) => n !== 'redis-server' && n !== 'data dir')) {
      await stop().catch((error: Error) => out(`  could not stop ${name}: ${error.message}`));
    }
    const deleted = await deletePrefix(redis.url, prefix).catch(() => -1);
    for (const [name, stop] of cleanups.filter(([n]) => n === 'redis-server' || n === 'data dir')) {
      await stop().catch((error: Error) => out(`  could not stop ${name}: ${error.message}`));
    }
    out(`  stopped the game client, worker, sandboxes and daemon${redis.started ? ', and the private redis-server' : ''}; deleted ${deleted} Redis keys under "${prefix}:"`);
    out(`  ${code === 0 ? 'done' : 'failed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
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
  return t ? `${t.outcome} on ${t.caseId}` : c.status;
}

async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const v = await probe().catch(() => undefined);
    if (v) return v;
    await sleep(100);
  }
  throw new Error(`gave up waiting for ${what} after ${ms / 1000} s`);
}

async function deletePrefix(url: string, prefix: string): Promise<number> {
  const r = new Redis(url, { maxRetriesPerRequest: 1 });
  r.on('error', () => {});
  let n = 0;
  try {
    n = await deleteKeysUnder(r, prefix);
  } finally {
    r.disconnect();
  }
  return n;
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`expected a positive number, got "${value}"`);
  return n;
}
