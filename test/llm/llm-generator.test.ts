import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { LlmGenerator, type LlmRepairInput } from '../../engine/generators/llm/llm-generator.ts';
import { LlmConfigError } from '../../engine/generators/llm/llm-errors.ts';
import { collect, completion, OpenAiStubServer, sendJson, sleep, type StubHandler } from './openai-stub-server.ts';

const FIXED = 'function total(items) {\n  return (items ?? []).reduce((s, x) => s + x.price, 0);\n}';
const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';

const input: LlmRepairInput = {
  block: {
    source: 'function total(items) {\n  return items.reduce((s, x) => s + x.price, 0);\n}',
    entry: 'total',
    description: 'Sum the prices of the items in a cart',
  },
  error: {
    name: 'TypeError',
    message: "Cannot read properties of undefined (reading 'reduce')",
    stack: "TypeError: Cannot read properties of undefined (reading 'reduce')\n    at total (block.js:2:16)",
  },
  failing: [{ args: [null, { sku: 'failing-sku-42', note: `key ${SECRET}` }], error: 'TypeError: reduce of null' }],
  passing: [{ args: [[{ price: 7 }, { price: 35 }]], expected: 42 }],
};

const servers: OpenAiStubServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

async function stub(handler: StubHandler): Promise<{ server: OpenAiStubServer; baseURL: string }> {
  const server = new OpenAiStubServer(handler);
  servers.push(server);
  return { server, baseURL: await server.start() };
}

const answer = (source: string, explanation = 'guard a missing list') => completion(JSON.stringify({ source, explanation }));

