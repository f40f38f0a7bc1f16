import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadSuite, SuiteFormatError } from '../../suite/suite-loader.ts';

interface BugFiles {
  'bug.json'?: unknown;
  'buggy.js'?: string;
  'fixed.js'?: string;
  'cases.json'?: unknown;
  'hidden.json'?: unknown;
}

let root: string;
let counter = 0;

async function writeSuite(bugs: Record<string, BugFiles>, suiteJson: unknown = { name: 't', description: 'd' }): Promise<string> {
  const dir = path.join(root, `suite-${counter++}`);
  await mkdir(path.join(dir, 'bugs'), { recursive: true });
  if (suiteJson !== undefined) await writeFile(path.join(dir, 'suite.json'), typeof suiteJson === 'string' ? suiteJson : JSON.stringify(suiteJson));
  for (const [name, files] of Object.entries(bugs)) {
    await mkdir(path.join(dir, 'bugs', name));
    for (const [file, content] of Object.entries(files)) {
      if (content === undefined) continue;
      await writeFile(path.join(dir, 'bugs', name, file), typeof content === 'string' ? content : JSON.stringify(content));
    }
  }
  return dir;
}

function goodBug(id: string): BugFiles {
  return {
    'bug.json': { id, entry: 'f', description: `bug ${id}`, bug_type: 'operator misuse', source: 'buggy.js' },
    'buggy.js': 'const f = (a, b) => a - b;\n',
    'fixed.js': 'const f = (a, b) => a + b;\n',
    'cases.json': [
      { args: [1, 2], expect: 3, kind: 'failure' },
      { args: [{ n: 1 }], expect: null, kind: 'recorded', argsAfter: [{ n: 2 }] },
      { args: [0], throws: false },
      { script: 'console.assert(f(2, 2) === 4)' },
    ],
    'hidden.json': [{ args: [5, 5], expect: 10 }],
  };
}

