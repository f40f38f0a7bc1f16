import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { ActivitySeries } from '../../daemon/dashboard/activity-series.ts';
import { ADMIN_TOKEN, SHOP_TOKEN, deleteKeys, failureReport, startHarness, until } from '../../testkit/service-harness.ts';

test('GET /dashboard: static page and assets with a strict CSP, no secret, no admin token needed to load', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const page = await fetch(`${h.url}/dashboard`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  const csp = page.headers.get('content-security-policy') ?? '';
  for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"]) assert.ok(csp.includes(directive), directive);
  assert.doesNotMatch(csp, /unsafe/);
  assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
  const html = await page.text();
  assert.ok(!html.includes(ADMIN_TOKEN) && !html.includes(SHOP_TOKEN));
  assert.doesNotMatch(html, /<script>|<style>|\son[a-z]+=/i, 'no inline script, style or handler (the CSP would block them)');

  const js = await fetch(`${h.url}/dashboard/dashboard.js`);
  assert.match(js.headers.get('content-type') ?? '', /^text\/javascript/);
  assert.ok((js.headers.get('content-security-policy') ?? '').length > 0);
  const css = await fetch(`${h.url}/dashboard/dashboard.css`);
  assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
  assert.equal((await fetch(`${h.url}/dashboard/nothing.js`)).status, 404);
});

test('the page script never turns data into HTML', () => {
  const js = readFileSync(new URL('../../daemon/dashboard/dashboard.js', import.meta.url), 'utf8');
  for (const sink of ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write', 'eval(', 'new Function', 'localStorage']) {
    assert.ok(!js.includes(sink), `dashboard.js uses ${sink}`);
  }
});

test('GET /v1/admin/activity: stored failures per bucket (a resent report counts once); admin token only', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  assert.equal((await h.call('/v1/admin/activity?app=shop', { token: null })).status, 401);
  assert.equal((await h.call('/v1/admin/activity?app=shop')).status, 403, 'an app token cannot read it');
  assert.equal((await h.call('/v1/admin/activity?app=shop&minutes=0', { token: ADMIN_TOKEN })).status, 400);
  assert.equal((await h.call('/v1/admin/activity?app=shop&minutes=121', { token: ADMIN_TOKEN })).status, 400);

  const report = failureReport();
  assert.equal((await h.call('/v1/failures', { body: report })).status, 202);
  assert.equal((await h.call('/v1/failures', { body: report })).status, 202);
  assert.equal((await h.call('/v1/failures', { body: failureReport({ args: [{ id: 8 }] }) })).status, 202);
  const read = async () => (await h.call('/v1/admin/activity?app=shop&minutes=1', { token: ADMIN_TOKEN })).json();
  // Counters are written in the background of the request.
  const body = await until(async () => {
    const b = await read();
    return b.buckets.reduce((n: number, x: { failures: number }) => n + x.failures, 0) === 2 ? b : null;
  }, 3000);
  assert.equal(body.bucketMs, 10_000);
  assert.equal(body.buckets.length, 6);
  const last = body.buckets.at(-1);
  assert.ok(Date.now() - last.at < 2 * body.bucketMs);
  assert.deepEqual(Object.keys(last).sort(), ['at', 'failures', 'passed', 'threw']);
  assert.equal((await h.call('/v1/admin/patches/0123456789abcdef-v1/export?file=diff', { token: null })).status, 401);
  assert.equal((await h.call('/v1/admin/patches/0123456789abcdef-v1/export?file=diff', { token: ADMIN_TOKEN })).status, 404);
  assert.equal((await h.call('/v1/admin/patches/0123456789abcdef-v1/export?file=exe', { token: ADMIN_TOKEN })).status, 400);
  assert.deepEqual((await (await h.call('/v1/admin/activity?app=game&minutes=1', { token: ADMIN_TOKEN })).json()).buckets.map((b: { failures: number }) => b.failures), [0, 0, 0, 0, 0, 0]);
});

test('ActivitySeries: counts land in their time bucket, oldest first, and buckets expire', async (t) => {
  const redis = new Redis(process.env.SUTURE_REDIS_URL ?? 'redis://127.0.0.1:6379');
  const prefix = `suture-test-${randomBytes(6).toString('hex')}`;
  t.after(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });
  const series = new ActivitySeries(redis, prefix, { bucketMs: 1000, ttlSeconds: 60 });
  const now = 1_700_000_010_500;
  await series.record('shop', { failures: 2 }, now - 3000);
  await series.record('shop', { passed: 5, threw: 1 }, now - 3000);
  await series.record('shop', { passed: 7, threw: 0 }, now);
  await series.record('shop', { passed: 0 }, now - 1000); // nothing to write
  await series.record('game', { failures: 9 }, now);
  const buckets = await series.read('shop', 5 / 60, now);
  assert.deepEqual(buckets, [
    { at: 1_700_000_006_000, failures: 0, passed: 0, threw: 0 },
    { at: 1_700_000_007_000, failures: 2, passed: 5, threw: 1 },
    { at: 1_700_000_008_000, failures: 0, passed: 0, threw: 0 },
    { at: 1_700_000_009_000, failures: 0, passed: 0, threw: 0 },
    { at: 1_700_000_010_000, failures: 0, passed: 7, threw: 0 },
  ]);
  const ttl = await redis.ttl(`${prefix}:activity:shop:1700000010`);
  assert.ok(ttl > 0 && ttl <= 60, `ttl ${ttl}`);
  assert.equal(await redis.exists(`${prefix}:activity:shop:1700000009`), 0);
});
