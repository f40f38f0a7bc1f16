import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, failureReport, recordedBatch, startHarness, until, type Harness } from '../../testkit/service-harness.ts';
import { runNode, suture } from './cli-process.ts';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('suture admin commands against the real daemon, worker and Redis', () => {
  let h: Harness;
  let patchId: string;
  const dir = mkdtempSync(join(tmpdir(), 'suture-cli-'));
  const admin = () => ['--url', h.url, '--token', ADMIN_TOKEN];

  before(async () => {
    // Manual policy: the patch waits for approval, so approve/reject/rollback have something to decide.
    h = await startHarness({ policy: 'manual' });
    await h.startWorker();
    assert.equal((await h.call('/v1/cases', { body: recordedBatch() })).status, 202);
    assert.equal((await h.call('/v1/failures', { body: failureReport() })).status, 202);
    patchId = await until(async () => {
      const r = await h.call('/v1/admin/patches?app=shop', { token: ADMIN_TOKEN });
      return ((await r.json()) as { patches: { id: string }[] }).patches[0]?.id;
    }, 30_000);
  });
  after(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('status and patches show the bug and the waiting patch; exit codes 2 and 3 for bad token and no daemon', { timeout: 60_000 }, async () => {
    const port = await closedPort();
    const [json, text, patches, badToken, noDaemon, noToken, missingArg] = await Promise.all([
      suture(['status', '--json', ...admin()]),
      suture(['status', ...admin()]),
      suture(['patches', '--app', 'shop', '--json'], { SUTURE_URL: h.url, SUTURE_ADMIN_TOKEN: ADMIN_TOKEN }),
      suture(['approve', patchId, '--url', h.url, '--token', 'wrong-token-0123456789']),
      suture(['status', '--url', `http://127.0.0.1:${port}`, '--token', ADMIN_TOKEN]),
      suture(['status', '--url', h.url]),
      suture(['approve', ...admin()]),
    ]);
    assert.equal(json.code, 0, json.stderr);
    const s = JSON.parse(json.stdout) as { apps: string[]; bugs: { blockId: string; status: string }[]; patches: { id: string; status: string }[]; jobs: { jobs: unknown[] } };
    assert.deepEqual(s.apps, ['shop']);
    assert.equal(s.bugs[0].blockId, 'order-total');
    assert.deepEqual(s.patches.map((p) => [p.id, p.status]), [[patchId, 'pending-approval']]);
    assert.ok(s.jobs.jobs.length >= 1);

    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /BUGS\n.*FINGERPRINT/);
    assert.match(text.stdout, new RegExp(`${patchId}\\s+shop\\s+order-total\\s+1\\s+pending-approval\\s+0%`));

    assert.equal(patches.code, 0, patches.stderr);
    assert.equal((JSON.parse(patches.stdout) as { patches: { id: string }[] }).patches[0].id, patchId);

    assert.equal(badToken.code, 2);
    assert.match(badToken.stderr, /401.*--token/);
    assert.equal(noDaemon.code, 3);
    assert.match(noDaemon.stderr, /no suture daemon answers/);
    assert.equal(noToken.code, 2);
    assert.match(noToken.stderr, /no admin token/);
    assert.equal(missingArg.code, 2);
    assert.match(missingArg.stderr, /missing required argument 'patch'/);
  });

  it('approve, approve again (refused: exit 1), rollback; keys prints and generates', { timeout: 60_000 }, async () => {
    const ok = await suture(['approve', patchId, '--reason', 'looks right', ...admin()]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /pending-approval → active \(rollout 100%\)/);
    const replace = await suture(['replace', patchId, '--reason', 'checked by hand', ...admin()]);
    assert.equal(replace.code, 0, replace.stderr);
    assert.match(replace.stdout, /active → active \(rollout 100%, mode fallback → replace\)/);
    const fallback = await suture(['fallback', patchId, ...admin()]);
    assert.match(fallback.stdout, /mode replace → fallback/);
    const keysDir = join(dir, 'keys');
    const [again, keys, generated] = await Promise.all([
      suture(['approve', patchId, ...admin()]),
      suture(['keys', '--json', '--url', h.url]),
      suture(['keys', '--generate', keysDir]),
    ]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /409 cannot approve a patch that is active/);
    assert.equal(keys.code, 0, keys.stderr);
    assert.equal((JSON.parse(keys.stdout) as { publicKey: string }).publicKey, h.daemon.context.keys.publicKeyPem);
    assert.match((JSON.parse(keys.stdout) as { keyId: string }).keyId, /^SHA256:([0-9a-f]{2}:){7}[0-9a-f]{2}$/, 'the key id, not a "fingerprint" (a bug\'s word)');
    assert.equal(generated.code, 0, generated.stderr);
    assert.ok(existsSync(join(keysDir, 'signing-key.pem')) && existsSync(join(keysDir, 'public-key.pem')));
    const [rollback, regenerate] = await Promise.all([
      suture(['rollback', patchId, ...admin()]),
      suture(['keys', '--generate', keysDir]),
    ]);
    assert.equal(rollback.code, 0, rollback.stderr);
    assert.match(rollback.stdout, /active → rolled-back/);
    assert.equal(regenerate.code, 1, 'an existing key is never overwritten');
    const audit = (await (await h.call('/v1/admin/audit', { token: ADMIN_TOKEN })).json()) as { entries: { action: string; actor: string }[] };
    assert.deepEqual(audit.entries.slice(0, 4).map((e) => e.action), ['rollback', 'fallback', 'replace', 'approve']);
    assert.match(audit.entries[0].actor, /^cli:/);
  });

  it('export writes a diff and a regression test that passes on the fix and fails on the original', { timeout: 60_000 }, async () => {
    const out = join(dir, 'export');
    const r = await suture(['export', patchId, '--out', out, ...admin()]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /1 failing input, 3 recorded calls/);
    const diff = readFileSync(join(out, `${patchId}.diff`), 'utf8');
    assert.match(diff, /^--- a\/order-total\.js\n\+\+\+ b\/order-total\.js/m);
    assert.match(diff, /^-.*order\.items/m);
    const testFile = join(out, `${patchId}.test.mjs`);
    const [fixed, original] = await Promise.all([
      runNode(['--test', '--test-reporter=tap', testFile]),
      runNode(['--test', '--test-reporter=tap', testFile], { SUTURE_EXPORT_TARGET: 'original' }),
    ]);
    assert.equal(fixed.code, 0, fixed.stdout + fixed.stderr);
    assert.match(fixed.stdout, /# pass 4\n# fail 0/);
    assert.notEqual(original.code, 0, 'the original block must fail the exported test');
    assert.match(original.stdout, /# pass 3\n# fail 1/);
    assert.match(original.stdout, /not ok 1 - the original failure \(TypeError: order\.items is not iterable\)/);

    const [unknown, malformed] = await Promise.all([
      suture(['export', '0123456789abcdef-v9', '--out', out, ...admin()]),
      suture(['export', 'nope', '--out', out, ...admin()]),
    ]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /404 no patch 0123456789abcdef-v9/);
    assert.equal(malformed.code, 2);
  });
});
