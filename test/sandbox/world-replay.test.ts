import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Block, Case, TrialResult } from '../../core/types.ts';
import type { CallWorld } from '../../core/world.ts';
import { TrialRunner } from '../../engine/sandbox/trial-runner.ts';

const LIMITS = { cpuMs: 250, wallMs: 500, memoryMb: 32, maxResultBytes: 1_000_000 };
const FN = { $t: 'function', name: 'f' };

// A game AI block as apps write it: it reads an injected object with methods and two functions
// it moves the unit with, and keeps its own state on `this`.
const USES = ['self', 'moveRight', 'moveLeft'];
const AI = `function step(playerPos) {
  const myPos = self.getCurrentPosition();
  if (myPos.x < playerPos.x) moveRight();
  else if (myPos.x > playerPos.x) moveLeft();
  this.turns++;
  return myPos.x;
}`;

function aiWorld(): CallWorld {
  return {
    uses: { self: { $t: 'object', class: 'Unit', props: { id: 'orc-1' } }, moveRight: FN, moveLeft: FN },
    calls: [
      { path: 'self.getCurrentPosition', args: [], async: false, result: { x: 2, y: 0 } },
      { path: 'moveRight', args: [], async: false },
    ],
    usesAfter: { self: { $t: 'object', class: 'Unit', props: { id: 'orc-1' } }, moveRight: FN, moveLeft: FN },
    this: { turns: 4 },
    thisAfter: { turns: 5 },
  };
}

function aiCase(world: CallWorld = aiWorld()): Case {
  return { id: 'recorded-1', kind: 'recorded', check: 'value', args: [{ x: 9, y: 0 }], expect: 2, world };
}

const runner = new TrialRunner();
after(() => runner.dispose());

async function run(block: Block, cases: Case[]): Promise<TrialResult[]> {
  const report = await runner.run({ block, cases }, LIMITS);
  assert.equal(report.compileError, undefined, JSON.stringify(report.compileError));
  return report.results;
}

const ai = (source: string): Block => ({ source, entry: 'step', uses: USES });

describe('a case with a world', () => {
  it('defines the uses names from the world: the original passes where, without the world, it throws ReferenceError', async () => {
    const [withWorld] = await run(ai(AI), [aiCase()]);
    assert.equal(withWorld.verdict, 'pass', JSON.stringify(withWorld));
    assert.deepEqual(withWorld.world?.calls, 2);
    const bare = { ...aiCase() };
    delete bare.world;
    const [without] = await run(ai(AI), [bare]);
    assert.equal(without.verdict, 'threw');
    assert.equal(without.error?.name, 'ReferenceError');
  });

  it('a candidate that no longer makes a call the original made fails the case, naming it', async () => {
    const [r] = await run(ai(AI.replace('moveRight();', '{}')), [aiCase()]);
    assert.equal(r.verdict, 'wrong-result');
    assert.match(r.error?.message ?? '', /did not call moveRight\(\)/);
  });

  it('a candidate that makes a call the original did not fails the case, naming it', async () => {
    const [r] = await run(ai(AI.replace('moveRight();', '{ moveRight(); moveLeft(); }')), [aiCase()]);
    assert.equal(r.verdict, 'wrong-result');
    assert.match(r.error?.message ?? '', /called moveLeft\(\)/);
  });

  it('a candidate that swaps a dependency for its own function does not make the call the original made', async () => {
    const swapped = AI.replace('if (myPos.x < playerPos.x) moveRight();', 'moveRight = () => undefined; if (myPos.x < playerPos.x) moveRight();');
    const [r] = await run(ai(swapped), [aiCase()]);
    assert.equal(r.verdict, 'wrong-result');
    assert.match(r.error?.message ?? '', /did not call moveRight\(\)/);
  });

  it('a call with other arguments than the log has is a difference too', async () => {
    const block = { source: 'async function load(id) { const u = await db.getUser(id); return u.name; }', entry: 'load', uses: ['db'] };
    const world: CallWorld = { uses: { db: { getUser: FN } }, calls: [{ path: 'db.getUser', args: [7], async: true, result: { name: 'Ann' } }] };
    const c: Case = { id: 'r', kind: 'recorded', check: 'value', args: [7], expect: 'Ann', world };
    assert.equal((await run(block, [c]))[0].verdict, 'pass');
    const [off] = await run({ ...block, source: block.source.replace('getUser(id)', 'getUser(id + 1)') }, [c]);
    assert.equal(off.verdict, 'wrong-result');
    assert.match(off.error?.message ?? '', /db\.getUser\(8\) where the original called db\.getUser\(7\)/);
  });

  it('changed effects on this fail the case', async () => {
    const [r] = await run(ai(AI.replace('this.turns++;', 'this.turns += 2;')), [aiCase()]);
    assert.equal(r.verdict, 'wrong-result');
    assert.match(r.error?.message ?? '', /receiver/);
    assert.deepEqual(r.world?.thisAfter, { turns: 6 });
  });

  it('changed effects on a uses value fail the case (functions are not compared)', async () => {
    const [r] = await run(ai(AI.replace('this.turns++;', "this.turns++; self.id = 'orc-2';")), [aiCase()]);
    assert.equal(r.verdict, 'wrong-result');
    assert.match(r.error?.message ?? '', /self after the call differs/);
  });

  it('each case decodes its own copy of the world: what one case changes, the next does not see', async () => {
    const counter = { source: 'function hit() { stats.hits++; return stats.hits; }', entry: 'hit', uses: ['stats'] };
    const world: CallWorld = { uses: { stats: { hits: 1 } }, calls: [], usesAfter: { stats: { hits: 2 } } };
    const cases: Case[] = [0, 1, 2].map((i) => ({ id: `r${i}`, kind: 'recorded', check: 'value', args: [], expect: 2, world }));
    assert.deepEqual((await run(counter, cases)).map((r) => r.verdict), ['pass', 'pass', 'pass']);
  });
});

