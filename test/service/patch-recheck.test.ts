import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import type { Manifest } from '../../core/wire.ts';
import { buildJobCases } from '../../worker/job-cases.ts';
import { recheckWinner } from '../../worker/patch-recheck.ts';
import type { RepairJobReport } from '../../worker/repair-job-report.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { OpenAiStubServer, completion, sendJson } from '../llm/openai-stub-server.ts';
import { ADMIN_TOKEN, ORDER_TOTAL_SOURCE, failureReport, recordedBatch, completedJob, startHarness } from '../../testkit/service-harness.ts';

/**
 * Must hold: a winner whose verdict in the search leans on state an earlier case left behind (here
 * the failing input sets a global the recorded calls then use) passes the search, which runs a
 * candidate's cases one after the other in one context, and fails the re-check, which runs every
 * case in a fresh compartment of a sandbox host that never ran the search. Such a winner is not signed
 * or published; the job's report and progress name the differing cases.
 */
const LEANING_ON_STATE = [
  'function (order) {',
  '  if (!order.items) { globalThis.unitPrice = 1; return 0; }',
  '  let total = 0;',
  '  for (const item of order.items) total += item.price * item.qty * globalThis.unitPrice;',
  '  return total;',
  '}',
].join('\n');
const HONEST_FIX = ORDER_TOTAL_SOURCE.replace('order.items)', 'order.items ?? [])');

/** The job's cases as the worker builds them: one failing input, then the three recorded calls. */
function jobCases(): Case[] {
  // The third recorded call has no argument state after it (the store keeps what the SDK sent).
  const calls = recordedBatch().blocks[0].calls.map((c) => ({ ...c, argsAfter: c.argsAfter as unknown[] }));
  return buildJobCases([{ args: [{ id: 7 }], at: '2024-01-01T00:00:00.000Z', instanceId: 'i-1', error: { name: 'TypeError', message: 'order.items is not iterable' } }], calls);
}

test('re-check: a winner whose search verdict leaned on state left by an earlier case is refused, every differing case named', { timeout: 60_000 }, async () => {
  const cases = jobCases();
  assert.deepEqual(cases.map((c) => c.id), ['failure-1', 'recorded-1', 'recorded-2', 'recorded-3']);
  const block = { source: ORDER_TOTAL_SOURCE };
  // The search's own verdict, obtained the way the engine runs a candidate: all cases in one request, failing case first.
  const search = new SandboxPool({ size: 1 });
  let searchPids: number[];
  let trials;
  try {
    const report = await search.run({ block: { ...block, source: LEANING_ON_STATE }, cases, stopOnFirstFailure: true });
    trials = report.results;
    searchPids = search.hostPids();
  } finally {
    await search.close();
  }
  assert.deepEqual(trials.map((t) => t.verdict), ['pass', 'pass', 'pass', 'pass'], 'the search finds it plausible');

  const recheck = await recheckWinner({ block, winner: { source: LEANING_ON_STATE, trials }, cases, limits: {} });
  assert.equal(recheck.refused, true);
  assert.equal(recheck.total, 4);
  assert.equal(recheck.passed, 2, 'the failing input and the empty order still pass');
  assert.deepEqual(recheck.differing.map((d) => [d.caseId, d.kind, d.search, d.recheck]), [
    ['recorded-1', 'recorded', 'pass', 'wrong-result'],
    ['recorded-3', 'recorded', 'pass', 'wrong-result'],
  ]);
  assert.match(recheck.differing[0].message ?? '', /NaN/);
  assert.ok(recheck.hostPid && !searchPids.includes(recheck.hostPid), 'the re-check ran in a host of its own');

  const honest = await recheckWinner({ block, winner: { source: HONEST_FIX, trials }, cases, limits: {} });
  assert.deepEqual([honest.refused, honest.passed, honest.total, honest.differing], [false, 4, 4, []]);
});

