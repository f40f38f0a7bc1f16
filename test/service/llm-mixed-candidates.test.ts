import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { verifyPatchSignature } from '../../core/patch-signature.ts';
import type { Manifest } from '../../core/wire.ts';
import type { PatchRecord } from '../../service/store/service-store.ts';
import type { CandidateReport } from '../../engine/repair-report.ts';
import type { RepairJobReport } from '../../worker/repair-job-report.ts';
import { OpenAiStubServer, completion, sendJson } from '../llm/openai-stub-server.ts';
import { LABEL_CANDIDATES, LABEL_DESCRIPTION, LABEL_FAILING, LABEL_RECORDED, LABEL_SOURCE, type MixedCandidate } from '../llm/mixed-candidates.ts';
import { ADMIN_TOKEN, completedJob, startHarness, type Harness } from '../../testkit/service-harness.ts';

/**
 * Must hold: a real repair job (ingest HTTP API, daemon, BullMQ worker, sandbox, re-check, signing,
 * real Redis) whose only generator is an LLM endpoint answering, over real HTTP through the real
 * `openai` client, one correct fix among wrong, forging and hostile ones publishes the correct fix
 * and nothing else, and judges none of the others plausible: each is stopped by a case, and the
 * forging ones by a known-good call the forgery did not get past. The offline engine is off
 * (`generators: ['llm']`), so the win is the LLM path's.
 */
const BLOCK_ID = 'shipping-label';
const PWNED = '/tmp/suture-pwned';

/**
 * Candidates judged plausible because they ARE right wherever a patch can run unhardened code
 * no differently from the trial: the trial and the SDK's isolate mode are the same hardened realm
 * (frozen intrinsics, no process, one read of the answer). Only `execution: 'trusted'`, which runs
 * a patch in the app's own realm, would see them differ; the README says what trusted mode gives up.
 */
const KNOWN_PLAUSIBLE: Record<string, string> = {
  'forging: a getter right on its first read, wrong after':
    'the judge reads the result once, as the isolate SDK does; only trusted mode keeps the live getter',
  'forging: probes Object.isFrozen(Array.prototype)':
    'the trial and the isolate SDK are both locked down; only trusted mode runs unfrozen',
  'forging: probes for a missing process':
    'neither the trial nor the isolate SDK has `process`; only trusted mode does',
};

const good = (u: { name: string; address: { street: string; zip: string; city: string } }) => ({ name: u.name, lines: [u.address.street, `${u.address.zip} ${u.address.city}`] });

