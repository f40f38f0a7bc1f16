import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { runBench } from '../../bench/bench-runner.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const suite = join(root, 'bench/suites/runtime-failures');

test('runBench repairs bugs and judges the winners on hidden cases', async () => {
  const report = await runBench({ suiteDir: suite, only: ['damage-missing-stats', 'pagination-last-page'], budgetSeconds: 10, sandboxes: 2 });
  assert.equal(report.summary.bugs, 2);
  assert.deepEqual(report.bugs.map((b) => b.id), ['damage-missing-stats', 'pagination-last-page']);
  for (const bug of report.bugs) {
    assert.equal(bug.plausible, true, `${bug.id} plausible`);
    assert.equal(bug.correct, bug.hiddenPassed === bug.hiddenCases, `${bug.id}: correct means every hidden case passes`);
    assert.ok(bug.trials >= bug.candidates && bug.candidates > 0);
    assert.match(bug.diff ?? '', /^@@/m);
  }
  assert.equal(report.summary.plausible, 2);
  assert.equal(report.summary.correct, report.bugs.filter((b) => b.correct).length);
  assert.ok(report.summary.trialsPerSecond > 0);
});

test('suture bench --json writes the documented report shape; bad options exit non-zero with a message', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'suture-bench-'));
  try {
    const out = join(dir, 'report.json');
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'cli/main.ts', 'bench', '--suite', suite, '--only', 'order-missing-items', '--budget', '5', '--json', out], { cwd: root });
    assert.match(stdout, /plausible 1 \(100\.0 %\)/);
    const report = JSON.parse(await readFile(out, 'utf8'));
    assert.deepEqual(Object.keys(report.summary).slice(0, 3), ['bugs', 'plausible', 'correct']);
    for (const key of ['id', 'plausible', 'correct', 'seconds', 'candidates', 'trials']) assert.ok(key in report.bugs[0], key);
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
