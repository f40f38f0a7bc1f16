import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { runBench } from '../../suite/bench-runner.ts';
import { benchFigures } from '../../cli/bench-command.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const suite = join(root, 'bench/suites/runtime-failures');

test('runBench repairs bugs and judges the winners on hidden cases', async () => {
  const report = await runBench({ suiteDir: suite, only: ['damage-missing-stats', 'pagination-last-page'], budgetSeconds: 10, sandboxes: 2 });
  assert.equal(report.summary.bugs, 2);
  assert.deepEqual(report.bugs.map((b) => b.id), ['damage-missing-stats', 'pagination-last-page']);
  for (const bug of report.bugs) {
    assert.equal(bug.plausible, true, `${bug.id} plausible`);
    assert.ok(bug.hiddenCases > 0);
    assert.equal(bug.correct, bug.hiddenPassed === bug.hiddenCases, `${bug.id}: correct means every hidden case passes`);
    assert.equal(bug.grade, bug.correct ? 'correct' : 'overfitted');
    assert.ok(bug.trials >= bug.candidates && bug.candidates > 0);
    assert.match(bug.diff ?? '', /^@@/m);
  }
  assert.equal(report.summary.plausible, 2);
  assert.equal(report.summary.correct, report.bugs.filter((b) => b.correct).length);
  assert.ok(report.summary.trialsPerSecond > 0);
});

test('a plausible winner without hidden cases is unverified, never correct; overfitting is a share of the plausible winners that were judged', { timeout: 120_000 }, async () => {
  // One bug three times: as shipped (hidden cases its fix passes), without hidden cases, and with a
  // hidden case no honest fix passes (it expects the draft order to have one unit).
  const dir = await mkdtemp(join(tmpdir(), 'suture-bench-honesty-'));
  try {
    await writeFile(join(dir, 'suite.json'), JSON.stringify({ name: 'honesty', description: 'one bug, three judges' }));
    const original = join(suite, 'bugs/order-missing-items');
    for (const id of ['judged', 'unjudged', 'misjudged']) {
      await cp(original, join(dir, 'bugs', id), { recursive: true });
      const meta = JSON.parse(await readFile(join(original, 'bug.json'), 'utf8'));
      await writeFile(join(dir, 'bugs', id, 'bug.json'), JSON.stringify({ ...meta, id }));
    }
    await rm(join(dir, 'bugs/unjudged/hidden.json'));
    const hidden = JSON.parse(await readFile(join(original, 'hidden.json'), 'utf8'));
    hidden[0].expect.units = 1;
    await writeFile(join(dir, 'bugs/misjudged/hidden.json'), JSON.stringify(hidden));

    const report = await runBench({ suiteDir: dir, budgetSeconds: 10, sandboxes: 2 });
    const byId = Object.fromEntries(report.bugs.map((b) => [b.id, b]));
    assert.ok(report.bugs.every((b) => b.plausible), 'the engine repairs all three the same way');
    assert.deepEqual([byId.judged.grade, byId.judged.correct], ['correct', true]);
    assert.deepEqual([byId.unjudged.grade, byId.unjudged.correct, byId.unjudged.hiddenCases], ['unverified', false, 0]);
    assert.deepEqual([byId.misjudged.grade, byId.misjudged.correct], ['overfitted', false]);
    const { plausible, correct, unverified, verifiedPlausible, overfitted, overfittedShare } = report.summary;
    assert.deepEqual({ plausible, correct, unverified, verifiedPlausible, overfitted, overfittedShare }, { plausible: 3, correct: 1, unverified: 1, verifiedPlausible: 2, overfitted: 1, overfittedShare: 0.5 });
    const [figures, confidence] = benchFigures(report.summary).split('\n');
    assert.equal(figures, 'plausible 3 (100.0 %), correct 1 (33.3 %), unverified 1 (plausible, no hidden case to judge), overfitted 1 (50.0 % of the 2 plausible with hidden cases)');
    // The three bugs are one repair: the same confidence, counted apart, and the overfitted one still counted as overfitted.
    const low = report.bugs.filter((b) => b.confidence === 'low').length;
    assert.ok(low === 0 || low === 3);
    assert.equal(report.summary.lowConfidence, low);
    assert.equal(report.summary.lowConfidenceOverfitted, low ? 1 : 0);
    assert.equal(report.summary.highConfidenceOverfittedShare, low ? null : 0.5);
    assert.match(confidence, new RegExp(`^plausible, low confidence ${low} \\(held for approval; ${low ? 1 : 0} correct, ${low ? 1 : 0} overfitted\\)`));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('suture bench --json writes the documented report shape; bad options exit non-zero with a message', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'suture-bench-'));
  try {
    const out = join(dir, 'report.json');
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'cli/main.ts', 'bench', '--suite', suite, '--only', 'order-missing-items', '--budget', '5', '--json', out], { cwd: root });
    assert.match(stdout, /plausible 1 \(100\.0 %\)/);
    const report = JSON.parse(await readFile(out, 'utf8'));
    assert.deepEqual(Object.keys(report.summary).slice(0, 7), ['bugs', 'plausible', 'correct', 'unverified', 'verifiedPlausible', 'overfitted', 'overfittedShare']);
    for (const key of ['id', 'grade', 'plausible', 'correct', 'seconds', 'candidates', 'trials']) assert.ok(key in report.bugs[0], key);
    const bad = await run(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'cli/main.ts', 'bench', '--suite', suite, '--budget', 'abc'], { cwd: root }).catch((e) => e);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /expected a positive number/);
    const missing = await run(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'cli/main.ts', 'bench', '--suite', join(dir, 'nope')], { cwd: root }).catch((e) => e);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /suite\.json/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
