import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JobType } from 'bullmq';
import { evidenceWarning } from '../../core/patch-evidence.ts';
import { signModeGrant } from '../../core/mode-grant.ts';
import type { PatchMode } from '../../core/wire.ts';
import type { DaemonContext } from '../daemon-context.ts';
import { HttpError } from '../http-errors.ts';
import { adminDecisionSchema, appQuerySchema, fingerprintSchema, idParamsSchema, patchIdSchema, policyUpdateSchema } from '../http-schemas.ts';
import { DECISION_NAMES, PATCH_DECISIONS, decisionAllowed, offeredDecisions, type PatchDecision } from '../../service/patch-lifecycle.ts';
import type { PatchRecord } from '../../service/store/service-store.ts';

/**
 * A patch as the admin API shows it: the stored record, the decisions the lifecycle table offers
 * from its status (the dashboard's buttons), and a warning when its evidence is thin.
 */
export function patchView(p: PatchRecord): PatchRecord & { decisions: PatchDecision[]; evidenceWarning?: string } {
  const warning = evidenceWarning(p.evidence);
  return { ...p, decisions: offeredDecisions(p), ...(warning ? { evidenceWarning: warning } : {}) };
}

/** Status decisions whose body may also set the mode. */
const MODE_TAKING = DECISION_NAMES.filter((d) => { const row = PATCH_DECISIONS[d]; return row.kind === 'status' && row.takesMode; });

const JOB_STATES = ['waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized'] as const;

