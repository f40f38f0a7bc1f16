import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FailureReport, RecordedCasesBatch } from '../../core/wire.ts';
import { createRepairClient, type SdkError } from '../../sdk/index.ts';
import { json, startStubDaemon } from './stub-daemon.ts';
import { makeKeys, manifestOf, seedBlock, seedFix, signedPatch } from './signed-patch.ts';

const keys = makeKeys();
const until = async (cond: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('reports and recorded calls', () => {
  it('sends failure reports with a request id, the app token, inputs on entry, redacted secrets', async () => {
    const stub = await startStubDaemon((r, res) => json(res, 202, { fingerprint: 'fp', jobId: 'j' }));
    const client = createRepairClient({
      url: stub.url, app: 'game', token: 'tok', sync: 'off', flushInterval: 20,
      record: { sampleRate: 0 },
      redact: { keys: ['password', 'ssn'], hook: (item) => (item.kind === 'failure' ? { ...item.report, error: { ...item.report.error, message: item.report.error.message.replace(/\d{4}/g, '####') } } : item.call) },
    });
    const user = { name: 'ann', password: 'hunter2', profile: { ssn: '123', visits: 1 } };
    const block = (u: typeof user) => {
      u.profile.visits++; // mutated before the throw: the report must show the entry state
      throw new Error(`card 1234 declined for ${u.name}`);
    };
    assert.throws(() => client.run('visit', 'count a visit', block, user), /card 1234/);
    await client.close();
    const posts = stub.requests.filter((r) => r.path === '/v1/failures');
    assert.equal(posts.length, 1);
    assert.equal(posts[0].headers.authorization, 'Bearer tok');
    const report = posts[0].body as FailureReport;
    assert.match(report.requestId, /^[0-9a-f-]{36}$/);
    assert.equal(report.block.id, 'visit');
    assert.equal(report.block.source, block.toString());
    assert.deepEqual(report.args[0], { name: 'ann', password: { $t: 'redacted' }, profile: { ssn: { $t: 'redacted' }, visits: 1 } });
    assert.equal(report.error.message, 'card #### declined for ann', 'the hook ran before sending');
    assert.equal(JSON.stringify(report).includes('hunter2'), false);
    await stub.close();
  });

  it("'on-failure' mode reports the state the failed call left", async () => {
    const stub = await startStubDaemon((r, res) => json(res, 202, { fingerprint: 'fp', jobId: 'j' }));
    const client = createRepairClient({ url: stub.url, app: 'game', sync: 'off', snapshot: 'on-failure', record: { sampleRate: 0, first: 0 } });
    const counter = { n: 1 };
    assert.throws(() => client.run('c', 'd', (c: { n: number }) => { c.n = 5; throw new Error('x'); }, counter));
    await client.close();
    assert.deepEqual((stub.requests[0].body as FailureReport).args, [{ n: 5 }]);
    assert.equal((stub.requests[0].body as FailureReport).inputs, 'after-throw');
    await stub.close();
  });

  it('records sampled calls (inputs on entry, result, state after) and none at rate 0', async () => {
    const stub = await startStubDaemon((r, res) => json(res, 202, {}));
    const sampled = createRepairClient({ url: stub.url, app: 'game', sync: 'off', record: { sampleRate: 1 } });
    const enemy = { health: 100, stats: { armor: 4 } };
    assert.equal(sampled.run('dmg', 'damage', seedBlock, { stats: { strength: 10 } }, enemy), 16);
    assert.equal(await sampled.run('async', 'a', async (x: number) => x + 1, 1), 2);
    await sampled.close();
    const batches = stub.requests.filter((r) => r.path === '/v1/cases').map((r) => r.body as RecordedCasesBatch);
    assert.equal(batches.length, 1);
    const dmg = batches[0].blocks.find((b) => b.id === 'dmg')!;
    assert.deepEqual(dmg.calls[0].args, [{ stats: { strength: 10 } }, { health: 100, stats: { armor: 4 } }]);
    assert.equal(dmg.calls[0].result, 16);
    assert.deepEqual(dmg.calls[0].argsAfter[1], { health: 84, stats: { armor: 4 } });
    assert.equal(batches[0].blocks.find((b) => b.id === 'async')!.calls[0].result, 2);

    const off = createRepairClient({ url: stub.url, app: 'game', sync: 'off', record: { sampleRate: 0, first: 0 } });
    for (let i = 0; i < 100; i++) off.run('dmg', 'damage', seedBlock, { stats: { strength: 10 } }, { health: 100, stats: { armor: 4 } });
    await off.close();
    assert.equal(stub.requests.filter((r) => r.path === '/v1/cases').length, 1, 'rate 0 sends nothing');

    const some = createRepairClient({ url: stub.url, app: 'game', sync: 'off', record: { sampleRate: 0.1, maxQueued: 100_000, first: 0 } });
    for (let i = 0; i < 5000; i++) some.run('sq', 'square', (x: number) => x * x, i);
    await some.close();
    const calls = stub.requests.filter((r) => r.path === '/v1/cases').slice(1).flatMap((r) => (r.body as RecordedCasesBatch).blocks.flatMap((b) => b.calls));
    assert.ok(calls.length > 400 && calls.length < 600, `about 10% of 5000 recorded, got ${calls.length}`);
    await stub.close();
  });

  it('retries with capped backoff and delivers once the daemon recovers; request ids stay the same', async () => {
    let refusals = 3;
    const stub = await startStubDaemon((r, res) => (refusals-- > 0 ? json(res, 503, {}) : json(res, 202, { fingerprint: 'f', jobId: 'j' })));
    const errors: SdkError[] = [];
    const client = createRepairClient({ url: stub.url, app: 'game', sync: 'off', flushInterval: 10, maxBackoff: 80, record: { sampleRate: 0 } });
    client.on('error', (e) => errors.push(e));
    assert.throws(() => client.run('b', 'd', () => { throw new Error('x'); }));
    await until(() => client.stats().failuresDelivered === 1);
    const posts = stub.requests.filter((r) => r.path === '/v1/failures');
    assert.equal(posts.length, 4);
    assert.equal(new Set(posts.map((p) => (p.body as FailureReport).requestId)).size, 1);
    const gaps = posts.slice(1).map((p, i) => p.at - posts[i].at);
    assert.ok(gaps.every((g) => g <= 200), `backoff capped near 80 ms: ${gaps}`);
    assert.ok(errors.some((e) => e.code === 'SUTURE_DELIVERY_FAILED'));
    await client.close();
    await stub.close();
  });

  it('holds a bounded number of reports while the daemon is down, dropping the oldest and counting them', async () => {
    const client = createRepairClient({ url: 'http://127.0.0.1:9', app: 'game', sync: 'off', maxQueuedFailures: 5, flushInterval: 60_000, record: { sampleRate: 0 } });
    const errors: SdkError[] = [];
    client.on('error', (e) => errors.push(e));
    for (let i = 0; i < 20; i++) assert.throws(() => client.run('b', 'd', (n: number) => { throw new Error(`e${n}`); }, i));
    assert.equal(client.stats().failuresQueued, 5);
    assert.equal(client.stats().failuresDropped, 15);
    assert.ok(errors.some((e) => e.code === 'SUTURE_QUEUE_OVERFLOW'));
    const t0 = Date.now();
    await client.close();
    assert.ok(Date.now() - t0 < 3000, 'close does not hang on a dead daemon');
  });
});

describe('registry sync', () => {
  it('polls with ETag, applies a new manifest, saves nothing garbage, and stops on 401', async () => {
    const patch = signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: seedFix });
    let phase = 0;
    const stub = await startStubDaemon((r, res) => {
      if (!r.path.startsWith('/v1/manifest')) return json(res, 202, {});
      phase++;
      if (phase === 1) return json(res, 200, { garbage: true });
      if (phase === 2) return json(res, 200, manifestOf('game', [patch], 7), { etag: '"7"' });
      if (phase === 3) return r.headers['if-none-match'] === '"7"' ? json(res, 304) : json(res, 500);
      return json(res, 401, { error: 'bad token' });
    });
    const errors: SdkError[] = [];
    const syncs: number[] = [];
    const client = createRepairClient({ url: stub.url, app: 'game', publicKey: keys.publicKey, sync: 'poll', pollInterval: 20, maxBackoff: 40, record: { sampleRate: 0 } });
    client.on('error', (e) => errors.push(e));
    client.on('sync', (s) => syncs.push(s.revision));
    await until(() => errors.some((e) => e.code === 'SUTURE_SYNC_UNAUTHORIZED'));
    assert.ok(errors.some((e) => e.code === 'SUTURE_MANIFEST_INVALID'), 'garbage refused with an event');
    assert.deepEqual(syncs.slice(0, 2), [7, 7]);
    const enemy = { health: 10 };
    assert.equal(client.run('dmg', 'damage', seedBlock, { stats: { strength: 3 } }, enemy as never), 6, 'the polled patch runs');
    const count = stub.requests.length;
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(stub.requests.filter((r) => r.path.startsWith('/v1/manifest')).length, 4, 'no polling after 401');
    assert.ok(stub.requests.length >= count);
    await client.close();
    await stub.close();
  });

  it('follows the SSE stream of manifests', async () => {
    const patch = signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: seedFix });
    let push: ((text: string) => void) | null = null;
    const stub = await startStubDaemon((r, res) => {
      if (r.path.startsWith('/v1/manifest/stream')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`event: manifest\nid: 1\ndata: ${JSON.stringify(manifestOf('game', [], 1))}\n\n`);
        push = (t) => res.write(t);
        return;
      }
      if (r.path.startsWith('/v1/manifest')) return json(res, 200, manifestOf('game', [], 1), { etag: '"1"' });
      json(res, 202, {});
    });
    const client = createRepairClient({ url: stub.url, app: 'game', publicKey: keys.publicKey, sync: 'stream', record: { sampleRate: 0 } });
    const revisions: number[] = [];
    client.on('sync', (s) => revisions.push(s.revision));
    await until(() => push !== null && revisions.includes(1));
    assert.throws(() => client.run('dmg', 'damage', seedBlock, { stats: { strength: 3 } }, { health: 10 } as never), TypeError);
    push!(': ping\n\n');
    push!(`event: manifest\nid: 2\ndata: ${JSON.stringify(manifestOf('game', [patch], 2))}\n\n`);
    await until(() => revisions.includes(2));
    assert.equal(client.run('dmg', 'damage', seedBlock, { stats: { strength: 3 } }, { health: 10 } as never), 6);
    await client.close();
    await stub.close();
  });
});

