import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Case } from '../../core/types.ts';
import { SandboxPool } from '../../engine/sandbox/sandbox-pool.ts';
import { repairBlock } from '../../engine/repair-engine.ts';
import { LlmGenerator } from '../../engine/generators/llm/llm-generator.ts';
import { OpenAiStubServer, completion, sendJson } from '../llm/openai-stub-server.ts';

// Missing logic no single mutation adds: vowels must be counted case-insensitively and 'y' only at the end.
const buggy = `function countVowels(s) {
  let n = 0;
  for (const ch of s) if ('aeiou'.includes(ch)) n++;
  return n;
}`;
const fixed = `function countVowels(s) {
  let n = 0;
  for (const ch of s.toLowerCase()) if ('aeiou'.includes(ch)) n++;
  if (/y$/i.test(s)) n++;
  return n;
}`;
const cases: Case[] = [
  { id: 'c0', kind: 'test', check: 'value', args: ['abc'], expect: 1 },
  { id: 'c1', kind: 'test', check: 'value', args: ['ACEDY'], expect: 3 },
  { id: 'c2', kind: 'test', check: 'value', args: ['key'], expect: 2 },
];
const hostile = `function countVowels(s) { this.constructor.constructor('return process')().exit(1); return 0; }`;
const wrong = `function countVowels(s) { return s.length; }`;

describe('engine with the LLM generator (local OpenAI-compatible server, real client, real HTTP)', () => {
  let pool: SandboxPool;
  before(() => {
    pool = new SandboxPool({ size: 2 });
  });
  after(async () => {
    await pool.close();
  });

  test('garbage and hostile answers are contained; the correct answer wins', async () => {
    let n = 0;
    const server = new OpenAiStubServer((_req, res) => {
      const answers = ['not json at all', JSON.stringify({ source: hostile, explanation: 'exit' }), JSON.stringify({ source: wrong, explanation: 'length' }), JSON.stringify({ source: fixed, explanation: 'lowercase and trailing y' })];
      sendJson(res, 200, completion(answers[n++ % answers.length]));
    });
    const baseURL = await server.start();
    try {
      const llm = new LlmGenerator({ baseURL, apiKey: 'test-key', model: 'stub-model', samples: 4, timeoutMs: 5000, maxRetries: 0 });
      const result = await repairBlock({ source: buggy, entry: 'countVowels', description: 'count vowels; y counts only at the end' }, cases, { pool, generators: ['llm'], llm, budgetMs: 20_000 });
      assert.ok(result.plausible);
      assert.match(result.winner!.generator, /^llm:stub-model#\d$/);
      assert.equal(result.winner!.source, fixed);
      const hostileTrial = result.candidates.find((c) => c.source === hostile);
      assert.ok(hostileTrial && hostileTrial.status !== 'plausible', 'the hostile candidate ran in the sandbox and failed there');
      assert.equal(result.llm?.requests, 4);
      assert.ok((result.llm?.failures ?? 0) >= 1, 'the garbage answer is counted as a failure');
      assert.equal(process.exitCode ?? 0, 0);
    } finally {
      await server.stop();
    }
  });

  test('a second round gets the trial failures of round one and its fix is used', async () => {
    const server = new OpenAiStubServer((req, res) => {
      const messages = req.body.messages as { role: string; content: string }[];
      const isRefine = messages.length > 2;
      sendJson(res, 200, completion(JSON.stringify({ source: isRefine ? fixed : wrong, explanation: isRefine ? 'after feedback' : 'first try' })));
    });
    const baseURL = await server.start();
    try {
      const llm = new LlmGenerator({ baseURL, apiKey: 'test-key', model: 'stub-model', samples: 2, timeoutMs: 5000, maxRetries: 0 });
      const result = await repairBlock({ source: buggy, entry: 'countVowels' }, cases, { pool, generators: ['llm'], llm, budgetMs: 20_000 });
      assert.ok(result.plausible);
      assert.equal(result.winner!.source, fixed);
      const refineRequest = server.requests.find((r) => r.body.messages.length > 2);
      assert.ok(refineRequest, 'a refine request was sent');
      const feedback = refineRequest.body.messages.at(-1).content as string;
      assert.match(feedback, /wrong result/i);
    } finally {
      await server.stop();
    }
  });
});