async function expectFormatError(dir: string, file: string, field: string | RegExp): Promise<SuiteFormatError> {
  const err = await loadSuite(dir).then(
    () => assert.fail('loadSuite should have thrown'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof SuiteFormatError, `expected SuiteFormatError, got ${String(err)}`);
  assert.equal(err.code, 'SUTURE_SUITE_FORMAT');
  assert.ok(err.file.endsWith(file), `file ${err.file} should end with ${file}`);
  if (typeof field === 'string') assert.equal(err.field, field);
  else assert.match(err.field, field);
  assert.ok(err.message.includes(path.basename(file)), 'the message names the file');
  return err;
}

describe('loadSuite', () => {
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'suite-loader-'));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('maps every case form to core Cases and sorts bugs in natural id order', async () => {
    const dir = await writeSuite(
      { 'X-10': goodBug('X/10'), 'X-2': goodBug('X/2'), 'X-1': { ...goodBug('X/1'), 'hidden.json': undefined, 'fixed.js': undefined } },
      { name: 'good', description: 'a good suite', license: 'MIT' },
    );
    const suite = await loadSuite(dir);
    assert.equal(suite.name, 'good');
    assert.equal(suite.license, 'MIT');
    assert.deepEqual(suite.bugs.map((b) => b.id), ['X/1', 'X/2', 'X/10']);

    const bug = suite.bugs[1]!;
    assert.equal(bug.entry, 'f');
    assert.equal(bug.bugType, 'operator misuse');
    assert.deepEqual(bug.block, { source: 'const f = (a, b) => a - b;\n', entry: 'f', description: 'bug X/2' });
    assert.deepEqual(bug.cases, [
      { id: 'visible-0', kind: 'failure', check: 'value', args: [1, 2], expect: 3 },
      { id: 'visible-1', kind: 'recorded', check: 'value', args: [{ n: 1 }], expect: null, argsAfter: [{ n: 2 }] },
      { id: 'visible-2', kind: 'test', check: 'no-throw', args: [0] },
      { id: 'visible-3', kind: 'test', check: 'script', script: 'console.assert(f(2, 2) === 4)' },
    ]);
    assert.deepEqual(bug.hidden, [{ id: 'hidden-0', kind: 'test', check: 'value', args: [5, 5], expect: 10 }]);
    assert.equal(bug.fixedPath, path.join(dir, 'bugs', 'X-2', 'fixed.js'));

    assert.deepEqual(suite.bugs[0]!.hidden, []);
    assert.equal(suite.bugs[0]!.fixedPath, undefined);
  });

  it('loads only the bugs asked for, by id or directory name, and rejects unknown names', async () => {
    const dir = await writeSuite({ 'X-1': goodBug('X/1'), 'X-2': goodBug('X/2'), 'X-3': goodBug('X/3') });
    const suite = await loadSuite(dir, { only: ['X/3', 'X-1'] });
    assert.deepEqual(suite.bugs.map((b) => b.id), ['X/1', 'X/3']);
    await assert.rejects(loadSuite(dir, { only: ['X/9'] }), SuiteFormatError);
  });

  it('names bug.json and the missing field', async () => {
    const bug = goodBug('X/1');
    const { entry: _entry, ...withoutEntry } = bug['bug.json'] as Record<string, unknown>;
    const dir = await writeSuite({ 'X-1': { ...bug, 'bug.json': withoutEntry } });
    await expectFormatError(dir, 'X-1/bug.json', 'entry');
  });

  it('names the file with bad JSON', async () => {
    const dir = await writeSuite({ 'X-1': { ...goodBug('X/1'), 'cases.json': '[{"args": [1], "expect": 2},' } });
    const err = await expectFormatError(dir, 'X-1/cases.json', '');
    assert.match(err.message, /invalid JSON/);
  });

  it('names the bad field of a case by index', async () => {
    const dir = await writeSuite({ 'X-1': { ...goodBug('X/1'), 'hidden.json': [{ args: [1], expect: 1 }, { args: [1] }] } });
    await expectFormatError(dir, 'X-1/hidden.json', '[1].expect');
  });

  it('rejects a case kind it does not know and an unknown key', async () => {
    const badKind = await writeSuite({ 'X-1': { ...goodBug('X/1'), 'cases.json': [{ args: [], expect: 1, kind: 'flaky' }] } });
    await expectFormatError(badKind, 'X-1/cases.json', '[0].kind');
    const unknownKey = await writeSuite({ 'X-1': { ...goodBug('X/1'), 'cases.json': [{ args: [], expect: 1, expected: 2 }] } });
    await expectFormatError(unknownKey, 'X-1/cases.json', '[0].expected');
  });

  it('rejects mixed forms, argsAfter without expect, and throws: true', async () => {
    const mixed = await writeSuite({ 'X-1': { ...goodBug('X/1'), 'cases.json': [{ script: 'f()', args: [] }] } });
    await expectFormatError(mixed, 'X-1/cases.json', '[0].args');
    const after = await writeSuite({ 'X-1': { ...goodBug('X/1'), 'cases.json': [{ args: [1], throws: false, argsAfter: [1] }] } });
    await expectFormatError(after, 'X-1/cases.json', '[0].argsAfter');
    const throwsTrue = await writeSuite({ 'X-1': { ...goodBug('X/1'), 'cases.json': [{ args: [1], throws: true }] } });
    await expectFormatError(throwsTrue, 'X-1/cases.json', '[0].throws');
  });

  it('names a missing source file, a missing cases.json and a bad suite.json', async () => {
    const noSource = await writeSuite({ 'X-1': { ...goodBug('X/1'), 'buggy.js': undefined } });
    await expectFormatError(noSource, 'X-1/buggy.js', '');
    const noCases = await writeSuite({ 'X-1': { ...goodBug('X/1'), 'cases.json': undefined } });
    await expectFormatError(noCases, 'X-1/cases.json', '');
    const badSuite = await writeSuite({ 'X-1': goodBug('X/1') }, { description: 'no name' });
    await expectFormatError(badSuite, 'suite.json', 'name');
  });

  it('rejects duplicate bug ids', async () => {
    const dir = await writeSuite({ 'a': goodBug('X/1'), 'b': goodBug('X/1') });
    await expectFormatError(dir, 'bug.json', 'id');
  });
});
