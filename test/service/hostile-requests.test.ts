import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, GAME_TOKEN, failureReport, startHarness } from '../../testkit/service-harness.ts';

test('bad and hostile requests get a 4xx naming the field; auth answers 401/403; the daemon stays up', async (t) => {
  const h = await startHarness({ maxBodyBytes: 64 * 1024, maxSnapshotBytes: 8 * 1024, maxSnapshotDepth: 16 });
  t.after(() => h.close());
  const post = (body: unknown, token?: string | null) => h.call('/v1/failures', { body, token });

  // Auth.
  assert.equal((await post(failureReport(), null)).status, 401);
  assert.equal((await post(failureReport(), 'not-a-token')).status, 401);
  assert.equal((await h.call('/v1/failures', { body: failureReport(), headers: { authorization: 'Basic abc' }, token: null })).status, 401);
  const other = await post(failureReport(), GAME_TOKEN);
  assert.equal(other.status, 403, "a token of another app");
  assert.match((await other.json()).message, /shop/);
  assert.equal((await h.call('/v1/manifest?app=game')).status, 403);
  assert.equal((await h.call('/v1/admin/bugs?app=shop')).status, 403, 'an app token on the admin API');
  assert.equal((await h.call('/v1/admin/bugs?app=shop', { token: null })).status, 401);
  assert.equal((await h.call('/v1/admin/bugs?app=shop', { token: ADMIN_TOKEN })).status, 200);

  // Validation messages name the field.
  const cases: [unknown, RegExp][] = [
    [{ ...failureReport(), block: { id: 'x' } }, /body\/block must have required property 'source'/],
    [{ ...failureReport(), app: 'shop; DROP' }, /body\/app must match pattern/],
    [{ ...failureReport(), args: 'nope' }, /body\/args must be array/],
    [{ ...failureReport(), error: { name: '', message: 'x' } }, /body\/error\/name must NOT have fewer than 1 characters/],
    [{ ...failureReport(), extra: 1 }, /must NOT have additional properties/],
    [{ ...failureReport(), patchId: '../../etc' }, /body\/patchId must match pattern/],
    [{ ...failureReport(), args: [{ $t: 'nonsense' }] }, /body\/args: not a valid snapshot/],
    [{ ...failureReport(), args: [{ $t: 'ref', id: 99 }] }, /body\/args: not a valid snapshot/],
    [{ ...failureReport(), args: [JSON.parse('['.repeat(40) + ']'.repeat(40))] }, /body\/args: nested deeper than 16 levels/],
    [{ ...failureReport(), args: ['x'.repeat(10_000)] }, /body\/args: larger than 8192 bytes/],
  ];
  for (const [body, message] of cases) {
    const res = await post(body);
    assert.equal(res.status, 400, String(message));
    assert.match((await res.json()).message, message);
  }
  const badCases = await h.call('/v1/cases', { body: { requestId: 'r', app: 'shop', instanceId: 'i', blocks: [{ id: 'b', source: 'x => x', calls: [{ args: [], result: { $t: 'bogus' }, at: 'now' }] }] } });
  assert.equal(badCases.status, 400);
  assert.match((await badCases.json()).message, /body\/blocks\/0\/calls\/0\/result/);
  const badWait = await h.call('/v1/failures/0123456789abcdef0123456789abcdef/patch?wait=-5');
  assert.equal(badWait.status, 400);
  assert.match((await badWait.json()).message, /querystring\/wait/);
  assert.equal((await h.call('/v1/failures/0123456789abcdef0123456789abcdef/patch')).status, 404);
  assert.equal((await h.call('/v1/admin/policies', { token: ADMIN_TOKEN, method: 'PUT', body: { app: 'shop', policy: 'yolo' } })).status, 400);

  // Body size, malformed JSON, wrong content type, prototype poisoning.
  assert.equal((await post({ ...failureReport(), block: { id: 'b', source: 'x'.repeat(70_000) } })).status, 413);
  assert.equal((await post('{"requestId": ')).status, 400);
  assert.equal((await h.call('/v1/failures', { body: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status, 415);
  assert.equal((await post(`{"__proto__": {"admin": true}, ${JSON.stringify(failureReport()).slice(1)}`)).status, 400);

  // A little fuzzing: random shapes and values never get a 5xx.
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const values = [null, true, 0, -1, 1e308, '', 'x', '\u0000', [], {}, [[[]]], { $t: 'ref', id: 1 }, { $t: 'map', entries: 5 }, { $id: 1, a: { $t: 'ref', id: 1 } }, 'a'.repeat(300)];
  const pick = () => values[Math.floor(rnd() * values.length)];
  const paths = ['requestId', 'app', 'instanceId', 'block', 'block.id', 'block.source', 'error', 'error.name', 'error.message', 'error.stack', 'args', 'at', 'patchId'];
  const statuses = new Map<number, number>();
  for (let i = 0; i < 200; i++) {
    const body = structuredClone(failureReport()) as Record<string, any>;
    for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) {
      const path = paths[Math.floor(rnd() * paths.length)].split('.');
      let target = body;
      for (const p of path.slice(0, -1)) target = target[p] !== null && typeof target[p] === 'object' ? target[p] : (target[p] = {});
      target[path[path.length - 1]] = pick();
    }
    if (rnd() < 0.3) body.args = [pick(), pick()];
    const res = await post(body);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    assert.ok(res.status < 500, `fuzz case ${i} got ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
  assert.ok((statuses.get(400) ?? 0) > 100, 'most fuzzed bodies are refused');
  assert.equal((await h.call('/healthz', { token: null })).status, 200);
  assert.equal((await h.call('/readyz', { token: null })).status, 200);
});
