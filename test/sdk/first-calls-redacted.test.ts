/**
 * Known-good first calls are told apart by their real inputs: two healthy calls that differ only
 * in a redacted value (the authorization header's scheme) both get recorded, though they look the
 * same once redacted; a repeat of the same real inputs does not.
 */
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import type { RecordedCasesBatch } from '../../core/wire.ts';
import { createRepairClient } from '../../sdk/index.ts';
import { json, startStubDaemon } from './stub-daemon.ts';

const stub = await startStubDaemon((_req, res) => json(res, 202, {}));
after(() => stub.close());

it('calls differing only in a redacted value are distinct first calls; the same inputs again are not', async () => {
  const repair = createRepairClient({ url: stub.url, app: 'gateway', sync: 'off', record: { sampleRate: 0, first: 5 }, flushInterval: 10 });
  const scheme = repair.wrap('auth-scheme', 'the scheme of the authorization header', (req: { headers: { authorization: string } }) => req.headers.authorization.split(' ')[0]);
  const request = (authorization: string) => ({ method: 'GET', path: '/v1/me', headers: { authorization } });
  assert.equal(scheme(request('Bearer abc.def.ghi')), 'Bearer');
  assert.equal(scheme(request('Basic dXNlcjpwdw==')), 'Basic');
  assert.equal(scheme(request('Bearer abc.def.ghi')), 'Bearer');
  await repair.close();
  const calls = stub.requests
    .filter((r) => r.path === '/v1/cases')
    .flatMap((r) => (r.body as RecordedCasesBatch).blocks)
    .flatMap((b) => b.calls);
  assert.equal(calls.length, 2, 'Bearer and Basic both recorded, the repeated Bearer call not');
  assert.deepEqual(calls.map((c) => c.result).sort(), ['Basic', 'Bearer']);
  for (const c of calls) assert.deepEqual(c.args, [{ method: 'GET', path: '/v1/me', headers: { authorization: { $t: 'redacted' } } }]);
});
