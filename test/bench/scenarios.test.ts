/**
 * The end-to-end scenario runner (bench/scenarios/) on two real scenarios, one pure and one that
 * reads a module constant through `uses`, against a real daemon, worker and Redis. The runner's
 * grades are checked against an independent judgement of the published patch source, and a copy
 * of the pure scenario whose expected answers are deliberately wrong must not be reported correct.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { APPS_DIR, checkScenario, loadScenario, type Scenario } from '../../bench/scenarios/scenario-definition.ts';
import { ScenarioBench, sdkHasUses, totalsOf, gradeOf, type PhaseResult, type ScenarioResult } from '../../bench/scenarios/scenario-runner.ts';

const PURE = join(APPS_DIR, 'tracking-link-optional-chain.mjs');
const WITH_USES = join(APPS_DIR, 'price-in-currency-rates.mjs');

/** The patch as a function of the scenario's entry arguments, compiled here with the uses values bound. */
function compilePatch(source: string, uses: Record<string, unknown>): (...args: unknown[]) => unknown {
  const names = Object.keys(uses);
  return new Function(...names, `return (${source});`)(...names.map((n) => uses[n])) as (...args: unknown[]) => unknown;
}

/** How many hidden calls the patch answers as `intended` does (the patch run directly, not through the runner or the SDK). */
function hiddenRightByPatch(s: Scenario, patch: (...args: unknown[]) => unknown): number {
  let right = 0;
  for (const args of s.hidden) {
    let got: unknown;
    try {
      got = patch(...structuredClone(args));
    } catch {
      continue;
    }
    if (isDeepStrictEqual(got, s.intended(...structuredClone(args)))) right++;
  }
  return right;
}