describe('a real repair job with an LLM endpoint answering a mix of correct, wrong, forging and hostile candidates', () => {
  let h: Harness;
  let llm: OpenAiStubServer;
  let report: RepairJobReport;
  let fingerprint: string;
  let jobMs = 0;
  const byName = new Map<string, CandidateReport>();

  before(async () => {
    rmSync(PWNED, { force: true });
    // Request i gets candidate i: every candidate is asked for exactly once, in one round.
    llm = new OpenAiStubServer((req, res) => {
      const c = LABEL_CANDIDATES[req.index % LABEL_CANDIDATES.length];
      sendJson(res, 200, completion(JSON.stringify({ source: c.source, explanation: c.name })));
    });
    const baseUrl = await llm.start();
    h = await startHarness({ generators: ['llm'], llmBaseUrl: baseUrl, llmApiKey: 'test-key', llmModel: 'stub-model', llmSamples: LABEL_CANDIDATES.length, budgetMs: 15_000 });
    await h.startWorker();
    const started = Date.now();
    const at = new Date().toISOString();
    const cases = await h.call('/v1/cases', {
      body: {
        requestId: 'label-calls-1',
        app: 'shop',
        instanceId: 'instance-1',
        blocks: [{ id: BLOCK_ID, description: LABEL_DESCRIPTION, source: LABEL_SOURCE, calls: LABEL_RECORDED.map((u) => ({ args: [u], result: good(u), argsAfter: [u], at })) }],
      },
    });
    assert.equal(cases.status, 202);
    const failure = await h.call('/v1/failures', {
      body: {
        requestId: 'label-failure-1',
        app: 'shop',
        instanceId: 'instance-1',
        block: { id: BLOCK_ID, description: LABEL_DESCRIPTION, source: LABEL_SOURCE },
        error: { name: 'TypeError', message: "Cannot read properties of undefined (reading 'street')", stack: "TypeError: Cannot read properties of undefined (reading 'street')\n    at eval (eval at run (/srv/app/sdk.js:1:1), <anonymous>:3:42)" },
        args: [LABEL_FAILING],
        at,
      },
    });
    assert.equal(failure.status, 202);
    const ack = (await failure.json()) as { fingerprint: string; jobId: string };
    fingerprint = ack.fingerprint;
    const job = await completedJob(h, ack.jobId, 25_000);
    jobMs = Date.now() - started;
    assert.equal(job.returnvalue.ended, 'published', JSON.stringify(job.returnvalue));
    const res = await h.call(`/v1/admin/jobs/${ack.jobId}`, { token: ADMIN_TOKEN });
    report = ((await res.json()) as { report: RepairJobReport }).report;
    for (const c of report.candidates) {
      const known = LABEL_CANDIDATES.find((x) => x.source === c.source);
      assert.ok(known, `a candidate the stub never sent: ${c.source}`);
      byName.set(known.name, c);
    }
    console.log(`[llm-mixed] ${LABEL_CANDIDATES.length} candidates over HTTP, job done in ${jobMs} ms (search ${report.ms} ms, ${report.trials} trials, ${report.cases.total} cases)`);
  });

  after(async () => {
    await h?.close();
    await llm?.stop();
    rmSync(PWNED, { force: true });
  });

  it('asked the endpoint once per candidate, tried every one, and used no other generator', () => {
    assert.equal(llm.requests.length, LABEL_CANDIDATES.length, 'one round: the correct fix made a second one needless');
    assert.equal(report.llm?.requests, LABEL_CANDIDATES.length);
    assert.equal(report.llm?.failures, 0, 'every answer parsed');
    assert.equal(report.tried, LABEL_CANDIDATES.length);
    assert.equal(byName.size, LABEL_CANDIDATES.length, 'every candidate is in the job report');
    assert.ok(report.candidates.every((c) => /^llm:stub-model#\d+$/.test(c.generator)), 'the offline engine was off');
    assert.ok(report.knownGood >= 3 && (report.oracle?.cases ?? 0) > 0, 'recorded calls and the original\'s answers on generated inputs judged the candidates');
  });

  it('publishes the correct candidate and nothing else: patch store, manifest and signed source', async () => {
    const correct = LABEL_CANDIDATES.find((c) => c.kind === 'correct')!;
    assert.equal(report.winner?.source, correct.source);
    assert.match(report.winner?.generator ?? '', /^llm:stub-model#/);
    assert.equal(report.recheck?.refused, false);
    assert.equal(report.recheck?.passed, report.recheck?.total);

    const bug = await h.daemon.context.store.getBug(fingerprint);
    assert.equal(bug?.status, 'patched');
    const { patches } = (await (await h.call('/v1/admin/patches?app=shop', { token: ADMIN_TOKEN })).json()) as { patches: PatchRecord[] };
    assert.equal(patches.length, 1, 'one patch in the store');
    assert.equal(patches[0].source, correct.source);
    assert.equal(patches[0].blockId, BLOCK_ID);
    assert.equal(patches[0].status, 'active', `held: ${JSON.stringify(report.confidence)}`);
    assert.match(patches[0].score.generator, /^llm:stub-model#/);
    assert.equal(patches[0].evidence?.recorded, LABEL_RECORDED.length);

    const { publicKey } = (await (await h.call('/v1/public-key', { token: null })).json()) as { publicKey: string };
    const manifest = (await (await h.call('/v1/manifest?app=shop')).json()) as Manifest;
    assert.deepEqual(manifest.patches.map((p) => p.source), [correct.source], 'the manifest holds the correct fix only');
    assert.equal(verifyPatchSignature(manifest.patches[0], publicKey), true, 'signed over the correct source');
    for (const other of LABEL_CANDIDATES.filter((c) => c.kind !== 'correct')) {
      assert.equal(verifyPatchSignature({ ...manifest.patches[0], source: other.source }, publicKey), false, `no signature covers ${other.name}`);
    }
  });

  it('no hostile candidate escaped its sandbox', () => {
    assert.equal(existsSync(PWNED), false);
    assert.equal(process.exitCode ?? 0, 0);
  });

  const stoppedBy = (c: CandidateReport) => c.trials.find((t) => t.verdict !== 'pass');

  for (const candidate of LABEL_CANDIDATES.filter((c) => c.kind !== 'correct')) {
    const todo = KNOWN_PLAUSIBLE[candidate.name];
    it(`not plausible: ${candidate.name}`, todo ? { todo } : {}, () => {
      const c = byName.get(candidate.name);
      assert.ok(c, 'tried');
      const why = c.status === 'plausible' ? `judged plausible (${c.passed}/${c.total} cases pass):\n${candidate.source}` : '';
      assert.notEqual(c.status, 'plausible', why);
      expectStop(candidate, c, stoppedBy(c));
    });
  }
});

/** The case that stopped a candidate, and how: a forgery must be seen through on a known-good call. */
function expectStop(candidate: MixedCandidate, c: CandidateReport, stop: CandidateReport['trials'][number] | undefined): void {
  if (candidate.kind === 'hostile') {
    assert.ok(c.status === 'compile-error' || ['timeout', 'memory', 'threw', 'crashed'].includes(stop?.verdict ?? ''), `${c.status} ${JSON.stringify(stop)}`);
    return;
  }
  assert.equal(c.status, 'failed');
  assert.ok(stop, 'a case stopped it');
  if (candidate.kind === 'forging') {
    // It ran to its end (its tricks caught) and the judge saw a wrong answer: a known-good call's, or an invariant of them.
    assert.equal(stop.verdict, 'wrong-result', JSON.stringify(stop));
    assert.ok(/^(recorded|generated|failure)-\d+$/.test(stop.caseId), stop.caseId);
  } else {
    assert.ok(['wrong-result', 'threw'].includes(stop.verdict), JSON.stringify(stop));
  }
}