describe('waitForFix', () => {
  it('waits on the long poll, verifies, runs the patch on the inputs and returns its result', async () => {
    const patch = signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: seedFix });
    const stub = await startStubDaemon((r, res) => {
      if (r.path === '/v1/failures') return json(res, 202, { fingerprint: 'fp1', jobId: 'fp1' });
      if (r.path.startsWith('/v1/failures/fp1/patch?wait=')) return setTimeout(() => json(res, 200, patch), 100);
      json(res, 404, {});
    });
    const client = createRepairClient({ url: stub.url, app: 'game', publicKey: keys.publicKey, sync: 'off', waitForFix: 3000, record: { sampleRate: 0 } });
    const enemy = { health: 50 };
    const out = client.run('dmg', 'damage', seedBlock, { stats: { strength: 10 } }, enemy as never);
    assert.ok(out instanceof Promise);
    assert.equal(await out, 20);
    assert.equal(enemy.health, 30);
    await client.close();
    await stub.close();
  });

  it('rethrows the block’s own error at the deadline, and for a tampered patch', async () => {
    const patch = signedPatch(keys.privateKey, { app: 'game', blockId: 'dmg', original: seedBlock, source: seedFix });
    let tampered = false;
    const stub = await startStubDaemon((r, res) => {
      if (r.path === '/v1/failures') return json(res, 202, { fingerprint: 'fp2', jobId: 'fp2' });
      if (r.path.startsWith('/v1/failures/fp2/patch')) return tampered ? json(res, 200, { ...patch, source: seedFix.replace('?? 0', '?? -99') }) : setTimeout(() => json(res, 204), 50);
      json(res, 404, {});
    });
    const errors: SdkError[] = [];
    const client = createRepairClient({ url: stub.url, app: 'game', publicKey: keys.publicKey, sync: 'off', waitForFix: 300, record: { sampleRate: 0 } });
    client.on('error', (e) => errors.push(e));
    const t0 = Date.now();
    await assert.rejects(client.run('dmg', 'damage', seedBlock, { stats: { strength: 10 } }, { health: 5 } as never) as Promise<number>, TypeError);
    assert.ok(Date.now() - t0 >= 250 && Date.now() - t0 < 1500);
    tampered = true;
    const enemy = { health: 5 };
    await assert.rejects(client.run('dmg', 'damage', seedBlock, { stats: { strength: 10 } }, enemy as never) as Promise<number>, TypeError);
    assert.equal(enemy.health, 5);
    assert.ok(errors.some((e) => e.code === 'SUTURE_PATCH_SIGNATURE_INVALID'));
    await client.close();
    await stub.close();
  });
});