test('re-check: every case runs (no stop at the first failure); a case the search ran that the re-check lacks refuses the winner', { timeout: 60_000 }, async () => {
  const cases = jobCases();
  const block = { source: ORDER_TOTAL_SOURCE };
  // Claimed pass on every case by a search that did not look: it throws on the failing input and returns a string elsewhere.
  const claimed = [...cases.map((c) => ({ caseId: c.id, verdict: 'pass' as const, ms: 1 })), { caseId: 'generated-1', verdict: 'pass' as const, ms: 1 }];
  const r = await recheckWinner({ block, winner: { source: 'function (order) { return order.items.length + "" }', trials: claimed }, cases, limits: {} });
  assert.equal(r.refused, true);
  assert.equal(r.passed, 0);
  assert.deepEqual(r.differing.map((d) => [d.caseId, d.recheck]), [
    ['failure-1', 'threw'],
    ['recorded-1', 'wrong-result'],
    ['recorded-2', 'wrong-result'],
    ['recorded-3', 'wrong-result'],
    ['generated-1', 'not re-checked'],
  ]);
  const broken = await recheckWinner({ block, winner: { source: 'function (order) { return ', trials: claimed.slice(0, 4) }, cases, limits: {} });
  assert.deepEqual([broken.refused, broken.passed, broken.differing.length], [true, 0, 4]);
  assert.match(broken.differing[0].message ?? '', /does not compile/);
});

test('worker: an LLM winner refused by the re-check is not signed or published; the job report and progress say why', { timeout: 90_000 }, async (t) => {
  // A real OpenAI-compatible endpoint over HTTP whose every answer is the candidate that leans on state.
  const llm = new OpenAiStubServer((_req, res) => sendJson(res, 200, completion(JSON.stringify({ source: LEANING_ON_STATE, explanation: 'default the unit price' }))));
  const baseUrl = await llm.start();
  const h = await startHarness({ generators: ['llm'], llmBaseUrl: baseUrl, llmApiKey: 'test-key', llmModel: 'stub-model', budgetMs: 8000 });
  t.after(async () => {
    await h.close();
    await llm.stop();
  });
  const worker = await h.startWorker();
  assert.equal((await h.call('/v1/cases', { body: recordedBatch() })).status, 202);
  const { fingerprint, jobId } = await (await h.call('/v1/failures', { body: failureReport() })).json();
  const finished = await completedJob(h, jobId, 60_000);
  assert.equal(finished.returnvalue.ended, 'refused');
  // The two recorded calls with items get NaN; inputs the engine generated from them may differ too.
  const differing = finished.returnvalue.differing as { caseId: string; kind: string; search: string; recheck: string }[];
  assert.equal(differing.filter((d) => d.kind === 'recorded').length, 2);
  assert.ok(differing.every((d) => d.search === 'pass' && d.recheck === 'wrong-result'), 'the search said pass on each');
  const bug = await h.daemon.context.store.getBug(fingerprint);
  assert.equal(bug?.status, 'unpatched');
  assert.equal(bug?.patchId ?? undefined, undefined, 'no version reserved');

  const job = (await (await h.call(`/v1/admin/jobs/${jobId}`, { token: ADMIN_TOKEN })).json()) as { progress: { phase: string; recheck?: { passed: number; total: number; refused: boolean } }; report: RepairJobReport };
  assert.equal(job.report.winner?.source, LEANING_ON_STATE, 'the search chose it');
  assert.equal(job.report.winner?.status, 'plausible');
  assert.equal(job.report.recheck?.refused, true);
  assert.deepEqual(job.report.recheck?.differing, differing);
  const { passed, total } = job.report.recheck!;
  assert.equal(total, job.report.winner?.total, 'every case the search judged');
  assert.equal(passed, total - differing.length);
  assert.deepEqual(job.progress.recheck, { passed, total, refused: true });
  assert.ok(!worker.pool.hostPids().includes(job.report.recheck!.hostPid!), 'not a search host');

  const patches = (await (await h.call('/v1/admin/patches?app=shop', { token: ADMIN_TOKEN })).json()) as { patches: unknown[] };
  assert.deepEqual(patches.patches, [], 'nothing published');
  const manifest = (await (await h.call('/v1/manifest?app=shop')).json()) as Manifest;
  assert.deepEqual(manifest.patches, []);
});