/** The admin API under /v1/admin (admin token): inspection, decisions, policies, audit log. */
export function adminRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  const { store, auth, queue, config, scheduler } = ctx;
  const actorOf = (request: FastifyRequest) => {
    const h = request.headers['x-suture-actor'];
    return typeof h === 'string' && h.trim() ? h.trim().slice(0, 100) : 'admin';
  };
  const tags = ['admin'];

  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/v1/admin/') || request.url === '/v1/admin') auth.admin(request);
  });

  app.get('/v1/admin/apps', { schema: { tags, summary: 'Apps that reported anything' } }, async () => ({ apps: await store.listApps() }));

  app.get('/v1/admin/blocks', { schema: { tags, summary: 'Blocks of an app (source, failures, recorded calls)', querystring: appQuerySchema } }, async (request) => {
    const { app: a } = request.query as { app: string };
    return { blocks: await store.listBlocks(a) };
  });

  app.get('/v1/admin/bugs', { schema: { tags, summary: 'Bugs of an app, most recent first', querystring: appQuerySchema } }, async (request) => {
    const { app: a } = request.query as { app: string };
    return { bugs: await store.listBugs(a) };
  });

  app.get('/v1/admin/bugs/:fingerprint', { schema: { tags, summary: 'One bug: its cases, job and candidate report', params: idParamsSchema('fingerprint', fingerprintSchema) } }, async (request) => {
    const { fingerprint } = request.params as { fingerprint: string };
    const bug = await store.getBug(fingerprint);
    if (!bug) throw new HttpError('SUTURE_UNKNOWN_BUG', `no bug with fingerprint ${fingerprint}`);
    const jobId = bug.round <= 1 ? fingerprint : `${fingerprint}-r${bug.round}`;
    // The recorded calls of the bug's block are its other half of the cases (export writes them as a regression test).
    const recorded = await store.recordedCalls(bug.app, bug.blockId, bug.sourceHash);
    return { bug, cases: await store.bugCases(fingerprint), recorded, job: await describeJob(jobId, false), report: await store.getReport(fingerprint, bug.round) };
  });

  app.post('/v1/admin/bugs/:fingerprint/requeue', { schema: { tags, summary: 'Open a new repair round for a bug', params: idParamsSchema('fingerprint', fingerprintSchema), body: { anyOf: [adminDecisionSchema, { type: 'null' }] } } }, async (request, reply) => {
    const { fingerprint } = request.params as { fingerprint: string };
    const bug = await store.getBug(fingerprint);
    if (!bug) throw new HttpError('SUTURE_UNKNOWN_BUG', `no bug with fingerprint ${fingerprint}`);
    if (bug.status === 'new' || bug.status === 'repairing') throw new HttpError('SUTURE_CONFLICT', `bug is ${bug.status}; its job is open`);
    const jobId = await scheduler.requeue(fingerprint, bug.app);
    await store.audit({ actor: actorOf(request), action: 'requeue', target: fingerprint, detail: { jobId, reason: (request.body as { reason?: string } | null)?.reason } }, config.auditMax);
    return reply.code(202).send({ fingerprint, jobId });
  });

  async function describeJob(id: string, withReport: boolean) {
    const job = await queue.getJob(id);
    if (!job) return null;
    const state = await job.getState();
    const out: Record<string, unknown> = {
      id: job.id, state, data: job.data, progress: job.progress, attemptsMade: job.attemptsMade, attempts: job.opts.attempts,
      failedReason: job.failedReason || undefined, returnvalue: job.returnvalue ?? undefined,
      createdAt: job.timestamp, processedOn: job.processedOn, finishedOn: job.finishedOn,
    };
    if (withReport && job.data?.fingerprint) out.report = await store.getReport(job.data.fingerprint, job.data.round);
    return out;
  }

  app.get('/v1/admin/jobs', {
    schema: { tags, summary: 'Repair jobs by state with progress', querystring: { type: 'object', additionalProperties: false, properties: { state: { type: 'string', enum: [...JOB_STATES] }, limit: { type: 'integer', minimum: 1, maximum: 1000 } } } },
  }, async (request) => {
    const { state, limit = 100 } = request.query as { state?: JobType; limit?: number };
    const jobs = await queue.getJobs(state ? [state] : [...JOB_STATES], 0, limit - 1);
    return {
      counts: await queue.getJobCounts(...JOB_STATES),
      jobs: await Promise.all(jobs.filter(Boolean).map(async (j) => ({ id: j.id, state: await j.getState(), data: j.data, progress: j.progress, attemptsMade: j.attemptsMade, failedReason: j.failedReason || undefined }))),
    };
  });

  app.get('/v1/admin/jobs/:id', { schema: { tags, summary: 'One job: state, progress, and every candidate with diff, score and trial table', params: idParamsSchema('id') } }, async (request) => {
    const { id } = request.params as { id: string };
    const job = await describeJob(id, true);
    if (!job) throw new HttpError('SUTURE_UNKNOWN_JOB', `no job ${id}`);
    return job;
  });

  app.get('/v1/admin/patches', { schema: { tags, summary: 'Every patch of an app with status, rollout, outcome counters and evidence (cases by kind, re-check verdict; `evidenceWarning` when thin)', querystring: appQuerySchema } }, async (request) => {
    const { app: a } = request.query as { app: string };
    const read = await store.readPatches(a);
    return { ...read, patches: read.patches.map(patchView) };
  });

  app.get('/v1/admin/patches/:id', { schema: { tags, summary: 'One patch', params: idParamsSchema('id', patchIdSchema) } }, async (request) => {
    const { id } = request.params as { id: string };
    const patch = await store.getPatch(id);
    if (!patch) throw new HttpError('SUTURE_UNKNOWN_PATCH', `no patch ${id}`);
    return patchView(patch);
  });

  for (const action of DECISION_NAMES) {
    const decision = PATCH_DECISIONS[action];
    if (decision.kind !== 'status') continue;
    app.post(`/v1/admin/patches/:id/${action}`, {
      schema: { tags, summary: `${decision.summary} (allowed from: ${decision.from.join(', ')})`, params: idParamsSchema('id', patchIdSchema), body: { anyOf: [adminDecisionSchema, { type: 'null' }] } },
    }, async (request) => {
      const { id } = request.params as { id: string };
      const body = (request.body ?? {}) as { reason?: string; requeue?: boolean; mode?: PatchMode };
      if (body.mode && !decision.takesMode) throw new HttpError('SUTURE_INVALID_REQUEST', `body/mode: ${action} takes no mode (only ${MODE_TAKING.join(' and ')} do)`);
      const patch = await store.getPatch(id);
      if (!patch) throw new HttpError('SUTURE_UNKNOWN_PATCH', `no patch ${id}`);
      if (!decisionAllowed(action, patch.status)) throw new HttpError('SUTURE_CONFLICT', `cannot ${action} a patch that is ${patch.status}`);
      const next = decision.to(patch, config.canarySteps);
      const r = await store.setPatchStatus(patch, decision.from, next.status, next.rollout, decision.bugStatus, next.step);
      if (!r.changed) throw new HttpError('SUTURE_CONFLICT', `cannot ${action} a patch that is ${r.status}`);
      ctx.metrics.decisions.inc({ decision: action });
      await store.audit({ actor: actorOf(request), action, target: id, detail: { from: patch.status, to: next.status, rollout: next.rollout, reason: body.reason, revision: r.revision } }, config.auditMax);
      if (body.mode && body.mode !== (patch.mode ?? 'fallback')) await setMode(request, patch, body.mode, body.reason);
      let jobId: string | null = null;
      if (action === 'rollback' && body.requeue) {
        jobId = await scheduler.requeue(patch.fingerprint, patch.app);
        await store.audit({ actor: actorOf(request), action: 'requeue', target: patch.fingerprint, detail: { after: 'rollback', patchId: id, jobId } }, config.auditMax);
      }
      const after = await store.getPatch(id);
      return { patch: after && patchView(after), revision: r.revision, ...(jobId ? { jobId } : {}) };
    });
  }

  /**
   * The mode is an operator's decision: `replace` is signed by this daemon (the SDK runs a patch
   * instead of its block only with that grant), `fallback` removes the grant. Audited.
   */
  async function setMode(request: FastifyRequest, patch: PatchRecord, mode: PatchMode, reason: string | undefined) {
    const grant = mode === 'replace' ? signModeGrant({ id: patch.id, app: patch.app, blockId: patch.blockId, sourceHash: patch.sourceHash, version: patch.version, mode }, ctx.keys.privateKey) : '';
    const r = await store.setPatchMode(patch, PATCH_DECISIONS[mode].from, mode, grant);
    if (!r.changed) throw new HttpError('SUTURE_CONFLICT', `cannot change the mode of a patch that is ${r.status}`);
    await store.audit({ actor: actorOf(request), action: mode, target: patch.id, detail: { from: r.before, to: mode, reason, revision: r.revision } }, config.auditMax);
    return r;
  }

  for (const action of DECISION_NAMES) {
    const decision = PATCH_DECISIONS[action];
    if (decision.kind !== 'mode') continue;
    const { mode } = decision;
    app.post(`/v1/admin/patches/:id/${action}`, {
      schema: {
        tags,
        summary: `${decision.summary} (allowed from: ${decision.from.join(', ')})`,
        params: idParamsSchema('id', patchIdSchema),
        body: { anyOf: [adminDecisionSchema, { type: 'null' }] },
      },
    }, async (request) => {
      const { id } = request.params as { id: string };
      const body = (request.body ?? {}) as { reason?: string };
      const patch = await store.getPatch(id);
      if (!patch) throw new HttpError('SUTURE_UNKNOWN_PATCH', `no patch ${id}`);
      const r = await setMode(request, patch, mode, body.reason);
      const after = await store.getPatch(id);
      return { patch: after && patchView(after), revision: r.revision };
    });
  }

  app.get('/v1/admin/policies', { schema: { tags, summary: 'Default policy, configured and admin-set policies per app or block' } }, async () => ({
    default: config.policy,
    configured: config.policies,
    overrides: await store.getPolicies(),
  }));

  app.put('/v1/admin/policies', { schema: { tags, summary: 'Set (or clear with null) the policy of an app or block', body: policyUpdateSchema } }, async (request) => {
    const body = request.body as { app: string; blockId?: string; policy: string | null };
    const key = body.blockId ? `${body.app}/${body.blockId}` : body.app;
    const before = (await store.getPolicies())[key] ?? null;
    await store.setPolicy(key, body.policy);
    await store.audit({ actor: actorOf(request), action: 'set-policy', target: key, detail: { from: before, to: body.policy } }, config.auditMax);
    return { key, policy: body.policy };
  });

  app.get('/v1/admin/audit', {
    schema: { tags, summary: 'Audit log, newest first', querystring: { type: 'object', additionalProperties: false, properties: { limit: { type: 'integer', minimum: 1, maximum: 10_000 } } } },
  }, async (request) => ({ entries: await store.readAudit((request.query as { limit?: number }).limit ?? 100) }));
}
