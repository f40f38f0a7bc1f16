import type { FastifyInstance } from 'fastify';
import { cannotSeeMessage, namesProvenAbsent, unknownFreeNames } from '../../core/block-free-names.ts';
import type { FailureAck, FailureReport, OutcomeReport, RecordedCall, RecordedCasesBatch } from '../../core/wire.ts';
import type { DaemonContext } from '../daemon-context.ts';
import { ActivitySeries } from '../dashboard/activity-series.ts';
import { failureFingerprint, sha256, sourceHashOf } from '../failure-fingerprint.ts';
import { FailureIngestBatcher } from '../failure-ingest-batcher.ts';
import { failureAckSchema, failureReportSchema, outcomeReportSchema, recordedCasesSchema } from '../http-schemas.ts';
import { checkSnapshot, checkWorld } from '../snapshot-limits.ts';
import type { PatchRecord } from '../../service/store/service-store.ts';

/** POST /v1/failures, /v1/cases and /v1/outcomes: what SDK instances send. */
export function ingestRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  const { config, store, auth, metrics, scheduler } = ctx;
  const limits = { maxBytes: config.maxSnapshotBytes, maxDepth: config.maxSnapshotDepth };
  // The dashboard's chart: written in the background, and a counter that cannot be written must
  // not fail or slow the report.
  const activity = new ActivitySeries(ctx.redis, config.prefix);
  const countActivity = (a: string, counts: { failures?: number; passed?: number; threw?: number }) =>
    activity.record(a, counts).catch((error: Error) => ctx.log.debug({ err: error.message }, 'activity counter not written'));
  // Reports are stored in groups (one round trip per event-loop turn); the chart is counted once
  // per group and app rather than once per report.
  const failures = new FailureIngestBatcher(store, scheduler, {
    onStored(stored) {
      const perApp = new Map<string, number>();
      for (const { record, result } of stored) if (result.fresh) perApp.set(record.app, (perApp.get(record.app) ?? 0) + 1);
      for (const [a, n] of perApp) void countActivity(a, { failures: n });
    },
  });

  /** Checks a recorded call's snapshots against the limits; gives its (args hash, stored json) pair. */
  const checkRecordedCall = (field: string, call: RecordedCall): [string, string] => {
    const args = checkSnapshot(`${field}/args`, call.args, limits);
    checkSnapshot(`${field}/result`, call.result, limits);
    if (call.argsAfter) checkSnapshot(`${field}/argsAfter`, call.argsAfter, limits);
    // The same arguments in another world (other uses values or dependency answers) is another case.
    const worldJson = call.world ? checkWorld(`${field}/world`, call.world, limits) : '';
    return [sha256(args + worldJson).slice(0, 32), JSON.stringify({ args: call.args, result: call.result, argsAfter: call.argsAfter, at: call.at, ...(call.world ? { world: call.world } : {}) })];
  };

  /** Stores the disagreeing calls of a patch (checked: checkRecordedCall pairs) as recorded calls of its block, past the block's cap; returns how many were new. */
  const keepDisagreements = async (patch: PatchRecord, calls: [string, string][]): Promise<number> => {
    if (calls.length === 0) return 0;
    const block = await store.getBlock(patch.app, patch.blockId, patch.sourceHash);
    if (!block) return 0;
    return store.addRecordedCalls({
      app: patch.app, blockId: patch.blockId, sourceHash: patch.sourceHash, description: block.description, source: block.source,
      now: Date.now(), max: Number.MAX_SAFE_INTEGER, calls,
    });
  };

  app.post('/v1/failures', {
    schema: { tags: ['ingest'], summary: 'Report one failing call of a block', body: failureReportSchema, response: { 202: failureAckSchema } },
  }, async (request, reply) => {
    const body = request.body as FailureReport;
    auth.app(request, body.app);
    const argsJson = checkSnapshot('body/args', body.args, limits);
    const worldJson = body.world ? checkWorld('body/world', body.world, limits) : '';
    const fp = failureFingerprint({ app: body.app, blockId: body.block.id, source: body.block.source, error: body.error, uses: body.block.uses });
    // A block that reads names suture cannot see is stored but not searched: a trial would run it
    // without them (parsed once per source, cached). A name the failing call itself threw
    // `X is not defined` for is no value suture lacks: it is undefined in the app too, and reading
    // it is the bug.
    const unseen = unknownFreeNames(body.block.source, [...fp.uses, ...namesProvenAbsent([body.error])]);
    const cannotSee = unseen.length > 0 ? cannotSeeMessage(body.block.id, unseen) : '';
    let fingerprint = fp.fingerprint;
    // A failure of a patched call belongs to the bug the patch fixed: its input becomes a case of
    // that bug (used when the patch is rolled back and the bug repaired again).
    if (body.patchId) {
      const patch = await store.getPatch(body.patchId);
      if (patch && patch.app === body.app && patch.blockId === body.block.id) fingerprint = patch.fingerprint;
    }
    const stored = await failures.submit({
      app: body.app,
      requestId: body.requestId,
      requestIdTtl: config.requestIdTtlSeconds,
      now: Date.now(),
      blockId: body.block.id,
      sourceHash: fp.sourceHash,
      description: body.block.description ?? '',
      source: body.block.source,
      errorName: body.error.name,
      message: fp.message,
      firstMessage: body.error.message.slice(0, 2000),
      frame: fp.frame,
      stack: (body.error.stack ?? '').slice(0, 4000),
      caseHash: sha256(argsJson + worldJson).slice(0, 32),
      caseJson: JSON.stringify({
        args: body.args,
        ...(body.inputs ? { inputs: body.inputs } : {}),
        at: body.at,
        instanceId: body.instanceId,
        error: { name: body.error.name, message: body.error.message.slice(0, 500) },
        ...(body.patchId ? { patchId: body.patchId } : {}),
        ...(body.world ? { world: body.world } : {}),
      }),
      maxCases: config.maxCasesPerBug,
      fingerprint,
      uses: fp.uses,
      unseen,
      cannotSee,
    });
    metrics.failures.inc({ app: body.app, result: stored.fresh ? 'stored' : 'duplicate' });
    const ack: FailureAck = { fingerprint, jobId: stored.jobId, status: stored.status === 'requeue' ? 'new' : stored.status, ...(stored.fresh ? {} : { duplicate: true }) };
    if (stored.status === 'cannot-see') {
      ack.names = unseen;
      ack.message = cannotSee;
      ctx.log.info({ app: body.app, blockId: body.block.id, fingerprint, names: unseen }, 'not searched: the block reads names suture cannot see');
    }
    return reply.code(202).send(ack);
  });

  app.post('/v1/cases', {
    schema: { tags: ['ingest'], summary: 'Recorded successful calls per block', body: recordedCasesSchema },
  }, async (request, reply) => {
    const body = request.body as RecordedCasesBatch;
    auth.app(request, body.app);
    if (await store.requestSeen(body.app, body.requestId)) return reply.code(202).send({ added: 0, duplicate: true });
    const batches = body.blocks.map((block, i) => {
      const calls = block.calls.map((call, j) => checkRecordedCall(`body/blocks/${i}/calls/${j}`, call));
      return { block, calls };
    });
    let added = 0;
    const now = Date.now();
    for (const { block, calls } of batches) {
      added += await store.addRecordedCalls({
        app: body.app, blockId: block.id, sourceHash: sourceHashOf(block.source), description: block.description ?? '',
        source: block.source, now, max: config.maxRecordedPerBlock, calls,
      });
    }
    // Remembered only once stored: a retry after a failure stores again (the calls are a set).
    await store.markRequest(body.app, body.requestId, config.requestIdTtlSeconds);
    metrics.recorded.inc({ app: body.app }, added);
    return reply.code(202).send({ added });
  });

  app.post('/v1/outcomes', {
    schema: { tags: ['ingest'], summary: 'Counts of patched calls that passed or threw, per patch', body: outcomeReportSchema },
  }, async (request, reply) => {
    const body = request.body as OutcomeReport;
    auth.app(request, body.app);
    // Counters are not idempotent: claim the request id first, release it when storing fails.
    // Disagreeing calls are checked before anything is claimed or counted, once.
    const disagreementCalls = body.outcomes.map((o, i) => (o.disagreements ?? []).map((d, j) => checkRecordedCall(`body/outcomes/${i}/disagreements/${j}/call`, d.call)));
    const claimed = await ctx.redis.set(store.keys.request(body.app, body.requestId), '1', 'EX', config.requestIdTtlSeconds, 'NX');
    if (!claimed) return reply.code(202).send({ applied: 0, duplicate: true, decisions: [] });
    const decisions: { patchId: string; decision: string; status: string; rollout: number; reason?: string }[] = [];
    let unknown = 0;
    try {
      for (const [i, o] of body.outcomes.entries()) {
        const patch = await store.getPatch(o.patchId);
        if (!patch || patch.app !== body.app) {
          unknown++;
          continue;
        }
        const agreed = o.agreed ?? 0;
        const disagreed = o.disagreed ?? 0;
        if (o.passed + o.threw + agreed + disagreed === 0) continue;
        metrics.outcomes.inc({ app: body.app, outcome: 'passed' }, o.passed);
        metrics.outcomes.inc({ app: body.app, outcome: 'threw' }, o.threw);
        // The calls the patch would have changed become recorded calls of the block first, so the
        // repair round a roll-back opens keeps their answers.
        const kept = await keepDisagreements(patch, disagreementCalls[i]);
        const r = await store.applyOutcome(patch, { passed: o.passed, threw: o.threw, agreed, disagreed }, {
          steps: config.canarySteps, cleanCalls: config.canaryCleanCalls, threshold: config.rollbackThreshold, minCalls: config.rollbackMinCalls,
        });
        decisions.push({ patchId: patch.id, decision: r.decision, status: r.status, rollout: r.rollout, ...(r.reason ? { reason: r.reason } : {}) });
        void countActivity(body.app, { passed: o.passed, threw: o.threw });
        if (r.decision === 'promoted' || r.decision === 'rolled-back') {
          metrics.decisions.inc({ decision: r.decision });
          const total = patch.passed + patch.threw + o.passed + o.threw;
          // A shadow roll-back is the comparison's doing: its actor says so.
          const actor = r.reason === 'shadow' ? 'shadow' : 'system';
          const first = o.disagreements?.[0];
          await store.audit({
            actor,
            action: r.decision === 'promoted' ? 'auto-promote' : 'auto-rollback',
            target: patch.id,
            detail: {
              status: r.status, rollout: r.rollout, passed: patch.passed + o.passed, threw: patch.threw + o.threw, total, revision: r.revision,
              ...(r.reason === 'shadow'
                ? { reason: 'a shadow run disagreed with the block', agreed: patch.agreed + agreed, disagreed: patch.disagreed + disagreed, recordedCases: kept, instanceId: body.instanceId, ...(first ? { example: first } : {}) }
                : {}),
            },
          }, config.auditMax);
          ctx.log.info({ patchId: patch.id, decision: r.decision, reason: r.reason, rollout: r.rollout }, 'rollout decision');
          if (r.decision === 'rolled-back' && config.requeueOnRollback) {
            const jobId = await scheduler.requeue(patch.fingerprint, patch.app);
            await store.audit({ actor, action: 'requeue', target: patch.fingerprint, detail: { after: 'auto-rollback', patchId: patch.id, jobId, ...(kept ? { recordedCases: kept } : {}) } }, config.auditMax);
          }
        }
      }
    } catch (error) {
      await ctx.redis.del(store.keys.request(body.app, body.requestId)).catch(() => {});
      throw error;
    }
    return reply.code(202).send({ applied: decisions.length, unknown, decisions });
  });
}
