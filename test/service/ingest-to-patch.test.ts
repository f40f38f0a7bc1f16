import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verifyPatchSignature } from '../../core/patch-signature.ts';
import type { Manifest, ManifestPatch } from '../../core/wire.ts';
import { ADMIN_TOKEN, failureReport, recordedBatch, startHarness, until } from '../../testkit/service-harness.ts';

test('ingest → job → worker → signed patch → manifest with ETag/304, long poll and SSE', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());

  // Recorded successful calls first, so the repair must keep them working.
  const cases = await h.call('/v1/cases', { body: recordedBatch('cases-1') });
  assert.equal(cases.status, 202);
  assert.equal((await cases.json()).added, 3);
  const again = await h.call('/v1/cases', { body: recordedBatch('cases-1') });
  assert.deepEqual(await again.json(), { added: 0, duplicate: true });

  // SSE stream opened before anything is published: it must see the patch arrive.
  const sse = await fetch(`${h.url}/v1/manifest/stream?app=shop`, { headers: { authorization: 'Bearer shop-token-abcdef' } });
  assert.equal(sse.headers.get('content-type'), 'text/event-stream');
  const events: Manifest[] = [];
  const reader = sse.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  const readLoop = (async () => {
    while (true) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += value;
      let i: number;
      while ((i = buffered.indexOf('\n\n')) >= 0) {
        const chunk = buffered.slice(0, i);
        buffered = buffered.slice(i + 2);
        const data = chunk.split('\n').find((l) => l.startsWith('data: '));
        if (chunk.startsWith('event: manifest') && data) events.push(JSON.parse(data.slice(6)));
      }
    }
  })().catch(() => {});
  await until(async () => events.length >= 1);
  assert.equal(events[0].patches.length, 0);

  const report = failureReport();
  const res = await h.call('/v1/failures', { body: report });
  assert.equal(res.status, 202);
  const ack = await res.json();
  assert.match(ack.fingerprint, /^[0-9a-f]{32}$/);
  assert.equal(ack.jobId, ack.fingerprint, 'the job id is the fingerprint');

  // Same request id again: nothing changes.
  const dup = await h.call('/v1/failures', { body: report });
  assert.equal(dup.status, 202);
  assert.equal((await dup.json()).duplicate, true);
  const bug = await h.daemon.context.store.getBug(ack.fingerprint);
  assert.equal(bug?.count, 1);

  // Nothing published yet: a short long-poll answers 204 after waiting.
  const t0 = Date.now();
  const none = await h.call(`/v1/failures/${ack.fingerprint}/patch?wait=200`);
  assert.equal(none.status, 204);
  assert.ok(Date.now() - t0 >= 150, 'the long poll waited');

  const waiting = h.call(`/v1/failures/${ack.fingerprint}/patch?wait=20000`);
  await h.startWorker();
  const polled = await waiting;
  assert.equal(polled.status, 200);
  const patch = (await polled.json()) as ManifestPatch;
  assert.equal(patch.fingerprint, ack.fingerprint);
  assert.equal(patch.status, 'active');
  assert.equal(patch.rollout, 1);
  assert.equal(patch.version, 1);
  assert.match(patch.source, /order\.items \?\? \[\]|order\.items \|\| \[\]|\?\./);

  // Manifest with ETag, then 304.
  const m1 = await h.call('/v1/manifest?app=shop');
  assert.equal(m1.status, 200);
  const etag = m1.headers.get('etag')!;
  assert.ok(etag);
  const manifest = (await m1.json()) as Manifest;
  assert.equal(manifest.patches.length, 1);
  assert.ok(manifest.revision >= 1);
  assert.equal(etag, `"r${manifest.revision}"`);
  const m2 = await h.call('/v1/manifest?app=shop', { headers: { 'if-none-match': etag } });
  assert.equal(m2.status, 304);
  assert.equal(await m2.text(), '');

  // The signature verifies with the served public key, and not after tampering.
  const pk = await (await h.call('/v1/public-key', { token: null })).json();
  assert.equal(pk.algorithm, 'ed25519');
  const p = manifest.patches[0];
  assert.equal(verifyPatchSignature(p, pk.publicKey), true);
  assert.equal(verifyPatchSignature({ ...p, source: p.source.replace('total', 'sum') }, pk.publicKey), false);
  assert.equal(verifyPatchSignature({ ...p, version: 2 }, pk.publicKey), false);

  // The SSE stream delivered the change.
  await until(async () => events.some((e) => e.patches.some((x) => x.id === p.id)));
  await reader.cancel();
  await readLoop;

  // Admin view of the job: state, progress, candidates with diff, score and trial table.
  const job = await (await h.call(`/v1/admin/jobs/${ack.jobId}`, { token: ADMIN_TOKEN })).json();
  assert.equal(job.state, 'completed');
  assert.equal(job.returnvalue.ended, 'published');
  assert.equal(job.progress.phase, 'done');
  assert.ok(job.progress.tried > 0);
  assert.ok(job.report.candidates.length > 0);
  const winner = job.report.winner;
  assert.match(winner.diff, /^[-+]/m);
  assert.equal(typeof winner.score, 'number');
  assert.ok(winner.trials.length >= 4, 'trial table covers the failure and the recorded calls');
  assert.ok(winner.trials.every((r: { verdict: string }) => r.verdict === 'pass'));

  // Bug and block listings.
  const bugs = await (await h.call('/v1/admin/bugs?app=shop', { token: ADMIN_TOKEN })).json();
  assert.equal(bugs.bugs[0].status, 'patched');
  const blocks = await (await h.call('/v1/admin/blocks?app=shop', { token: ADMIN_TOKEN })).json();
  assert.equal(blocks.blocks[0].recorded, 3);

  // A new failure of a patched bug does not queue another job.
  const later = await h.call('/v1/failures', { body: failureReport({ args: [{ id: 8 }] }) });
  assert.equal((await later.json()).fingerprint, ack.fingerprint);
  const counts = await h.daemon.context.queue.getJobCounts('waiting', 'active', 'completed');
  assert.deepEqual(counts, { waiting: 0, active: 0, completed: 1 });

  // Metrics and OpenAPI.
  const metrics = await (await h.call('/metrics', { token: null })).text();
  assert.match(metrics, /suture_failures_received_total\{app="shop",result="stored"\} 2/);
  const openapi = await (await h.call('/openapi.json', { token: null })).json();
  assert.ok(openapi.paths['/v1/failures'].post);
  assert.ok(openapi.paths['/v1/manifest'].get);
});
