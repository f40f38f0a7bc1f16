import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bugsOfFold, RESERVED_FOLD, splitFolds, suiteBugIds, trainingBugs } from '../../suite/folds.ts';
import { learnPriors, operatorFamilies, readReportBugs } from '../../suite/prior-learner.ts';
import { runFoldBench } from '../../suite/fold-bench.ts';
import { adjustPrior, parseLearnedPriors, priorFactors } from '../../engine/generators/template/learned-priors.ts';
import { generateTemplateCandidates } from '../../engine/generators/template/template-generator.ts';
import { foldTable } from '../../cli/bench-command.ts';
import { suture } from '../cli/cli-process.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('the fold split: every bug in exactly one fold, balanced, by position in natural id order whatever the input order', () => {
  const ids = Array.from({ length: 23 }, (_, i) => `T/${i * 2}`);
  const shuffled = [...ids].reverse();
  const split = splitFolds(shuffled, 5);
  assert.equal(split.foldOf.size, 23);
  const sizes = [0, 1, 2, 3, 4].map((f) => bugsOfFold(split, f).length);
  assert.deepEqual(sizes, [5, 5, 5, 4, 4]);
  assert.deepEqual(bugsOfFold(split, 0), ['T/0', 'T/10', 'T/20', 'T/30', 'T/40'], 'natural order: T/10 is position 5, not 1');
  assert.deepEqual(splitFolds(ids, 5).foldOf, split.foldOf, 'deterministic');
  assert.throws(() => splitFolds(ids, 1), /at least 2/);
  assert.throws(() => splitFolds(['a', 'b'], 3), /cannot make 3 folds/);
  assert.throws(() => bugsOfFold(split, 5), /from 0 to 4/);
});

test('HumanEvalFix-JS dev in 5 folds: fold f holds the tasks n with (n / 2) mod 5 = f', async () => {
  const ids = await suiteBugIds(join(root, 'bench/suites/humanevalfix-js-dev'));
  assert.equal(ids.length, 82);
  const split = splitFolds(ids, 5);
  for (const [id, fold] of split.foldOf) assert.equal(fold, (Number(id.split('/')[1]) / 2) % 5, id);
});

test('training bugs: out-of-fold leaves the measured fold out, in-fold keeps it; the reserved fold trains only its own measurement', () => {
  const split = splitFolds(Array.from({ length: 10 }, (_, i) => `b${i}`), 5);
  const foldsOf = (s: Set<string>) => [...new Set([...s].map((id) => split.foldOf.get(id)))].sort();
  assert.deepEqual(foldsOf(trainingBugs(split, 2, 'out')), [1, 3, 4]);
  assert.deepEqual(foldsOf(trainingBugs(split, 2, 'in')), [1, 2, 3, 4]);
  assert.deepEqual(foldsOf(trainingBugs(split, RESERVED_FOLD, 'out')), [1, 2, 3, 4]);
  assert.deepEqual(foldsOf(trainingBugs(split, RESERVED_FOLD, 'in')), [0, 1, 2, 3, 4]);
});

test('the learner counts correct and overfitted winners per operator family, smoothed and clamped', () => {
  const bugs = [
    { id: 'a', grade: 'correct', generator: 'template:relational' },
    { id: 'b', grade: 'correct', generator: 'template:relational+variable' },
    { id: 'c', grade: 'overfitted', generator: 'template:statement-deletion' },
    { id: 'd', grade: 'unverified', generator: 'template:literal' },
    { id: 'e', grade: 'correct', generator: 'llm:model#1' },
    { id: 'f', grade: 'not-fixed' },
    ...Array.from({ length: 20 }, (_, i) => ({ id: `w${i}`, grade: 'correct', generator: 'template:wrap' })),
  ];
  const learned = learnPriors(bugs, { suite: 's' });
  assert.deepEqual(learned.operators.relational, { correct: 2, overfitted: 0, factor: 2 });
  assert.deepEqual(learned.operators.variable, { correct: 1, overfitted: 0, factor: 1.5 }, 'one bug moves the odds by 1.5 only');
  assert.deepEqual(learned.operators['statement-deletion'], { correct: 0, overfitted: 1, factor: 0.6667 });
  assert.equal(learned.operators.wrap.factor, 4, 'clamped');
  assert.equal(learned.operators.literal, undefined, 'an unverified winner is not evidence');
  assert.deepEqual(Object.keys(learned.operators).sort(), ['relational', 'statement-deletion', 'variable', 'wrap']);
  assert.equal(learned.trainedOn.bugs.length, bugs.length);

  const some = learnPriors(bugs, { suite: 's', bugs: new Set(['a', 'c']) });
  assert.deepEqual(Object.keys(some.operators).sort(), ['relational', 'statement-deletion']);
  assert.equal(some.operators.relational.factor, 1.5);
  assert.deepEqual(operatorFamilies('template:a+b+a'), ['a', 'b']);
  assert.throws(() => learnPriors(bugs, { suite: 's', smoothing: 0 }), /smoothing/);
  assert.deepEqual(parseLearnedPriors(JSON.stringify(learned)).operators.wrap.factor, 4);
  assert.throws(() => parseLearnedPriors('{"version":1,"operators":{"x":{"factor":-1}}}', 'p.json'), /p\.json: operators\.x\.factor/);
});

