import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadSuite, type SuiteBug } from '../../suite/suite-loader.ts';
import { repairBlock } from '../../engine/repair-engine.ts';
import type { CandidateReport, RepairResult } from '../../engine/repair-report.ts';
import { LlmGenerator } from '../../engine/generators/llm/llm-generator.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { CLOSE_CANDIDATES } from './mixed-candidates.ts';
import { OpenAiStubServer, completion, sendJson } from './openai-stub-server.ts';

/**
 * Must hold: on a bench bug judged by `console.assert` scripts (HumanEvalFix-JS `JavaScript/0`
 * from the committed dev suite), the engine with the LLM generator alone, fed over real HTTP
 * through the real `openai` client one correct fix among wrong, forging and hostile answers, wins
 * with the correct fix, which the hidden cases also pass, and judges none of the others
 * plausible. Forging answers keep the buggy logic and try to silence or fool the assertions
 * (replaced or shadowed `console`, poisoned prototypes, `JSON`, `Error` and `Function` hooks,
 * answers that convert, thenables, harness probes): each must fail an assertion, never pass one.
 */
describe('engine + LLM generator on a console.assert bug: a mix of correct, wrong, forging and hostile answers', () => {
  let pool: SandboxPool;
  let llm: OpenAiStubServer;
  let bug: SuiteBug;
  let result: RepairResult;
  const byName = new Map<string, CandidateReport>();

  before(async () => {
    bug = (await loadSuite('bench/suites/humanevalfix-js-dev', { only: ['JavaScript/0'] })).bugs[0]!;
    llm = new OpenAiStubServer((req, res) => {
      const c = CLOSE_CANDIDATES[req.index % CLOSE_CANDIDATES.length];
      sendJson(res, 200, completion(JSON.stringify({ source: c.source, explanation: c.name })));
    });
    const baseURL = await llm.start();
    pool = new SandboxPool({ size: 1 });
    const generator = new LlmGenerator({ baseURL, apiKey: 'test-key', model: 'stub-model', samples: CLOSE_CANDIDATES.length, maxRetries: 0 });
    const started = Date.now();
    // The offline engine is off: it would fix this bug by itself (Math.abs).
    result = await repairBlock(bug.block, bug.cases, { pool, generators: ['llm'], llm: generator, budgetMs: 20_000 });
    for (const c of result.candidates) {
      const known = CLOSE_CANDIDATES.find((x) => x.source === c.source);
      assert.ok(known, `a candidate the stub never sent: ${c.source}`);
      byName.set(known.name, c);
    }
    console.log(`[llm-mixed-script] ${CLOSE_CANDIDATES.length} candidates over HTTP, search done in ${Date.now() - started} ms (${result.trials} trials)`);
  });

  after(async () => {
    await pool?.close();
    await llm?.stop();
  });

  it('every answer was asked for once and tried; the cases are the visible console.assert scripts', () => {
    assert.equal(llm.requests.length, CLOSE_CANDIDATES.length);
    assert.equal(result.llm?.failures, 0);
    assert.equal(result.tried, CLOSE_CANDIDATES.length);
    assert.equal(byName.size, CLOSE_CANDIDATES.length);
    assert.ok(bug.cases.length > 1 && bug.cases.every((c) => c.check === 'script' && /console\.assert/.test(c.script ?? '')));
  });

  it('the correct answer wins, and the hidden cases pass it', async () => {
    const correct = CLOSE_CANDIDATES.find((c) => c.kind === 'correct')!;
    assert.equal(result.winner?.source, correct.source);
    assert.match(result.winner?.generator ?? '', /^llm:stub-model#\d+$/);
    assert.deepEqual(result.candidates.filter((c) => c.status === 'plausible').map((c) => c.source), [correct.source], 'the only plausible candidate');
    assert.ok(bug.hidden.length > 0);
    const hidden = await pool.run({ block: { ...bug.block, source: correct.source }, cases: bug.hidden });
    assert.deepEqual(hidden.results.map((r) => r.verdict), bug.hidden.map(() => 'pass'));
  });

  for (const candidate of CLOSE_CANDIDATES.filter((c) => c.kind !== 'correct')) {
    it(`not plausible: ${candidate.name}`, () => {
      const c = byName.get(candidate.name);
      assert.ok(c, 'tried');
      assert.notEqual(c.status, 'plausible', `judged plausible (${c.passed}/${c.total}):\n${candidate.source}`);
      const stop = c.trials.find((t) => t.verdict !== 'pass');
      if (candidate.kind === 'hostile') {
        assert.ok(c.status === 'compile-error' || ['timeout', 'memory', 'crashed', 'threw'].includes(stop?.verdict ?? ''), `${c.status} ${JSON.stringify(stop ?? c.compileError)}`);
        return;
      }
      // Defined fine, then a case failed by throwing an AssertionError: the harness's console.assert, which nothing silenced
      // (or, for the candidate that throws a fake one, its own throw, a failure all the same).
      assert.equal(c.status, 'failed');
      assert.equal(stop?.verdict, 'threw', JSON.stringify(stop));
      assert.equal(stop?.error?.name, 'AssertionError', JSON.stringify(stop));
    });
  }
});
