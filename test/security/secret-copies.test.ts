/**
 * A value redacted by key (authorization, token, apiKey, password...) is redacted wherever else the
 * same value appears in that call's report: the block's answer, the arguments after the call, the
 * values of `uses` after it, its dependency calls' arguments and answers, the receiver, an error
 * message, a shadow run's answers. Nothing of it reaches the daemon (here a stub recording every
 * body the SDK sends).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { OutcomeReport } from '../../core/wire.ts';
import { createRepairClient, type RepairClientOptions } from '../../sdk/index.ts';
import { makeKeys, manifestOf, signedPatch } from '../sdk/signed-patch.ts';
import { failureReportsOf, json, recordedCallsOf, startStubDaemon } from '../sdk/stub-daemon.ts';

const stub = await startStubDaemon((req, res) => json(res, 202, req.path === '/v1/failures' ? { fingerprint: 'f', jobId: 'j' } : {}));
after(() => stub.close());

const REDACTED = { $t: 'redacted' };

function client(extra: Partial<RepairClientOptions> = {}) {
  return createRepairClient({ url: stub.url, app: 'gateway', sync: 'off', record: { sampleRate: 0, first: 5 }, flushInterval: 10, ...extra });
}

const recorded = (blockId: string) => recordedCallsOf(stub.requests, blockId);
const failures = (blockId: string) => failureReportsOf(stub.requests, blockId);

/** No body the SDK sent holds any of these. */
function assertNeverSent(needles: string[]): void {
  const sent = JSON.stringify(stub.requests.map((r) => r.body));
  for (const n of needles) assert.ok(!sent.includes(n), `${n} reached the daemon`);
}

type Req = { method: string; path: string; headers: Record<string, string | undefined>; [k: string]: unknown };
const request = (authorization: string): Req => ({ method: 'GET', path: '/v1/me', headers: { authorization } });

