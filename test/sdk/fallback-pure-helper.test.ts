/**
 * Fallback mode: a patch answering a call its block threw on gets the block's logged calls answered
 * from the log, and a call that differs from the log ends with the block's own error (no second
 * effect). A pure helper in `uses` (one function reading no outside name and no `this`) has no
 * effect: the patch calls it live on whatever arguments it likes, while effectful dependencies keep
 * the rule.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { FailureReport } from '../../core/wire.ts';
import { createRepairClient, type RepairClientOptions, type SdkError } from '../../sdk/index.ts';
import { makeKeys, manifestOf, signedPatch } from './signed-patch.ts';
import { json, startStubDaemon } from './stub-daemon.ts';

const keys = makeKeys();
const dir = mkdtempSync(join(tmpdir(), 'suture-sdk-pure-'));
const stub = await startStubDaemon((r, res) => json(res, 202, r.path === '/v1/failures' ? { fingerprint: 'f', jobId: 'j' } : {}));
after(() => stub.close());
let n = 0;

function clientWith(blockId: string, original: Function, source: string, extra: Partial<RepairClientOptions>) {
  const backupFile = join(dir, `manifest-${++n}.json`);
  const patch = signedPatch(keys.privateKey, { app: 'game', blockId, original, source, mode: 'fallback' });
  writeFileSync(backupFile, JSON.stringify(manifestOf('game', [patch])));
  const client = createRepairClient({ url: stub.url, app: 'game', publicKey: keys.publicKey, sync: 'off', backupFile, record: { sampleRate: 0, first: 0 }, shadow: { sampleRate: 0, first: 0 }, flushInterval: 20, ...extra });
  const errors: SdkError[] = [];
  client.on('error', (e) => errors.push(e));
  return { client, errors };
}

type User = { first: string; last?: string };
type Comment = { mentions: string[]; participants: Record<string, User | undefined> };

/** A module helper as in the comment-mentions scenario: reads only its parameter. */
const displayName = (user: User) => [user.first, user.last].filter(Boolean).join(' ');

for (const execution of ['isolate', 'trusted'] as const) {
  describe(`fallback mode and pure helpers (${execution})`, () => {
    it('a patch that calls a pure helper on other arguments than the block did answers (the helper runs live)', async () => {
      const mentionLine = (comment: Comment) => comment.mentions.map((id) => '@' + displayName(comment.participants[id] as User)).join(', ');
      const fix = `(comment) => comment.mentions.filter((id) => comment.participants[id]).map((id) => '@' + displayName(comment.participants[id])).join(', ')`;
      const { client, errors } = clientWith('mentions', mentionLine, fix, { execution });
      const block = { id: 'mentions', description: 'mentioned users', uses: { displayName } };
      const ann = { first: 'Ann', last: 'Lee' };
      const cy = { first: 'Cy', last: 'Chan' };
      assert.equal(client.run(block, mentionLine, { mentions: ['u1'], participants: { u1: ann } }), '@Ann Lee', 'healthy: the block answers');
      // The block calls displayName(Cy) then displayName(undefined) and throws; the patch's first call is displayName(Bo).
      assert.equal(client.run(block, mentionLine, { mentions: ['u3', 'u8', 'u2'], participants: { u2: { first: 'Bo' }, u3: cy } }), '@Cy Chan, @Bo');
      // The block's first call already differs from the patch's (u7 is gone).
      assert.equal(client.run(block, mentionLine, { mentions: ['u7', 'u1'], participants: { u1: ann } }), '@Ann Lee');
      assert.deepEqual(errors.map((e) => e.message), []);
      await client.close();
    });

    it('effectful dependencies keep the rule around pure helper calls: logged calls answered once, a differing call ends with the block\'s error', async () => {
      const sent: string[] = [];
      const mailer = {
        send(to: string) {
          sent.push(to);
          return sent.length;
        },
      };
      // The block mails the first user, then formats every mention (one is missing) and throws.
      const notify = (comment: Comment) => {
        const id = mailer.send(comment.mentions[0]);
        return `${id}: ${comment.mentions.map((m) => displayName(comment.participants[m] as User)).join(', ')}`;
      };
      const sameSend = `(comment) => { const id = mailer.send(comment.mentions[0]); return id + ': ' + comment.mentions.filter((m) => comment.participants[m]).map((m) => displayName(comment.participants[m])).join(', '); }`;
      const block = { id: 'notify', description: 'mail and list', uses: { mailer, displayName } };
      const p1 = clientWith('notify', notify, sameSend, { execution });
      assert.equal(p1.client.run(block, notify, { mentions: ['u9', 'u1'], participants: { u1: { first: 'Ann' } } }), '1: Ann');
      assert.deepEqual(sent, ['u9'], 'the mail the block sent was answered from its log, not sent again');
      assert.deepEqual(p1.errors.map((e) => e.message), []);
      await p1.client.close();

      // A patch that formats first (pure, fine) and then sends to someone else: contradicted.
      const otherSend = `(comment) => { const names = comment.mentions.filter((m) => comment.participants[m]).map((m) => displayName(comment.participants[m])); const id = mailer.send('everyone'); return id + ': ' + names.join(', '); }`;
      const p2 = clientWith('notify', notify, otherSend, { execution });
      assert.throws(() => p2.client.run(block, notify, { mentions: ['u9', 'u1'], participants: { u1: { first: 'Ann' } } }), TypeError, "the block's own error");
      assert.deepEqual(sent, ['u9', 'u9'], 'the patch never mailed everyone');
      await p2.client.flush();
      const reported = stub.requests.map((r) => r.body as FailureReport).filter((r) => r.block?.id === 'notify' && r.patchId !== undefined);
      assert.ok(reported.some((r) => /called mailer.send where the block had called mailer.send with other arguments/.test(r.error.message)), JSON.stringify(reported.map((r) => r.error)));
      await p2.client.close();
    });

    it('a helper that reads an outside name is not pure: a differing call of it ends with the block\'s error', async () => {
      const TITLES: Record<string, string> = { u1: 'Dr' };
      const titled = (id: string, user: User) => `${TITLES[id] ?? ''} ${user.first}`.trim();
      const line = (comment: Comment) => comment.mentions.map((id) => titled(id, comment.participants[id] as User)).join(', ');
      const fix = `(comment) => comment.mentions.filter((id) => comment.participants[id]).map((id) => titled(id, comment.participants[id])).join(', ')`;
      const { client } = clientWith('titled', line, fix, { execution });
      assert.throws(() => client.run({ id: 'titled', description: 'titled names', uses: { titled } }, line, { mentions: ['u9', 'u1'], participants: { u1: { first: 'Ann' } } }), TypeError);
      await client.close();
    });
  });
}
