import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadSuite } from '../../suite/suite-loader.ts';

const suitesDir = fileURLToPath(new URL('../../bench/suites/', import.meta.url));

describe('committed suites', async () => {
  const names = (await readdir(suitesDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);

  it('has both suites', () => {
    assert.ok(names.includes('runtime-failures'));
    assert.ok(names.includes('humanevalfix-js-dev'));
  });

  for (const name of names) {
    it(`${name}: every bug loads, with a fix, visible cases and a declared entry`, async () => {
      const suite = await loadSuite(path.join(suitesDir, name));
      assert.equal(suite.name, name);
      const dirs = await readdir(path.join(suitesDir, name, 'bugs'));
      assert.equal(suite.bugs.length, dirs.length);
      for (const bug of suite.bugs) {
        assert.ok(bug.cases.length > 0, `${bug.id} has visible cases`);
        assert.ok(bug.fixedPath, `${bug.id} has fixed.js`);
        const fixed = await readFile(bug.fixedPath, 'utf8');
        assert.notEqual(fixed, bug.block.source, `${bug.id}: fixed.js differs from the buggy source`);
        assert.match(bug.block.source, new RegExp(`\\b${bug.entry}\\b`), `${bug.id} declares ${bug.entry}`);
      }
    });
  }

  it('runtime-failures: 8-12 bugs, each with a failure case, recorded cases and hidden cases', async () => {
    const suite = await loadSuite(path.join(suitesDir, 'runtime-failures'));
    assert.ok(suite.bugs.length >= 8 && suite.bugs.length <= 12, `${suite.bugs.length} bugs`);
    for (const bug of suite.bugs) {
      assert.ok(bug.cases.some((c) => c.kind === 'failure'), `${bug.id} has a failure case`);
      assert.ok(bug.cases.filter((c) => c.kind === 'recorded').length >= 2, `${bug.id} has recorded cases`);
      assert.ok(bug.hidden.length >= 2, `${bug.id} has hidden cases`);
    }
  });

  it('humanevalfix-js-dev: 82 bugs, the split figures recorded in the report, LICENSE beside it', async () => {
    const suite = await loadSuite(path.join(suitesDir, 'humanevalfix-js-dev'));
    assert.equal(suite.bugs.length, 82);
    assert.equal(suite.bugs[0]!.id, 'JavaScript/0');
    assert.equal(suite.bugs[1]!.id, 'JavaScript/2');
    assert.equal(suite.bugs.at(-1)!.id, 'JavaScript/162');
    assert.equal(suite.bugs.reduce((n, b) => n + b.cases.length, 0), 339);
    assert.equal(suite.bugs.reduce((n, b) => n + b.hidden.length, 0), 236);
    assert.match(await readFile(path.join(suitesDir, 'humanevalfix-js-dev', 'LICENSE'), 'utf8'), /MIT License/);
  });
});
