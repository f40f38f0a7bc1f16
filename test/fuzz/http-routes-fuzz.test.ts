import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { ADMIN_TOKEN, SHOP_TOKEN, failureReport, recordedBatch, startHarness, type Harness } from '../../testkit/service-harness.ts';

/**
 * Property: whatever arrives on any route (malformed JSON, wrong types, deep nesting, huge strings,
 * unicode, duplicate keys, prototype keys), the daemon answers below 500, stays up, and its heap
 * does not grow without bound over the run.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

const FP = '0123456789abcdef0123456789abcdef';

/** Any JSON value, nested up to a few levels, with unicode strings and hostile keys. */
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom('__proto__', 'constructor', '$t', 'ref', '\u0000', '\ud800', '💥'.repeat(50)),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'prototype', '$t', '$id')), tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** Raw body text: not always JSON. */
const rawBody = fc.oneof(
  jsonValue.map((v) => JSON.stringify(v)),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.integer({ min: 1, max: 5000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 1, max: 5000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
  fc.integer({ min: 1, max: 300_000 }).map((n) => JSON.stringify({ ...failureReport(), block: { id: 'b', source: 'x'.repeat(n) } })),
  fc.constantFrom('{"requestId":"a","requestId":{"x":1}}', '{"app":"shop","app":"game"}', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}', '{', '{"a":}', '\ufeff{}', 'null', '[]', ''),
);

/** A valid body with one field replaced by anything. */
function mutated(base: () => Record<string, unknown>) {
  return fc.tuple(fc.nat(), jsonValue).map(([i, v]) => {
    const b = base();
    const keys = Object.keys(b);
    b[keys[i % keys.length]] = v;
    return JSON.stringify(b);
  });
}

const routes = {
  failures: { method: 'POST', path: () => '/v1/failures', token: SHOP_TOKEN, body: fc.oneof(rawBody, mutated(() => ({ ...failureReport() }))) },
  cases: { method: 'POST', path: () => '/v1/cases', token: SHOP_TOKEN, body: fc.oneof(rawBody, mutated(() => ({ ...recordedBatch() }))) },
  outcomes: { method: 'POST', path: () => '/v1/outcomes', token: SHOP_TOKEN, body: fc.oneof(rawBody, mutated(() => ({ app: 'shop', instanceId: 'i', outcomes: [] }))) },
  policies: { method: 'PUT', path: () => '/v1/admin/policies', token: ADMIN_TOKEN, body: fc.oneof(rawBody, mutated(() => ({ app: 'shop', policy: 'auto' }))) },
  requeue: { method: 'POST', path: () => `/v1/admin/bugs/${FP}/requeue`, token: ADMIN_TOKEN, body: rawBody },
  approve: { method: 'POST', path: () => '/v1/admin/patches/p1/approve', token: ADMIN_TOKEN, body: rawBody },
} as const;

/** GET routes with fuzzed path segments and query strings. */
const segment = fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.constantFrom('..', '%00', '%ff', '__proto__', 'constructor', FP, 'x'.repeat(5000)));
const getPath = fc.oneof(
  segment.map((s) => `/v1/manifest?app=${encodeURIComponent(s)}`),
  segment.map((s) => `/v1/admin/bugs?app=${encodeURIComponent(s)}`),
  segment.map((s) => `/v1/admin/bugs/${encodeURIComponent(s)}`),
  segment.map((s) => `/v1/admin/jobs/${encodeURIComponent(s)}`),
  segment.map((s) => `/v1/admin/patches/${encodeURIComponent(s)}`),
  segment.map((s) => `/v1/admin/blocks?app=${encodeURIComponent(s)}`),
  segment.map((s) => `/v1/admin/audit?limit=${encodeURIComponent(s)}`),
  segment.map((s) => `/v1/admin/jobs?state=${encodeURIComponent(s)}`),
  fc.oneof(segment, fc.constantFrom('-1', '1e309', '99999999999', 'NaN')).map((s) => `/v1/failures/${FP}/patch?wait=${encodeURIComponent(s)}`),
  segment.map((s) => `/v1/failures/${encodeURIComponent(s)}/patch`),
);

async function send(h: Harness, method: string, path: string, token: string, body?: string): Promise<number> {
  const res = await fetch(h.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('HTTP routes under fuzzing', () => {
  it('never answer 5xx, the daemon stays up and its heap stays bounded', { timeout: 120_000 }, async (t) => {
    const h = await startHarness({ maxBodyBytes: 256 * 1024, maxSnapshotBytes: 16 * 1024, maxSnapshotDepth: 32 });
    t.after(() => h.close());
    const statuses = new Map<number, number>();
    const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    // Warm up (JIT, pools, Redis connections) before the heap baseline.
    for (let i = 0; i < 20; i++) count(await send(h, 'POST', '/v1/failures', SHOP_TOKEN, JSON.stringify(failureReport())));
    const before = heapMb();
    for (const [name, r] of Object.entries(routes)) {
      await fc.assert(
        fc.asyncProperty(r.body, async (body) => {
          const status = await send(h, r.method, r.path(), r.token, body);
          count(status);
          return status < 500;
        }),
        { numRuns: 60, seed: 6, endOnFailure: true },
      ).catch((e: Error) => assert.fail(`${name}: ${e.message.slice(0, 800)}`));
    }
    await fc.assert(
      fc.asyncProperty(getPath, async (path) => {
        const status = await send(h, 'GET', path, path.startsWith('/v1/admin') ? ADMIN_TOKEN : SHOP_TOKEN);
        count(status);
        return status < 500;
      }),
      { numRuns: 150, seed: 6, endOnFailure: true },
    ).catch((e: Error) => assert.fail(e.message.slice(0, 800)));
    const after = heapMb();
    const total = [...statuses.values()].reduce((a, b) => a + b, 0);
    console.log(`[fuzz] ${total} requests; statuses ${JSON.stringify(Object.fromEntries(statuses))}; heap ${before.toFixed(1)} → ${after.toFixed(1)} MB`);
    assert.equal([...statuses.keys()].filter((s) => s >= 500).length, 0);
    assert.ok([...statuses.keys()].some((s) => s >= 400 && s < 500), 'fuzzed input is refused');
    assert.ok(after - before < 40, `heap grew ${(after - before).toFixed(1)} MB over the run`);
    assert.equal((await fetch(h.url + '/healthz')).status, 200);
    assert.equal((await fetch(h.url + '/readyz')).status, 200);
  });
});
