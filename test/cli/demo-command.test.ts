import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { describe, it } from 'node:test';
import { ensureRedis, redisAnswers, RedisMissingError } from '../../demo/local-redis.ts';
import { suture } from './cli-process.ts';
import { assertDemoKeysDeleted } from './demo-prefix.ts';

describe('suture demo (npm start)', () => {
  it('runs the whole loop against the local Redis, shows every step, stops everything and exits 0', { timeout: 120_000 }, async () => {
    const started = Date.now();
    const r = await suture(['demo'], { OPENAI_API_KEY: '' }, 110_000);
    assert.equal(r.code, 0, `exit ${r.code}\n${r.stdout}\n${r.stderr}`);
    const o = r.stdout;
    const expectations: [string, RegExp][] = [
      ['offline engine announced', /generators: offline mutation engine only/],
      ['recorded calls before the bug', /Ayla hits the goblin \(armor  8\) for 16: health 50 → 34/],
      ['the failure captured', /✗ TypeError: Cannot read properties of undefined \(reading 'armor'\)/],
      ['the redacted snapshot', /"session":\{"authToken":\{"\$t":"redacted"\}\}/],
      ['the job and its progress', /job [0-9a-f]{16}… queued[\s\S]*\[completed\] done: \d+ tried, [1-9]\d* plausible/],
      ['candidates with generator and score', /#\d+\s+template:\S+\s+score\s+\d+\.\d/],
      ['rejected candidates', /#\d+\s+template:\S+\s+(wrong-result|threw|timeout) on failure-1/],
      ['the winning diff', /-  const armor = enemy\.stats\.armor;\n\s+\+  const armor = enemy\.stats\?\.armor \?\? 0;/],
      ['the signed patch', /patch [0-9a-f]{16}-v1: version 1 of block player-damage-calc, status active, rollout 100%/],
      ['the evidence signed with it', /checked against: 1 failing, 3 recorded, \d+ generated, 0 tests; re-check (\d+)\/\1\b/],
      ['the signature checked', /signed by key SHA256:[0-9a-f:]+: signature verifies/],
      ['the held call rescued', /the held call returned: Ayla hits the ghost for 24: health 40 → 16/],
      ['patched events', /SDK event "patched".*for the held call[\s\S]*SDK event "patched".*from the manifest/],
      ['the enemies\' health going down on the patch', /hits the wisp  \(no stats\) for 24: health 25 → 1/],
      ['the outcome counts', /the daemon counts the patch's calls: [3-9] ran clean, 0 threw/],
      ['clean-up', /stopped the game client, worker, sandboxes and daemon; deleted \d+ Redis keys/],
    ];
    for (const [what, re] of expectations) assert.match(o, re, what);
    assert.equal(r.stderr.trim(), '', 'no log lines or warnings on stderr');
    assert.ok(Date.now() - started < 100_000);
    await assertDemoKeysDeleted(o);
  });

  it('without Redis and without redis-server says what to install and exits 2', { timeout: 30_000 }, async () => {
    const r = await suture(['demo'], { SUTURE_REDIS_URL: 'redis://127.0.0.1:1', PATH: dirname(process.execPath) });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /no Redis answers at redis:\/\/127\.0\.0\.1:1 and there is no redis-server on the PATH/);
    assert.match(r.stderr, /sudo apt-get install redis-server/);
  });

  it('starts a private redis-server when none answers, and stops it', { timeout: 30_000 }, async (t) => {
    const url = 'redis://127.0.0.1:1';
    let handle;
    try {
      handle = await ensureRedis(url);
    } catch (error) {
      if (error instanceof RedisMissingError) return t.skip('redis-server is not installed here');
      throw error;
    }
    assert.equal(handle.started, true);
    assert.notEqual(handle.url, url);
    assert.equal(await redisAnswers(handle.url), true);
    await handle.stop();
    assert.equal(await redisAnswers(handle.url), false);
  });
});
