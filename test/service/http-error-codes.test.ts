import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HTTP_ERRORS, httpErrorsMarkdown } from '../../daemon/http-errors.ts';
import { ADMIN_TOKEN, GAME_TOKEN, SHOP_TOKEN, failureReport, startHarness } from '../../testkit/service-harness.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|js)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

test('the README lists exactly the table of HTTP error codes', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  assert.ok(readme.includes(`### HTTP error codes`), 'README has the section');
  assert.ok(readme.includes(httpErrorsMarkdown()), 'README table equals httpErrorsMarkdown() (paste its output into the README)');
});

test('every SUTURE_ code written in daemon/ is in the table, and every table code is answered somewhere', () => {
  const used = new Set<string>();
  for (const file of sources('daemon')) {
    for (const m of readFileSync(file, 'utf8').matchAll(/'(SUTURE_[A-Z_]+)'/g)) used.add(m[1]);
  }
  for (const code of used) assert.ok(Object.hasOwn(HTTP_ERRORS, code), `${code} is sent by daemon/ but missing from HTTP_ERRORS`);
  for (const code of Object.keys(HTTP_ERRORS)) assert.ok(used.has(code), `${code} is in the table but no route sends it`);
  // No route picks a status of its own: HttpError takes a code only.
  for (const file of sources('daemon')) assert.doesNotMatch(readFileSync(file, 'utf8'), /new HttpError\(\d/, file);
});

test('error answers from the running daemon carry a table code with the table\'s status', async (t) => {
  const h = await startHarness({ maxBodyBytes: 4096, maxSnapshotDepth: 8 });
  t.after(() => h.close());
  const probes: [string, Promise<Response>][] = [
    ['SUTURE_INVALID_REQUEST', h.call('/v1/failures', { body: { ...failureReport(), args: 'nope' } })],
    ['SUTURE_INVALID_REQUEST', h.call('/v1/failures', { body: '{"not json' })],
    ['SUTURE_SNAPSHOT_REFUSED', h.call('/v1/failures', { body: { ...failureReport(), args: [JSON.parse('['.repeat(20) + ']'.repeat(20))] } })],
    ['SUTURE_UNAUTHENTICATED', h.call('/v1/failures', { body: failureReport(), token: null })],
    ['SUTURE_FORBIDDEN', h.call('/v1/failures', { body: failureReport(), token: GAME_TOKEN })],
    ['SUTURE_NOT_FOUND', h.call('/v1/nothing-here', { token: ADMIN_TOKEN })],
    ['SUTURE_UNKNOWN_BUG', h.call(`/v1/admin/bugs/${'0'.repeat(32)}`, { token: ADMIN_TOKEN })],
    ['SUTURE_UNKNOWN_PATCH', h.call('/v1/admin/patches/0123456789abcdef-v1', { token: ADMIN_TOKEN })],
    ['SUTURE_UNKNOWN_JOB', h.call('/v1/admin/jobs/no-such-job', { token: ADMIN_TOKEN })],
    ['SUTURE_BODY_TOO_LARGE', h.call('/v1/failures', { body: { ...failureReport(), args: ['x'.repeat(8000)] } })],
    ['SUTURE_UNSUPPORTED_MEDIA_TYPE', fetch(`${h.url}/v1/failures`, { method: 'POST', headers: { authorization: `Bearer ${SHOP_TOKEN}`, 'content-type': 'application/xml' }, body: '<a/>' })],
  ];
  for (const [code, pending] of probes) {
    const res = await pending;
    const body = await res.json();
    assert.equal(body.code, code, `${code}: ${JSON.stringify(body)}`);
    assert.equal(res.status, HTTP_ERRORS[code as keyof typeof HTTP_ERRORS].status, code);
    assert.equal(body.statusCode, res.status, code);
    assert.equal(typeof body.message, 'string', code);
  }
});
