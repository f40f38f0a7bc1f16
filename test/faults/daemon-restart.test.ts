import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRepairClient, type RepairClient } from '../../sdk/index.ts';
import { createDaemon, type Daemon } from '../../daemon/daemon-server.ts';
import { quietLogger, SHOP_TOKEN, startHarness, until } from '../../testkit/service-harness.ts';
import { scanKeys } from '../../service/store/key-scan.ts';

/**
 * Must hold: while 20 SDK instances (following the SSE manifest stream) report failures, the
 * daemon is stopped and restarted twice; close() returns promptly although SSE streams are open;
 * every report the SDKs produced is acknowledged once the daemon is back, none is dropped, and every
 * acknowledged report is stored (its request id is known to Redis). The app's calls are unaffected:
 * each throws the block's own error, synchronously, whatever the daemon's state.
 * (A single SDK against a restarted daemon: test/sdk/sdk-end-to-end.test.ts.)
 */
describe('daemon restart while SDKs report', () => {
  it('loses no acknowledged report and close() does not wait for SSE streams', { timeout: 60_000 }, async (t) => {
    const h = await startHarness();
    const port = Number(new URL(h.url).port);
    let daemon: Daemon = h.daemon;
    const clients: RepairClient[] = Array.from({ length: 20 }, (_, i) =>
      createRepairClient({ url: h.url, app: 'shop', token: SHOP_TOKEN, instanceId: `i${i}`, sync: 'stream', maxBackoff: 200, flushInterval: 20, record: { sampleRate: 0 } }),
    );
    for (const c of clients) c.on('error', () => {});
    t.after(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await daemon.close().catch(() => {});
      await h.close().catch(() => {});
    });
    const failing = (level: number) => {
      if (level >= 0) throw new RangeError(`bad level ${level}`);
      return level;
    };
    let thrown = 0;
    let n = 0;
    const closeTimes: number[] = [];
    const report = async (ms: number) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        for (const c of clients) {
          const started = performance.now();
          assert.throws(() => c.run('level-check', 'validate a level', failing, n++), RangeError);
          assert.ok(performance.now() - started < 50, 'the app’s call does not wait for the daemon');
          thrown++;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    await until(async () => clients.every((c) => c.stats().manifestRevision >= 0), 10_000);
    await report(800);
    for (let round = 0; round < 2; round++) {
      const closing = performance.now();
      await daemon.close();
      closeTimes.push(performance.now() - closing);
      await report(700); // reports queue in the SDKs and retry
      daemon = await createDaemon({ ...h.config, port }, { logger: quietLogger });
      await daemon.listen();
      await report(600);
    }
    // `failuresQueued` excludes a batch in flight: wait until every report is accounted for.
    const settled = () => clients.reduce((s, c) => s + c.stats().failuresDelivered + c.stats().failuresDropped, 0);
    await until(async () => clients.every((c) => c.stats().failuresQueued === 0) && settled() >= thrown, 20_000, 50).catch(() => {});
    const delivered = clients.reduce((s, c) => s + c.stats().failuresDelivered, 0);
    const dropped = clients.reduce((s, c) => s + c.stats().failuresDropped, 0);
    const stored = (await scanKeys(h.redis, `${h.config.prefix}:req:shop:*`)).length;
    console.log(`[daemon-restart] ${thrown} failures thrown, ${delivered} acknowledged, ${stored} stored, ${dropped} dropped; close() took ${closeTimes.map((x) => x.toFixed(0)).join(', ')} ms`);
    assert.equal(dropped, 0);
    assert.equal(delivered, thrown, 'every report was acknowledged after the restarts');
    assert.equal(stored, delivered, 'every acknowledged report is stored');
    for (const ms of closeTimes) assert.ok(ms < 5000, `daemon close() took ${ms.toFixed(0)} ms with SSE streams open`);
  });
});
