/**
 * The receiver of a call is recorded only for blocks that have their own `this`. An arrow block
 * wrapped as a method of the app object (`app.bearerToken(req)`) is called with that object, which
 * its code never sees: it must not be snapshot (it may hold anything of the app's).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createRepairClient } from '../../sdk/index.ts';
import { failureReportsOf, json, recordedCallsOf, startStubDaemon } from './stub-daemon.ts';

const stub = await startStubDaemon((req, res) => json(res, 202, req.path === '/v1/failures' ? { fingerprint: 'f', jobId: 'j' } : {}));
after(() => stub.close());

function client() {
  return createRepairClient({ url: stub.url, app: 'shop', sync: 'off', record: { sampleRate: 0, first: 3 }, flushInterval: 10 });
}

const recorded = (blockId: string) => recordedCallsOf(stub.requests, blockId);
const failures = (blockId: string) => failureReportsOf(stub.requests, blockId);

/** An app object holding what a receiver snapshot would leak. */
function appWith<T extends object>(methods: T) {
  return { internals: { marker: 'APP-OBJECT-LEAKED' }, ...methods };
}

describe('the receiver of arrow blocks', () => {
  it('an arrow wrapped by id and called as a method: no receiver in recorded calls or failure reports', async () => {
    const repair = client();
    const app = appWith({
      bearer: repair.wrap('arrow-bearer', 'the bearer token', (req: { headers: Record<string, string> }) => req.headers.authorization.split(' ')[1]),
      asyncArrow: repair.wrap('arrow-async', 'twice', async (n: { v: number }) => n.v * 2),
    });
    assert.equal(app.bearer({ headers: { authorization: 'Bearer x' } }), 'x');
    assert.throws(() => app.bearer({ headers: {} }), TypeError);
    assert.equal(await app.asyncArrow({ v: 2 }), 4);
    await assert.rejects(app.asyncArrow(null as never) as Promise<number>, TypeError);
    await repair.close();
    for (const id of ['arrow-bearer', 'arrow-async']) {
      const calls = recorded(id);
      const reports = failures(id);
      assert.equal(calls.length, 1, id);
      assert.equal(reports.length, 1, id);
      assert.equal(calls[0].world, undefined, `${id}: a recorded call without a receiver`);
      assert.equal(reports[0].world, undefined, `${id}: a failure without a receiver`);
    }
    assert.ok(!JSON.stringify(stub.requests.map((r) => r.body)).includes('APP-OBJECT-LEAKED'));
  });

  it('an arrow in the options form (receiver given, or wrap called as a method): no receiver; uses still recorded', async () => {
    const repair = client();
    const RATE = 2;
    const app = appWith({ scaled: repair.wrap({ id: 'arrow-uses', description: 'scaled', uses: { RATE } }, (n: number) => n * RATE) });
    assert.equal(app.scaled(3), 6);
    assert.throws(() => repair.run({ id: 'arrow-receiver', description: 'len', receiver: app }, (s: string) => s.length, null as never), TypeError);
    await repair.close();
    const call = recorded('arrow-uses')[0];
    assert.deepEqual(call.world?.uses, { RATE: 2 });
    assert.ok(call.world && !('this' in call.world) && !('thisAfter' in call.world));
    assert.equal(failures('arrow-receiver')[0].world, undefined);
    assert.ok(!JSON.stringify(stub.requests.map((r) => r.body)).includes('APP-OBJECT-LEAKED'));
  });

  it('functions and methods with their own this keep it', async () => {
    const repair = client();
    const cart = {
      fee: 5,
      total: repair.wrap('own-this-fn', 'total', function (this: { fee: number }, n: number) {
        return n + this.fee;
      }),
      method: repair.wrap('own-this-method', 'total', { m(this: { fee: number }, n: number) { return n * this.fee; } }.m),
      asyncFn: repair.wrap('own-this-async', 'total', async function (this: { fee: number }, n: number) { return n - this.fee; }),
    };
    assert.equal(cart.total(1), 6);
    assert.equal(cart.method(2), 10);
    assert.equal(await cart.asyncFn(7), 2);
    await repair.close();
    for (const id of ['own-this-fn', 'own-this-method', 'own-this-async']) {
      const world = recorded(id)[0]?.world;
      assert.equal((world?.this as { fee?: number } | undefined)?.fee, 5, id);
    }
  });
});