test('learned factors move priors in odds space and reorder the template candidates', () => {
  assert.equal(adjustPrior(0.5, 3), 0.75);
  assert.equal(adjustPrior(0.52, undefined), 0.52);
  assert.ok(adjustPrior(0.99, 4) < 1 && adjustPrior(0.01, 0.25) > 0);
  const block = { source: 'function f(a, b) { return a < b; }', entry: 'f' };
  const first = (factors?: Record<string, number>) => generateTemplateCandidates(block, [], { pairs: false, priorFactors: factors }).next().value!;
  assert.equal(first().generator, 'template:relational');
  const moved = first({ variable: 4 });
  assert.equal(moved.generator, 'template:variable', 'a family learned to fix bugs is tried first');
  assert.equal(moved.prior, adjustPrior(0.52, 4));
});

test('the fold bench measures a fold with priors from the other folds, in-fold beside it, and keeps the reserved fold shut', { timeout: 180_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'suture-folds-'));
  try {
    const source = join(root, 'bench/suites/runtime-failures');
    await cp(source, dir, { recursive: true });
    const ids = await suiteBugIds(dir);
    const split = splitFolds(ids, 5);
    const suiteName = JSON.parse(await readFile(join(dir, 'suite.json'), 'utf8')).name;
    // A previous full run: one correct winner per bug, with a family of its fold's own.
    const report = { suite: suiteName, bugs: ids.map((id) => ({ id, grade: 'correct', generator: `template:family-of-fold-${split.foldOf.get(id)}` })) };
    const reportFile = join(dir, 'full.json');
    await writeFile(reportFile, JSON.stringify(report));
    assert.equal((await readReportBugs(reportFile)).bugs.length, ids.length);
    const older = join(dir, 'older.json');
    await writeFile(older, JSON.stringify({ ...report, bugs: report.bugs.map(({ grade, ...b }) => ({ ...b, verdict: grade })) }));
    assert.deepEqual(await readReportBugs(older), await readReportBugs(reportFile), 'a report written before grade (its bugs say verdict) reads the same');
    const kept = await readReportBugs(join(root, 'bench/results/humanevalfix-js-dev-template-10s.json'));
    assert.ok(kept.bugs.length > 0 && kept.bugs.every((b) => ['correct', 'overfitted', 'unverified', 'not-fixed', 'error'].includes(b.grade)), 'the kept full run still reads');

    await assert.rejects(runFoldBench({ suiteDir: dir, k: 5, folds: [0], priorsFrom: reportFile, budgetSeconds: 5, sandboxes: 2 }), /reserved fold/);
    const wrong = join(dir, 'other.json');
    await writeFile(wrong, JSON.stringify({ ...report, suite: 'another' }));
    await assert.rejects(runFoldBench({ suiteDir: dir, k: 5, folds: [2], priorsFrom: wrong, budgetSeconds: 5, sandboxes: 2 }), /not "/);

    const bug = bugsOfFold(split, 2)[0];
    const folds = await runFoldBench({ suiteDir: dir, k: 5, folds: [2], roles: ['in', 'out'], priorsFrom: reportFile, only: [bug], budgetSeconds: 10, sandboxes: 2 });
    assert.deepEqual(folds.runs.map((r) => [r.fold, r.role, r.bugs]), [[2, 'in', [bug]], [2, 'out', [bug]]]);
    const [inFold, outOfFold] = folds.runs;
    assert.deepEqual(Object.keys(inFold.priors.operators).sort(), ['family-of-fold-1', 'family-of-fold-2', 'family-of-fold-3', 'family-of-fold-4']);
    assert.deepEqual(Object.keys(outOfFold.priors.operators).sort(), ['family-of-fold-1', 'family-of-fold-3', 'family-of-fold-4'], 'neither the measured nor the reserved fold');
    assert.ok(!outOfFold.priors.trainedOn.bugs.includes(bug));
    assert.equal(outOfFold.trainedOn, ids.filter((id) => ![0, 2].includes(split.foldOf.get(id)!)).length);
    for (const run of folds.runs) {
      assert.equal(run.summary.bugs, 1);
      assert.equal(run.report.bugs[0].id, bug);
    }
    const table = foldTable(folds);
    assert.match(table, /reserved fold 0/);
    assert.match(table, new RegExp(`^\\s+2\\s+1\\s+\\d+/\\d+/\\d+/`, 'm'));
    assert.deepEqual(priorFactors(outOfFold.priors), { 'family-of-fold-1': 2, 'family-of-fold-3': 2, 'family-of-fold-4': 2 }, 'two bugs per fold: (2 + 2) / 2');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('bench --folds without --priors-from says what is missing instead of exiting silently', { timeout: 60_000 }, async () => {
  const run = await suture(['bench', '--suite', 'bench/suites/humanevalfix-js-dev', '--folds', '5', '--fold', '1']);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /--folds needs --priors-from/);
});
