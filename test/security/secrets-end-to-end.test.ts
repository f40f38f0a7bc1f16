import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino, type DestinationStream } from 'pino';
import { createRepairClient } from '../../sdk/index.ts';
import { createDaemon } from '../../daemon/daemon-server.ts';
import { REDACT_PATHS } from '../../service/service-runtime.ts';
import { startRepairWorker } from '../../worker/repair-worker.ts';
import { completion, OpenAiStubServer, sendJson } from '../llm/openai-stub-server.ts';
import { ADMIN_TOKEN, SHOP_TOKEN, startHarness, until } from '../../testkit/service-harness.ts';
import type { Redis } from 'ioredis';
import { scanKeys } from '../../service/store/key-scan.ts';

/**
 * Secrets in a failing call's arguments, under telling keys (password, apiKey, authorization) and
 * under innocent ones (a JWT in `note`, a bearer token in `header`, an sk- key in a list), go
 * through the real SDK → daemon → worker with the LLM generator on: none of them appears in
 * anything stored in Redis under the prefix, in any log line of the daemon or the worker, or in any
 * prompt the LLM endpoint received.
 */
const SECRETS = {
  password: 'hunter2-Pa55word-Zq81',
  apiKey: 'live_key_7f3a9c2e51d04b8b',
  bearer: 'Bearer tok9a8b7c6d5e4f3a2b1c0d',
  jwt: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTQyIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  skKey: 'sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2',
};
/** Distinctive parts of each secret (a redaction must not leave them, even partly). */
const NEEDLES = ['hunter2-Pa55word', 'live_key_7f3a9c2e', 'tok9a8b7c6d5e4f3', 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV', 'eyJzdWIiOiJ1c2VyLTQyIiwiaWF0IjoxNTE2MjM5MDIyfQ', 'A1b2C3d4E5f6G7h8'];

async function dumpPrefix(redis: Redis, prefix: string): Promise<string> {
  const out: string[] = [];
  for (const key of await scanKeys(redis, `${prefix}:*`)) {
    const type = await redis.type(key);
    let v: unknown;
    if (type === 'string') v = await redis.get(key);
    else if (type === 'hash') v = await redis.hgetall(key);
    else if (type === 'list') v = await redis.lrange(key, 0, -1);
    else if (type === 'set') v = await redis.smembers(key);
    else if (type === 'zset') v = await redis.zrange(key, '0', '-1', 'WITHSCORES');
    else if (type === 'stream') v = await redis.xrange(key, '-', '+');
    out.push(`${key} ${JSON.stringify(v)}`);
  }
  return out.join('\n');
}

describe('secrets', () => {
  it('never reach Redis, the logs or an LLM prompt unredacted', { timeout: 60_000 }, async (t) => {
    const llm = new OpenAiStubServer((_req, res) => sendJson(res, 200, completion('I cannot help with that.')));
    const llmUrl = await llm.start();
    const lines: string[] = [];
    const sink: DestinationStream = { write: (s: string) => void lines.push(s) };
    const logger = pino({ level: 'trace', redact: { paths: [...REDACT_PATHS], censor: '[redacted]' } }, sink);
    const h = await startHarness({ generators: ['template', 'llm'], llmBaseUrl: llmUrl, llmApiKey: 'sk-llm-endpoint-key-000000000', llmModel: 'stub-model', budgetMs: 4000 });
    // Same configuration, but logging everything into `lines`: the harness daemon is replaced.
    await h.daemon.close();
    const daemon = await createDaemon(h.config, { logger });
    const url = await daemon.listen();
    const worker = await startRepairWorker(h.config, { logger });
    const client = createRepairClient({ url, app: 'shop', token: SHOP_TOKEN, sync: 'off', record: { sampleRate: 0 } });
    t.after(async () => {
      await client.close();
      await worker.close();
      await daemon.close();
      await h.close().catch(() => {});
      await llm.stop();
    });

    const checkout = function (request: { user: { password: string }; order: { items?: { price: number; qty: number }[] } }) {
      let total = 0;
      for (const item of request.order.items!) total += item.price * item.qty;
      return total;
    };
    const request = {
      user: { name: 'ada', password: SECRETS.password, apiKey: SECRETS.apiKey },
      headers: { authorization: SECRETS.bearer, header: SECRETS.bearer },
      note: SECRETS.jwt,
      misc: ['ok', SECRETS.skKey, `token in text: ${SECRETS.jwt}`],
      order: {},
    };
    assert.throws(() => client.run('checkout', 'total of the order', checkout, request as never), TypeError);
    await until(async () => client.stats().failuresDelivered >= 1, 10_000);
    const bug = await until(async () => {
      const res = await fetch(`${url}/v1/admin/bugs?app=shop`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      const { bugs } = (await res.json()) as { bugs: { fingerprint: string; status: string }[] };
      return bugs.find((b) => b.status !== 'new' && b.status !== 'repairing');
    }, 40_000, 200);
    assert.ok(bug, 'the repair job ran to the end');
    assert.ok(llm.requests.length >= 1, 'the LLM endpoint got a prompt');

    const stored = await dumpPrefix(h.redis, h.config.prefix);
    const prompts = JSON.stringify(llm.requests.map((r) => r.body));
    const logs = lines.join('');
    assert.ok(stored.includes('ada'), 'the stored case holds the non-secret argument values');
    assert.ok(lines.length > 0, 'logs were captured');
    for (const needle of NEEDLES) {
      assert.ok(!stored.includes(needle), `secret ${needle} stored in Redis`);
      assert.ok(!logs.includes(needle), `secret ${needle} logged`);
      assert.ok(!prompts.includes(needle), `secret ${needle} sent in an LLM prompt`);
    }
    assert.ok(!logs.includes('sk-llm-endpoint-key'), 'the LLM API key is not logged');
  });
});