describe('replay misses', () => {
  // A failure case: the original threw after these calls; a candidate must match them as far as
  // its calls go, and a call past them cannot be answered.
  const block = (source: string): Block => ({ source, entry: 'rename', uses: ['db'] });
  const ORIGINAL = `async function rename(id, name) {
  const user = await db.getUser(id);
  user.profile.name = name;
  await db.saveUser(user);
  return user.profile;
}`;
  const world: CallWorld = {
    uses: { db: { getUser: FN, saveUser: FN, createProfile: FN } },
    calls: [{ path: 'db.getUser', args: [3], async: true, result: { id: 3, profile: null } }],
  };
  const failure: Case = { id: 'failure-1', kind: 'failure', check: 'no-throw', args: [3, 'Bo'], world };

  it('a call past the log is a replay miss, unverifiable, never a pass', async () => {
    const [original] = await run(block(ORIGINAL), [failure]);
    assert.equal(original.verdict, 'threw');
    const fixed = ORIGINAL.replace('user.profile.name = name;', 'user.profile = { ...user.profile, name };');
    const [r] = await run(block(fixed), [failure]);
    assert.equal(r.verdict, 'replay-miss');
    assert.match(r.error?.message ?? '', /unverifiable: call 2, db\.saveUser/);
  });

  it('a candidate that catches the miss still has its case failed', async () => {
    const catching = ORIGINAL.replace('await db.saveUser(user);', 'try { await db.saveUser(user); } catch {}').replace('user.profile.name = name;', 'user.profile = { name };');
    const [r] = await run(block(catching), [failure]);
    assert.equal(r.verdict, 'replay-miss');
    assert.equal(r.world?.calls, 1);
  });

  it('a candidate that throws on a dependency error the log recorded fails as a throw', async () => {
    const throwing: CallWorld = {
      uses: { db: { getUser: FN, saveUser: FN } },
      calls: [{ path: 'db.getUser', args: [3], async: true, error: { name: 'TypeError', message: 'connection reset' } }],
    };
    const [r] = await run(block(ORIGINAL), [{ ...failure, world: throwing }]);
    assert.equal(r.verdict, 'threw');
    assert.equal(r.error?.message, 'connection reset');
    const guarded = ORIGINAL.replace('const user = await db.getUser(id);', 'let user; try { user = await db.getUser(id); } catch { return null; }');
    assert.equal((await run(block(guarded), [{ ...failure, world: throwing }]))[0].verdict, 'pass');
  });
});

describe('helpers shipped as source', () => {
  const block: Block = { source: 'function total(cart) { return roundCents(cart.items.reduce((s, i) => s + i.price * i.qty, 0) * (1 + TAX)); }', entry: 'total', uses: ['roundCents', 'TAX'] };
  const world = (sources?: Record<string, string>): CallWorld => ({
    uses: { roundCents: FN, TAX: 0.2 },
    calls: [{ path: 'roundCents', args: [36], async: false, result: 36 }],
    ...(sources ? { sources } : {}),
  });
  // A different cart than the recorded call's: its helper call is one the log never saw.
  const newInput = (w: CallWorld): Case => ({ id: 'test-1', kind: 'test', check: 'value', args: [{ items: [{ price: 2.5, qty: 3 }] }], expect: 9, world: w });

  it('a pure helper runs as code and answers inputs its log never saw', async () => {
    const [r] = await run(block, [newInput(world({ roundCents: '(n) => Math.round(n * 100) / 100' }))]);
    assert.equal(r.verdict, 'pass', JSON.stringify(r));
  });

  it('without its source, or with a source that reads outside names, the helper replays and the new input misses', async () => {
    const [replayed] = await run(block, [newInput(world())]);
    assert.equal(replayed.verdict, 'wrong-result');
    assert.match(replayed.error?.message ?? '', /roundCents\(9\) where the original called roundCents\(36\)/);
    const [impure] = await run(block, [newInput(world({ roundCents: '(n) => Math.round(n * SCALE) / SCALE' }))]);
    assert.equal(impure.verdict, 'wrong-result');
  });
});

describe('a malformed world', () => {
  it('crashes its own case, naming the field, and the cases after it still run in the worlds they have', async () => {
    const broken = { ...aiCase(), id: 'broken', world: { uses: {}, calls: 'none' } as unknown as CallWorld };
    const [bad, good] = await run(ai(AI), [broken, aiCase()]);
    assert.equal(bad.verdict, 'crashed');
    assert.equal(bad.error?.name, 'WorldError');
    assert.match(bad.error?.message ?? '', /case broken: world\.calls must be an array/);
    assert.equal(good.verdict, 'pass', JSON.stringify(good));
    assert.equal(good.world?.calls, 2);
  });
});
