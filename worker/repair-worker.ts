import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import type { SutureConfig } from '../config/config-settings.ts';
import { claimFleetKey, connectRedis, createRedis, createServiceLogger } from '../service/service-runtime.ts';
import { REPAIR_QUEUE, bullConnection, type RepairJobData } from '../service/repair-queue.ts';
import { loadSigningKeys, type SigningKeys } from '../service/signing-keys.ts';
import { ServiceStore } from '../service/store/service-store.ts';
import { repairBlock, type EngineEvent, LlmGenerator, SandboxPool } from '../engine/index.ts';
import { evidenceFromCases } from '../core/patch-evidence.ts';
import { cannotSeeMessage, namesProvenAbsent, unknownFreeNames } from '../core/block-free-names.ts';
import { buildJobCases } from './job-cases.ts';
import { publishPatch, StaleRoundError, type PublishResult } from './patch-publisher.ts';
import { recheckWinner, type RecheckDifference } from './patch-recheck.ts';
import { buildJobReport } from './repair-job-report.ts';

/** Job progress as the admin API shows it. */
export interface RepairJobProgress {
  phase: 'starting' | 'baseline' | 'searching' | 'rechecking' | 'publishing' | 'done';
  cases?: number;
  failing?: number;
  tried: number;
  plausible: number;
  best?: { rank: number; generator: string; description: string; score?: number };
  /** The winner's re-check in a fresh sandbox: cases passed of cases run; refused when any differs. */
  recheck?: { passed: number; total: number; refused: boolean };
  workerPid: number;
}

/** How a repair job ended: its BullMQ return value, the admin API's job `returnvalue`. */
export type RepairJobResult =
  | { ended: 'published'; patch: PublishResult; tried: number; ms: number }
  | { ended: 'no-patch'; stoppedBy: string; tried: number; ms: number }
  | { ended: 'refused'; passed: number; total: number; differing: RecheckDifference[]; tried: number; ms: number }
  | { ended: 'skipped'; reason: string };

export interface RepairWorkerHandle {
  worker: Worker<RepairJobData, RepairJobResult>;
  pool: SandboxPool;
  keys: SigningKeys;
  close(): Promise<void>;
}

const PROGRESS_EVERY_MS = 250;

/**
 * Starts a BullMQ worker that repairs bugs: it reads the bug's cases from Redis, runs the engine
 * in a sandbox pool, stores the candidate report, and publishes the winner as a signed patch.
 * Workers on any number of machines share the queue; a killed worker's job is taken over by
 * another one once its lock expires (BullMQ stalled-job recovery).
 */