describe('copies of redacted values', () => {
  it('a returned token, or one cut out of the redacted header, is redacted in the recorded answer', async () => {
    const repair = client();
    const bearerToken = repair.wrap('bearer-token', 'the bearer token, or null', (req: Req) => {
      const [scheme, token] = (req.headers.authorization as string).split(' ');
      return scheme === 'Bearer' && token ? token : null;
    });
    assert.equal(bearerToken(request('Bearer abc.def.ghi')), 'abc.def.ghi');
    assert.equal(bearerToken(request('Basic dXNlcjpwdw==')), null);
    await repair.close();
    const calls = recorded('bearer-token');
    assert.equal(calls.length, 2);
    assert.deepEqual(calls[0].result, REDACTED, 'the token the block cut out of the header');
    assert.equal(calls[1].result, null);
    for (const c of calls) assert.deepEqual(c.args, [{ method: 'GET', path: '/v1/me', headers: { authorization: REDACTED } }]);
    assertNeverSent(['abc.def.ghi', 'dXNlcjpwdw==']);
  });

  it('copies into other fields and into text are redacted in argsAfter; short and unrelated values stay', async () => {
    const repair = client();
    const stamp = repair.wrap('stamp', 'stamps the request', (req: Req) => {
      const auth = req.headers.authorization as string;
      req.user = { id: auth, lang: 'en' };
      req.log = `auth ${auth} accepted for ${req.path}`;
      req.echo = (req.vault as Map<string, string>).get('password');
      return `${req.method} ${req.path}`;
    });
    assert.equal(stamp({ ...request('Token tok9a8b7c6d5e4f'), vault: new Map([['password', 'correct-horse-battery']]) }), 'GET /v1/me');
    await repair.close();
    const [call] = recorded('stamp');
    assert.equal(call.result, 'GET /v1/me');
    const after = call.argsAfter[0] as Record<string, unknown>;
    assert.deepEqual(after.user, { id: REDACTED, lang: 'en' });
    assert.equal(after.log, 'auth [REDACTED] accepted for /v1/me');
    assert.deepEqual(after.echo, REDACTED, 'a copy of a value redacted under a Map key');
    assert.equal(after.path, '/v1/me');
    assertNeverSent(['tok9a8b7c6d5e4f', 'correct-horse-battery']);
  });

  it('uses, dependency calls and the receiver: copies redacted in calls, answers, usesAfter and thisAfter', async () => {
    const repair = client();
    const session = { token: 'sess-9f8e7d6c5b4a', user: 'ada' };
    const api = {
      fetch(credential: string) {
        return { echoed: credential, status: 'ok' };
      },
    };
    const cache: { last: string } = { last: '' };
    const shop: { apiKey: string; name: string; lastKey?: string } = { apiKey: 'key-1234567890abcd', name: 'shop' };
    const answer = repair.run({ id: 'uses-copy', description: 'calls the api', uses: { session, api, cache }, receiver: shop }, function (this: typeof shop) {
      const r = api.fetch(`${this.apiKey}:${session.token}`);
      cache.last = session.token;
      this.lastKey = this.apiKey;
      return r.echoed;
    });
    assert.equal(answer, 'key-1234567890abcd:sess-9f8e7d6c5b4a');
    await repair.close();
    const [call] = recorded('uses-copy');
    const world = call.world!;
    assert.equal(call.result, '[REDACTED]:[REDACTED]');
    assert.deepEqual(world.uses.session, { token: REDACTED, user: 'ada' });
    assert.deepEqual(world.calls[0].args, ['[REDACTED]:[REDACTED]']);
    assert.deepEqual(world.calls[0].result, { echoed: '[REDACTED]:[REDACTED]', status: 'ok' });
    assert.deepEqual((world.usesAfter as Record<string, unknown>).cache, { last: REDACTED });
    assert.deepEqual(world.thisAfter, { apiKey: REDACTED, name: 'shop', lastKey: REDACTED });
    assertNeverSent(['sess-9f8e7d6c5b4a', 'key-1234567890abcd']);
  });

  it('a failure report: the error message and stack, and the arguments the failed call left', async () => {
    const repair = client({ snapshot: 'on-failure', record: { sampleRate: 0, first: 0 } });
    const check = (req: Req) => {
      req.seen = req.headers.authorization;
      throw new Error(`rejected credential ${req.headers.authorization}`);
    };
    assert.throws(() => repair.run('check', 'checks the credential', check, request('Token zz-secret-77665544')), /rejected credential/);
    await repair.close();
    const [report] = failures('check');
    assert.equal(report.error.message, 'rejected credential [REDACTED]');
    assert.ok(!(report.error.stack ?? '').includes('zz-secret'));
    assert.deepEqual((report.args[0] as Record<string, unknown>).seen, REDACTED);
    assertNeverSent(['zz-secret-77665544']);
  });

  it('a shadow disagreement: the block\'s and the patch\'s answers', async () => {
    const keys = makeKeys();
    const block = (req: Req) => (req.headers.authorization as string).slice(7);
    const patch = signedPatch(keys.privateKey, { app: 'gateway', blockId: 'shadowed', original: block, source: '(req) => "token " + req.headers.authorization.slice(7)', mode: 'fallback' });
    const backupFile = join(mkdtempSync(join(tmpdir(), 'suture-secret-copies-')), 'manifest.json');
    writeFileSync(backupFile, JSON.stringify(manifestOf('gateway', [patch])));
    const repair = client({ publicKey: keys.publicKey, backupFile, record: { sampleRate: 0, first: 0 }, shadow: { sampleRate: 0, first: 1 } });
    let shadows = 0;
    repair.on('shadow', () => shadows++);
    assert.equal(repair.run('shadowed', 'the token', block, request('Bearer shadow-token-4433221100')), 'shadow-token-4433221100');
    const sentOutcomes = () => stub.requests.some((r) => r.path === '/v1/outcomes');
    const end = Date.now() + 5000;
    while (!(shadows > 0 && sentOutcomes()) && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    await repair.close();
    const d = stub.requests.filter((r) => r.path === '/v1/outcomes').flatMap((r) => (r.body as OutcomeReport).outcomes).flatMap((o) => o.disagreements ?? [])[0];
    assert.ok(d, 'the disagreement was sent');
    assert.deepEqual(d.call.result, REDACTED);
    assert.ok('result' in d.patch && d.patch.result === 'token [REDACTED]');
    assertNeverSent(['shadow-token-4433221100']);
  });
});