describe('LlmGenerator against a local OpenAI-compatible server', () => {
  test('good answers: N parallel requests, prompt carries the job, candidates stream as each completes', async () => {
    const { server, baseURL } = await stub(async (req, res) => {
      // Staggered answers: the first candidate must arrive before the slowest request finishes.
      await sleep(req.index === 0 ? 60 : 400);
      sendJson(res, 200, answer(FIXED, `fix number ${req.index}\nsecond line`));
    });
    const llm = new LlmGenerator({ baseURL, apiKey: 'test-key', model: 'stub-model', samples: 4 });
    const started = Date.now();
    const { items, at } = await collect(llm.generate(input));

    assert.equal(server.requests.length, 4);
    assert.equal(server.maxInFlight, 4, 'the 4 samples are sent in parallel');
    assert.ok(at[0]! - started < 300, `first candidate streamed early (${at[0]! - started} ms)`);
    assert.equal(items.length, 4);
    assert.deepEqual(items.map((c) => c.generator).sort(), ['llm:stub-model#1', 'llm:stub-model#2', 'llm:stub-model#3', 'llm:stub-model#4']);
    for (const candidate of items) {
      assert.equal(candidate.source, FIXED);
      assert.equal(candidate.prior, 0.5);
      assert.match(candidate.description, /^fix number \d second line$/);
    }

    const body = server.requests[0]!.body;
    assert.equal(server.requests[0]!.path, '/v1/chat/completions');
    assert.equal(server.requests[0]!.headers.authorization, 'Bearer test-key');
    assert.equal(body.model, 'stub-model');
    assert.deepEqual(body.response_format, { type: 'json_object' });
    assert.equal(body.temperature, 0.8);
    assert.equal(body.max_completion_tokens, 2048);
    const [system, user] = body.messages;
    assert.equal(system.role, 'system');
    assert.match(system.content, /"source".*"explanation"/);
    assert.match(system.content, /declares a function named `total`/);
    assert.equal(user.role, 'user');
    assert.ok(user.content.includes('Sum the prices of the items in a cart'), 'description');
    assert.ok(user.content.includes(input.block.source), 'source');
    assert.ok(user.content.includes("TypeError: Cannot read properties of undefined (reading 'reduce')"), 'error');
    assert.ok(user.content.includes('at total (block.js:2:16)'), 'stack');
    assert.ok(user.content.includes('"sku":"failing-sku-42"'), 'failing input, JSON-encoded');
    assert.ok(user.content.includes('[{"price":7},{"price":35}]') && user.content.includes('expected: 42'), 'passing example');
    assert.ok(!JSON.stringify(body).includes(SECRET), 'the sk- key never leaves');
    assert.ok(user.content.includes('key [REDACTED]'));

    const usage = llm.usage();
    assert.equal(usage.requests, 4);
    assert.equal(usage.failures, 0);
    assert.equal(usage.attempts, 4);
  });

  test('a block without entry gets a single function expression back, in the same form', async () => {
    const { server, baseURL } = await stub((_req, res) =>
      sendJson(res, 200, answer('(items) => (items ?? []).length')),
    );
    const llm = new LlmGenerator({ baseURL, apiKey: 'k', model: 'm', samples: 2 });
    const block = { source: '(items) => items.length' };
    const { items } = await collect(llm.generate({ block, failing: [{ args: [null] }], passing: [] }));
    assert.equal(items.length, 2);
    assert.equal(items[0]!.source, '(items) => (items ?? []).length');
    assert.match(server.requests[0]!.body.messages[0].content, /single JavaScript function expression/);
  });

  test('garbage answers: no candidates, every one counted as a failure, nothing thrown', async () => {
    const garbage: ((res: import('node:http').ServerResponse) => void)[] = [
      (res) => sendJson(res, 200, completion('I think you should add a null check somewhere.')),
      (res) => sendJson(res, 200, completion('{"code": "function total(){}"}')),
      (res) => sendJson(res, 200, completion('{"source": 42}')),
      (res) => sendJson(res, 200, answer('function total(items {')),
      (res) => sendJson(res, 200, answer('function sum(items) { return 0 }')),
      (res) => sendJson(res, 200, answer(`function total() {} // ${'x'.repeat(60_000)}`)),
      (res) => sendJson(res, 200, '{"not": "a chat completion"}'),
      (res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('<html>gateway says hi</html>');
      },
      (res) => sendJson(res, 200, completion('')),
    ];
    const { server, baseURL } = await stub((req, res) => garbage[req.index]!(res));
    const llm = new LlmGenerator({ baseURL, apiKey: 'k', model: 'm', samples: garbage.length, maxRetries: 0 });
    const { items } = await collect(llm.generate(input));
    assert.equal(items.length, 0);
    assert.equal(server.requests.length, garbage.length);
    const usage = llm.usage();
    assert.equal(usage.requests, garbage.length);
    assert.equal(usage.failures, garbage.length);
    assert.equal(usage.invalid, garbage.length);
    assert.match(usage.lastError ?? '', /SUTURE_LLM_/);
  });

  test('a server that never answers times out per attempt and the retries are counted', async () => {
    const { server, baseURL } = await stub(() => undefined);
    const llm = new LlmGenerator({ baseURL, apiKey: 'k', model: 'm', samples: 1, timeoutMs: 250, maxRetries: 1 });
    const started = Date.now();
    const { items } = await collect(llm.generate(input));
    const elapsed = Date.now() - started;
    assert.equal(items.length, 0);
    assert.equal(server.requests.length, 2, 'one attempt plus one retry');
    const gap = server.requests[1]!.receivedAt - server.requests[0]!.receivedAt;
    assert.ok(gap >= 240 && gap < 250 + 500 + 300, `retry came after the attempt timed out (${gap} ms)`);
    // two attempts of 250 ms, one default backoff of at most 500 ms, plus margin
    assert.ok(elapsed < 250 * 2 + 500 + 600, `gave up in ${elapsed} ms`);
    const usage = llm.usage();
    assert.equal(usage.attempts, 2);
    assert.equal(usage.failures, 1);
    assert.equal(usage.invalid, 0);
    assert.match(usage.lastError ?? '', /timed out/i);
  });

  test('a server that stalls after the headers is timed out too', async () => {
    const { server, baseURL } = await stub((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id": "chatcmpl-stalled", ');
    });
    const llm = new LlmGenerator({ baseURL, apiKey: 'k', model: 'm', samples: 1, timeoutMs: 250, maxRetries: 0 });
    const started = Date.now();
    const { items } = await collect(llm.generate(input));
    assert.equal(items.length, 0);
    assert.ok(Date.now() - started < 250 + 600, 'body stall bounded by timeoutMs');
    assert.equal(server.requests.length, 1);
    assert.equal(llm.usage().failures, 1);
  });

  test('HTTP 500 then success: the client retry yields the candidate', async () => {
    const { server, baseURL } = await stub((req, res) => {
      if (req.index === 0) sendJson(res, 500, '{"error": {"message": "overloaded"}}', { 'retry-after-ms': '20' });
      else sendJson(res, 200, answer(FIXED));
    });
    const llm = new LlmGenerator({ baseURL, apiKey: 'k', model: 'm', samples: 1 });
    const { items } = await collect(llm.generate(input));
    assert.equal(items.length, 1);
    assert.equal(items[0]!.source, FIXED);
    assert.equal(server.requests.length, 2);
    assert.deepEqual(llm.usage().attempts, 2);
    assert.equal(llm.usage().failures, 0);
  });

  test('HTTP 500 every time: counted as one failed request after maxRetries, no throw', async () => {
    const { server, baseURL } = await stub((_req, res) =>
      sendJson(res, 500, '{"error": {"message": "down"}}', { 'retry-after-ms': '5' }),
    );
    const llm = new LlmGenerator({ baseURL, apiKey: 'k', model: 'm', samples: 2, maxRetries: 2 });
    const { items } = await collect(llm.generate(input));
    assert.equal(items.length, 0);
    assert.equal(server.requests.length, 6);
    assert.deepEqual({ ...llm.usage(), ms: 0, lastError: undefined }, {
      requests: 2, failures: 2, invalid: 0, aborted: 0, attempts: 6, promptTokens: 0, completionTokens: 0, costUsd: 0, ms: 0, lastError: undefined,
    });
  });

  test('hostile code that parses is returned as a string and never executed here', async () => {
    const hostile = [
      "const total = () => { this.constructor.constructor('return process')().exit(1) }",
      "function total() { globalThis.__sutureHostileRan = true; require('fs').writeFileSync('/tmp/pwned', 'x'); process.exit(3) }",
    ];
    const { baseURL } = await stub((req, res) => sendJson(res, 200, answer(hostile[req.index]!, 'trust me')));
    const llm = new LlmGenerator({ baseURL, apiKey: 'k', model: 'm', samples: 2 });
    const { items } = await collect(llm.generate(input));
    assert.deepEqual(items.map((c) => c.source).sort(), [...hostile].sort());
    assert.equal((globalThis as Record<string, unknown>).__sutureHostileRan, undefined, 'nothing ran');
    assert.equal(process.exitCode, undefined, 'the test process is alive and untouched');
  });

  test('usage: tokens summed from the responses and cost from the price table', async () => {
    const { baseURL } = await stub((_req, res) =>
      sendJson(res, 200, completion(JSON.stringify({ source: FIXED, explanation: 'x' }), { prompt_tokens: 1000, completion_tokens: 200 }, 'priced-model-2025')),
    );
    const llm = new LlmGenerator({
      baseURL,
      apiKey: 'k',
      model: 'priced-model',
      samples: 4,
      prices: { 'priced-model': { inputPerMTok: 3, outputPerMTok: 15 } },
    });
    await collect(llm.generate(input));
    const usage = llm.usage();
    assert.equal(usage.promptTokens, 4000);
    assert.equal(usage.completionTokens, 800);
    assert.ok(Math.abs(usage.costUsd - (4000 * 3 + 800 * 15) / 1e6) < 1e-12, `cost ${usage.costUsd}`);
    assert.ok(usage.ms > 0);
    assert.equal(usage.requests, 4);
  });

  test('refine continues the conversation with each candidate and its trial failures', async () => {
    const { server, baseURL } = await stub((_req, res) => sendJson(res, 200, answer(FIXED, 'second try')));
    const llm = new LlmGenerator({ baseURL, apiKey: 'k', model: 'm', samples: 4 });
    const feedback = [
      { source: 'function total(items) { return 0 }', failures: ['case recorded-1: expected 42, got 0'] },
      { source: 'function total(items) { if (!items) return; return items.reduce((s, x) => s + x.price, 0) }', failures: ['case failure-1: expected 0, got undefined'] },
    ];
    const { items } = await collect(llm.refine(input, feedback));
    assert.equal(items.length, 4);
    assert.deepEqual(items.map((c) => c.generator).sort(), ['llm:m#5', 'llm:m#6', 'llm:m#7', 'llm:m#8']);
    const conversations = server.requests.map((r) => r.body.messages as { role: string; content: string }[]);
    for (const messages of conversations) {
      assert.deepEqual(messages.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
      assert.ok(messages[1]!.content.includes(input.block.source));
    }
    const shown = conversations.map((m) => JSON.parse(m[2]!.content).source).sort();
    assert.deepEqual(shown, [feedback[0]!.source, feedback[0]!.source, feedback[1]!.source, feedback[1]!.source].sort(), 'samples cycle through the feedback');
    for (const messages of conversations) {
      const fed = feedback.find((f) => f.source === JSON.parse(messages[2]!.content).source)!;
      assert.ok(messages[3]!.content.includes(fed.failures[0]!), 'its own trial failures follow');
    }
  });

  test('a server that rejects response_format is asked again without it, and fenced JSON is accepted', async () => {
    const { server, baseURL } = await stub((req, res) => {
      if (req.body.response_format) {
        sendJson(res, 400, '{"error": {"message": "response_format is not supported by this model"}}');
      } else {
        sendJson(res, 200, completion(`Here you go:\n\`\`\`json\n${JSON.stringify({ source: FIXED, explanation: 'fenced' })}\n\`\`\`\nHope it helps.`));
      }
    });
    const llm = new LlmGenerator({ baseURL, apiKey: 'k', model: 'm', samples: 1 });
    const { items } = await collect(llm.generate(input));
    assert.equal(items.length, 1);
    assert.equal(items[0]!.description, 'fenced');
    assert.equal(server.requests.length, 2);
    assert.equal(llm.usage().failures, 0);
    // the downgrade sticks for later requests
    await collect(llm.generate(input));
    assert.equal(server.requests.length, 3);
  });

  test('an older server that rejects max_completion_tokens and temperature gets max_tokens and no temperature', async () => {
    const { server, baseURL } = await stub((req, res) => {
      if ('max_completion_tokens' in req.body) sendJson(res, 400, '{"error": {"message": "Unrecognized request argument supplied: max_completion_tokens"}}');
      else if ('temperature' in req.body) sendJson(res, 422, '{"error": {"message": "temperature is not supported with this model"}}');
      else sendJson(res, 200, answer(FIXED));
    });
    const llm = new LlmGenerator({ baseURL, apiKey: 'k', model: 'm', samples: 1, maxOutputTokens: 512 });
    const { items } = await collect(llm.generate(input));
    assert.equal(items.length, 1);
    assert.equal(server.requests.length, 3);
    assert.equal(server.requests[2]!.body.max_tokens, 512);
    assert.equal(llm.usage().failures, 0);
  });

  test('a 400 about anything else is a failure, not retried', async () => {
    const { server, baseURL } = await stub((_req, res) => sendJson(res, 400, '{"error": {"message": "model not found"}}'));
    const llm = new LlmGenerator({ baseURL, apiKey: 'k', model: 'm', samples: 1 });
    const { items } = await collect(llm.generate(input));
    assert.equal(items.length, 0);
    assert.equal(server.requests.length, 1);
    assert.equal(llm.usage().failures, 1);
    assert.match(llm.usage().lastError ?? '', /model not found/);
  });

  test('the AbortSignal cancels requests in flight; generate ends without throwing', async () => {
    const { server, baseURL } = await stub(() => undefined);
    const controller = new AbortController();
    const llm = new LlmGenerator({ baseURL, apiKey: 'k', model: 'm', samples: 3, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const { items } = await collect(llm.generate(input));
    assert.equal(items.length, 0);
    assert.ok(Date.now() - started < 1000);
    assert.equal(server.requests.length, 3);
    assert.deepEqual([llm.usage().aborted, llm.usage().failures], [3, 0]);
  });

  test('leaving the stream early cancels the requests still running', async () => {
    const { server, baseURL } = await stub(async (req, res) => {
      if (req.index === 0) sendJson(res, 200, answer(FIXED));
    });
    const llm = new LlmGenerator({ baseURL, apiKey: 'k', model: 'm', samples: 3 });
    for await (const candidate of llm.generate(input)) {
      assert.equal(candidate.source, FIXED);
      break;
    }
    await sleep(50);
    assert.equal(server.closedEarly, 2);
    assert.equal(llm.usage().aborted, 2);
  });

  test('bad options are refused with the key named', () => {
    assert.throws(() => new LlmGenerator({ model: '', apiKey: 'k' }), (e: unknown) => e instanceof LlmConfigError && e.key === 'model');
    assert.throws(() => new LlmGenerator({ model: 'm', apiKey: 'k', samples: 0 }), /`samples`/);
    assert.throws(() => new LlmGenerator({ model: 'm', apiKey: 'k', temperature: 3 }), /`temperature`/);
    assert.throws(
      () => new LlmGenerator({ model: 'm', apiKey: 'k', prices: { m: { inputPerMTok: -1, outputPerMTok: 1 } } }),
      (e: unknown) => e instanceof LlmConfigError && e.code === 'SUTURE_LLM_CONFIG' && e.key === 'prices.m.inputPerMTok',
    );
  });

  test('no key and no endpoint is a configuration error; a local endpoint needs no key', () => {
    const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    try {
      assert.throws(() => new LlmGenerator({ model: 'm' }), (e: unknown) => e instanceof LlmConfigError && e.key === 'apiKey');
      assert.equal(new LlmGenerator({ model: 'm', baseURL: 'http://127.0.0.1:1/v1' }).name, 'llm');
    } finally {
      if (saved.key !== undefined) process.env.OPENAI_API_KEY = saved.key;
      if (saved.url !== undefined) process.env.OPENAI_BASE_URL = saved.url;
    }
  });
});

describe('LlmGenerator against a real endpoint', () => {
  const key = process.env.OPENAI_API_KEY;
  test(
    'repairs a null-dereference with a real model',
    { skip: key ? false : 'OPENAI_API_KEY is not set: skipping the real-endpoint test', timeout: 120_000 },
    async () => {
      const llm = new LlmGenerator({ model: process.env.SUTURE_LLM_MODEL ?? 'gpt-4o-mini', samples: 2, maxOutputTokens: 1024 });
      const { items } = await collect(llm.generate(input));
      const usage = llm.usage();
      assert.ok(items.length >= 1, `no candidate; last error: ${usage.lastError}`);
      for (const candidate of items) assert.match(candidate.source, /total/);
      assert.ok(usage.promptTokens > 0 && usage.completionTokens > 0);
    },
  );
});
