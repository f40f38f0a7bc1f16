import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OpenAiStubServer, completion, sendJson, sleep, type StubHandler } from '../llm/openai-stub-server.ts';
import { ADMIN_TOKEN, failureReport, recordedBatch, startHarness } from '../../testkit/service-harness.ts';

/**
 * Must hold: with the LLM generator on and its endpoint slow (answers after 60 s), erroring (HTTP
 * 500/429) or answering garbage (non-JSON, a truncated body, a completion of nonsense), a real repair
 * job still ends with a signed patch from the offline engine, within the engine budget plus a margin,
 * and the worker takes the next job.
 */
const BUDGET_MS = 6000;
const MARGIN_MS = 15_000;

const modes: Record<string, StubHandler> = {
  slow: async (_req, res) => {
    // Answers after a minute (longer than the budget), unless the stub is stopped first.
    await new Promise<void>((resolve) => {
      setTimeout(resolve, 60_000).unref();
      res.once('close', () => resolve());
    });
    if (!res.destroyed) sendJson(res, 200, completion('{"candidates": []}'));
  },
  erroring: (req, res) => sendJson(res, req.index % 2 ? 429 : 500, '{"error":{"message":"overloaded"}}', { 'retry-after': '0' }),
  garbage: (req, res) => {
    if (req.index % 3 === 0) sendJson(res, 200, '<html>bad gateway</html>');
    else if (req.index % 3 === 1) sendJson(res, 200, '{"choices": [{"message": {"content": "{\\"candidates\\": [{\\"source\\": ');
    else sendJson(res, 200, completion('```js\nfunction (order) { return process.exit(1) }\n``` and {"broken json'));
  },
};

describe('LLM endpoint faults during a real repair job', () => {
  for (const [mode, handler] of Object.entries(modes)) {
    it(`${mode} endpoint: the job completes with the offline engine's patch`, { timeout: 60_000 }, async (t) => {
      const llm = new OpenAiStubServer(handler);
      const baseUrl = await llm.start();
      const h = await startHarness({ generators: ['template', 'llm'], llmBaseUrl: baseUrl, llmApiKey: 'test-key', llmModel: 'stub-model', budgetMs: BUDGET_MS });
      t.after(async () => {
        await llm.stop();
        await h.close();
      });
      await h.startWorker();
      assert.equal((await h.call('/v1/cases', { body: recordedBatch() })).status, 202);
      const started = Date.now();
      const ack = await (await h.call('/v1/failures', { body: failureReport() })).json();
      let bug: { status: string } | undefined;
      while (Date.now() - started < BUDGET_MS + MARGIN_MS) {
        const res = await h.call(`/v1/admin/bugs/${ack.fingerprint}`, { token: ADMIN_TOKEN });
        bug = res.status === 200 ? ((await res.json()) as { bug: { status: string } }).bug : undefined;
        if (bug && bug.status !== 'new' && bug.status !== 'repairing') break;
        await sleep(200);
      }
      const ms = Date.now() - started;
      console.log(`[llm-${mode}] bug ${bug?.status} after ${ms} ms; the endpoint got ${llm.requests.length} requests`);
      assert.ok(llm.requests.length >= 1, 'the LLM endpoint was asked');
      assert.equal(bug?.status, 'patched');
      assert.ok(ms < BUDGET_MS + MARGIN_MS);
      const patches = await (await h.call('/v1/admin/patches?app=shop', { token: ADMIN_TOKEN })).json();
      assert.equal(patches.patches.length, 1, 'one patch for the bug');
      assert.match(patches.patches[0].generator ?? patches.patches[0].score?.generator ?? '', /^template:/);
    });
  }
});