describe('scenario runner', () => {
  let bench: ScenarioBench;
  let pure: Scenario;
  let withUses: Scenario;
  let wrongExpectations: Scenario;

  before(async () => {
    pure = await loadScenario(PURE);
    withUses = await loadScenario(WITH_USES);
    // Same app code; the expected answers say a shipment whose carrier is not known yet links to
    // "pending", which neither the block nor any reasonable patch does.
    const realIntended = pure.intended;
    wrongExpectations = {
      ...pure,
      id: `${pure.id}-wrong-expectations`,
      intended: (shipment: unknown) => {
        const s = shipment as { tracking?: { carrier?: unknown } | null };
        return s.tracking && !s.tracking.carrier ? 'pending' : realIntended(shipment);
      },
    };
    bench = await ScenarioBench.start([pure.id, withUses.id, wrongExpectations.id], { budgetMs: 10_000, patchTimeoutMs: 45_000 });
  });
  after(() => bench?.close());

  it('a pure scenario: the grade agrees with the published patch run on the hidden inputs', { timeout: 90_000 }, async () => {
    const r = await bench.run(pure);
    assert.ok(r.patched && r.patchSource && r.fallback, `patched (${r.grade}: ${r.note})`);
    const right = hiddenRightByPatch(pure, compilePatch(r.patchSource, {}));
    assert.equal(r.fallback.hiddenCorrect, right, `runner says ${r.fallback.hiddenCorrect}/${r.fallback.hiddenTotal}, the patch itself gets ${right}`);
    assert.equal(r.fallback.hiddenTotal, pure.hidden.length);
    assert.equal(r.fallback.healthyTotal, pure.healthy.length);
    const allRight = right === pure.hidden.length && r.fallback.healthyUnchanged === r.fallback.healthyTotal && r.shadowDisagreements === 0;
    assert.equal(r.grade === 'fixed' || r.grade === 'held-correct', allRight, `grade ${r.grade}: ${r.note}`);
    assert.ok(r.msToPatch !== undefined && r.msToPatch > 0);
  });

  it('a scenario that reads a module constant through uses, judged the same way', { timeout: 90_000, skip: sdkHasUses() ? false : 'the SDK has no uses option' }, async () => {
    const r = await bench.run(withUses);
    assert.ok(r.patched && r.patchSource && r.fallback, `patched (${r.grade}: ${r.note})`);
    const { RATES } = (await import(pathToFileURL(WITH_USES).href)) as { RATES: unknown };
    const right = hiddenRightByPatch(withUses, compilePatch(r.patchSource, { RATES }));
    assert.equal(r.fallback.hiddenCorrect, right, `runner says ${r.fallback.hiddenCorrect}/${r.fallback.hiddenTotal}, the patch itself gets ${right}`);
    const allRight = right === withUses.hidden.length && r.fallback.healthyUnchanged === r.fallback.healthyTotal && r.shadowDisagreements === 0;
    assert.equal(r.grade === 'fixed' || r.grade === 'held-correct', allRight, `grade ${r.grade}: ${r.note}`);
  });

  it('deliberately wrong expected answers are reported as not correct, naming the calls', { timeout: 90_000 }, async () => {
    assert.deepEqual(await checkScenario(wrongExpectations), [], 'the variant still agrees with the app on the healthy calls');
    const r = await bench.run(wrongExpectations);
    assert.ok(r.patched && r.fallback, `patched (${r.grade}: ${r.note})`);
    // Hidden calls s5 and s8 have tracking without a carrier: "pending" is expected there.
    assert.ok(r.fallback.hiddenCorrect <= r.fallback.hiddenTotal - 2, `hidden ${r.fallback.hiddenCorrect}/${r.fallback.hiddenTotal}`);
    assert.notEqual(r.grade, 'fixed');
    assert.notEqual(r.grade, 'held-correct');
    assert.match(r.note, /want "pending"/);
    assert.equal(totalsOf([r]).fixed, 0);
  });

  it('skips a scenario with a reason, and refuses one whose failing call does not fail', async () => {
    const skipped = await bench.run(withUses, 'no uses here');
    assert.equal(skipped.grade, 'skipped');
    assert.equal(skipped.note, 'no uses here');
    const broken: Scenario = { ...pure, id: 'broken', failing: [[{ id: 'ok', tracking: { number: '1', carrier: { code: 'dhl' } } }]] };
    assert.match((await checkScenario(broken)).join(), /failing\[0\] does not throw/);
    await assert.rejects(bench.run(broken), /not well formed/);
  });
});

describe('grades', () => {
  const phase = (hidden: [number, number], healthy: [number, number]): PhaseResult => ({ hiddenCorrect: hidden[0], hiddenTotal: hidden[1], healthyUnchanged: healthy[0], healthyTotal: healthy[1], hidden: [], healthy: [] });
  const base: Pick<ScenarioResult, 'patched' | 'held' | 'fallback' | 'replace' | 'shadowDisagreements'> = { patched: true, held: false, fallback: phase([3, 3], [4, 4]), shadowDisagreements: 0 };

  it('fixed only when every hidden answer is right and no healthy answer changed, in every phase', () => {
    assert.equal(gradeOf(base), 'fixed');
    assert.equal(gradeOf({ ...base, fallback: phase([2, 3], [4, 4]) }), 'wrong');
    assert.equal(gradeOf({ ...base, fallback: phase([3, 3], [3, 4]) }), 'wrong');
    assert.equal(gradeOf({ ...base, shadowDisagreements: 1 }), 'wrong');
    assert.equal(gradeOf({ ...base, replace: phase([3, 3], [3, 4]) }), 'wrong');
    assert.equal(gradeOf({ ...base, replace: phase([3, 3], [4, 4]) }), 'fixed');
    assert.equal(gradeOf({ ...base, held: true }), 'held-correct');
    assert.equal(gradeOf({ ...base, held: true, fallback: phase([0, 3], [4, 4]) }), 'held-wrong');
    assert.equal(gradeOf({ ...base, patched: false }), 'no-patch');
    assert.equal(gradeOf({ ...base, fallback: undefined }), 'no-patch');
  });
});