export async function startRepairWorker(config: SutureConfig, options: { logger?: Logger } = {}): Promise<RepairWorkerHandle> {
  const log = options.logger ?? createServiceLogger(config, 'suture-worker');
  const redis = createRedis(config.redisUrl, { enableOfflineQueue: true, maxRetriesPerRequest: 20 });
  redis.on('error', (error: Error) => log.warn({ err: error.message }, 'redis connection error'));
  await connectRedis(config.redisUrl, redis);
  const store = new ServiceStore(redis, config.prefix);
  const keys = loadSigningKeys({ dataDir: config.dataDir, keyFile: config.signingKeyFile });
  try {
    await claimFleetKey(store, keys, config.prefix);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  const pool = new SandboxPool({ size: config.sandboxSize, limits: { cpuMs: config.sandboxCpuMs, wallMs: config.sandboxWallMs, memoryMb: config.sandboxMemoryMb } });
  const llm = config.generators.includes('llm') && config.llmModel
    ? new LlmGenerator({ model: config.llmModel, baseURL: config.llmBaseUrl, apiKey: config.llmApiKey, samples: config.llmSamples })
    : undefined;

  const processor = async (job: Job<RepairJobData, RepairJobResult>): Promise<RepairJobResult> => {
    const { fingerprint, round } = job.data;
    const bug = await store.getBug(fingerprint);
    if (!bug) throw new UnrecoverableError(`unknown bug ${fingerprint}`);
    if (bug.round !== round) return { ended: 'skipped', reason: `bug is at round ${bug.round}` };
    if (bug.patchId) {
      // A previous attempt published (or reserved) this round's version: finish that, never a second one.
      const existing = await store.getPatch(bug.patchId);
      if (existing) return { ended: 'skipped', reason: `patch ${existing.id} already published` };
    }
    const block = await store.getBlock(bug.app, bug.blockId, bug.sourceHash);
    if (!block) throw new UnrecoverableError(`block ${bug.blockId} of bug ${fingerprint} is missing`);
    // The daemon queues no job for such a block; a requeue (operator, roll-back) may still.
    const failures = await store.bugCases(fingerprint);
    const absent = namesProvenAbsent(failures.map((c) => c.error ?? {}));
    const unseen = unknownFreeNames(block.source, [...(bug.uses ?? []), ...absent]);
    if (unseen.length > 0) {
      const reason = cannotSeeMessage(bug.blockId, unseen);
      await store.setBugStatus(fingerprint, round, 'cannot-see', { reason, unseen });
      return { ended: 'skipped', reason };
    }
    await store.setBugStatus(fingerprint, round, 'repairing');
    const cases = buildJobCases(failures, await store.recordedCalls(bug.app, bug.blockId, bug.sourceHash));
    const progress: RepairJobProgress = { phase: 'starting', cases: cases.length, tried: 0, plausible: 0, workerPid: process.pid };
    let lastSent = 0;
    const sendProgress = (force = false) => {
      const now = performance.now();
      if (!force && now - lastSent < PROGRESS_EVERY_MS) return;
      lastSent = now;
      job.updateProgress({ ...progress }).catch((error: Error) => log.debug({ err: error.message }, 'progress update failed'));
    };
    sendProgress(true);
    const onEvent = (e: EngineEvent) => {
      if (e.type === 'baseline') {
        progress.phase = 'baseline';
        progress.failing = e.failing;
      } else if (e.type === 'candidate') {
        progress.phase = 'searching';
        progress.tried = e.candidate.rank;
      } else if (e.type === 'plausible') {
        progress.plausible++;
        const c = e.candidate;
        if (!progress.best || (c.score ?? 0) < (progress.best.score ?? Infinity)) progress.best = { rank: c.rank, generator: c.generator, description: c.description, score: c.score };
      }
      sendProgress(e.type !== 'candidate');
    };
    const target = { source: block.source, description: block.description, ...(bug.uses ? { uses: bug.uses } : {}), ...(absent.length > 0 ? { absent } : {}) };
    const result = await repairBlock(target, cases, {
      pool,
      generators: config.generators,
      llm,
      budgetMs: config.budgetMs,
      maxCandidates: config.maxCandidates,
      onEvent,
    });
    const report = buildJobReport(fingerprint, round, result, config.keepCandidates);
    if (!result.winner) {
      await store.saveReport(fingerprint, round, report);
      const reason = `the repair search ended without a plausible candidate (${result.tried} tried, stopped by ${result.stoppedBy})`;
      await store.setBugStatus(fingerprint, round, 'unpatched', { reason });
      progress.phase = 'done';
      sendProgress(true);
      log.info({ fingerprint, round, stoppedBy: result.stoppedBy, tried: result.tried }, 'no plausible patch');
      return { ended: 'no-patch', stoppedBy: result.stoppedBy, tried: result.tried, ms: Math.round(result.ms) };
    }
    // Before signing: the winner again, in a sandbox host that never ran the search, on every case.
    progress.phase = 'rechecking';
    sendProgress(true);
    const limits = { cpuMs: config.sandboxCpuMs, wallMs: config.sandboxWallMs, memoryMb: config.sandboxMemoryMb };
    // Every case the search judged candidates on: the job's and those the engine generated.
    const judged = result.cases;
    const recheck = await recheckWinner({ block: target, winner: result.winner, cases: judged, limits, synchronous: result.synchronous });
    report.recheck = recheck;
    progress.recheck = { passed: recheck.passed, total: recheck.total, refused: recheck.refused };
    await store.saveReport(fingerprint, round, report);
    if (recheck.refused) {
      const reason = `the search's winner was refused at its re-check in a fresh sandbox (${recheck.passed} of ${recheck.total} cases passed)`;
      await store.setBugStatus(fingerprint, round, 'unpatched', { reason });
      progress.phase = 'done';
      sendProgress(true);
      log.warn({ fingerprint, round, generator: result.winner.generator, passed: recheck.passed, total: recheck.total, differing: recheck.differing }, 'winner refused: its re-check verdict differs from the search');
      return { ended: 'refused', passed: recheck.passed, total: recheck.total, differing: recheck.differing, tried: result.tried, ms: Math.round(result.ms) };
    }
    progress.phase = 'publishing';
    sendProgress(true);
    let patch: PublishResult;
    try {
      const evidence = evidenceFromCases(judged, recheck);
      patch = await publishPatch({ store, keys, config, bug, round, winner: result.winner, evidence, confidence: result.confidence?.level });
    } catch (error) {
      if (error instanceof StaleRoundError) return { ended: 'skipped', reason: error.message };
      throw error;
    }
    progress.phase = 'done';
    sendProgress(true);
    log.info({ fingerprint, round, patchId: patch.patchId, version: patch.version, status: patch.status, stored: patch.stored, tried: result.tried }, 'patch published');
    return { ended: 'published', patch, tried: result.tried, ms: Math.round(result.ms) };
  };

  const worker = new Worker<RepairJobData, RepairJobResult>(REPAIR_QUEUE, processor, {
    prefix: config.prefix,
    connection: bullConnection(config.redisUrl, { maxRetriesPerRequest: null }),
    concurrency: config.workerConcurrency,
    lockDuration: config.lockDurationMs,
    stalledInterval: config.stalledIntervalMs,
    // A job whose worker died is retried this many times before it fails for good.
    maxStalledCount: 2,
  });
  worker.on('error', (error: Error) => log.warn({ err: error.message }, 'worker error'));
  worker.on('failed', (job, error) => {
    if (!job) return;
    log.warn({ jobId: job.id, attemptsMade: job.attemptsMade, err: error.message }, 'repair job failed');
    if (job.attemptsMade >= (job.opts.attempts ?? 1) || error instanceof UnrecoverableError) {
      void store.setBugStatus(job.data.fingerprint, job.data.round, 'failed', { reason: `the repair job failed: ${error.message.slice(0, 500)}` }).catch(() => {});
    }
  });
  await worker.waitUntilReady();
  log.info({ prefix: config.prefix, concurrency: config.workerConcurrency, sandboxes: pool.size, generators: config.generators }, 'suture worker ready');

  return {
    worker,
    pool,
    keys,
    async close() {
      await worker.close();
      await pool.close();
      redis.disconnect();
    },
  };
}
