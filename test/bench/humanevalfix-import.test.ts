import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importHumanEvalFix } from '../../suite/import/humanevalfix.ts';
import { loadSuite } from '../../suite/suite-loader.ts';
import { vmScriptRunner } from './vm-script-runner.ts';

function record(taskId: string, entry: string, declaration: string, buggy: string, fixed: string, test: string) {
  return {
    task_id: taskId,
    prompt: `/* ${entry} prompt */\n${declaration}`,
    declaration,
    buggy_solution: buggy,
    canonical_solution: fixed,
    test,
    example_test: '',
    bug_type: 'operator misuse',
    failure_symptoms: 'incorrect output',
    entry_point: entry,
    signature: declaration.trim(),
    docstring: `Docs of ${entry}.`,
    instruction: '',
  };
}

const asserts = (name: string, lines: string[]) => `const ${name} = () => {\n${lines.map((l) => `  ${l}\n`).join('')}}\n\n${name}()\n`;

const addAsserts = [
  'console.assert(add(0, 0) === 0)', // passes on buggy
  'console.assert(add(5, 0) === 5)', // passes
  'console.assert(\n    add(7, 0) === 7\n  )', // passes, spans lines
  'console.assert(add(1, 2) === 3)', // first failure: odd index, so visible
  'console.assert(add(2, 2) === 4)', // fails, even: visible
  'console.assert(add(3, 3) === 6)', // fails, odd: hidden
];
const loopTest = 'const testDouble = () => {\n  for (let i = 0; i < 3; i++) {\n    console.assert(double(i) === i * 2)\n  }\n}\n\ntestDouble()\n';
const localTest = 'const testSq = () => {\n  const n = 3\n  console.assert(sq(n) === 9)\n  console.assert(sq(2) === 4)\n}\ntestSq()\n';
const negAsserts = ['console.assert(neg(1) === -1)', 'console.assert(neg(200) === -200)', 'console.assert(neg(2) === -2)', 'console.assert(neg(3) === -3)'];
const idAsserts = ['console.assert(ident(1) === 1)', 'console.assert(ident(2) === 2)', 'console.assert(ident(3) === 3)'];

const records = [
  record('Toy/10', 'add', '\nconst add = (x, y) => {\n', '  return x - y\n}\n', '  return x + y\n}\n', asserts('testAdd', addAsserts)),
  record('Toy/2', 'double', '\nconst double = (x) => {\n', '  return x + 2\n}\n', '  return x * 2\n}\n', loopTest),
  record('Toy/3', 'sq', '\nconst sq = (x) => {\n', '  return x + x\n}\n', '  return x * x\n}\n', localTest),
  // An infinite loop on the buggy code counts as a failure (timeout).
  record('Toy/4', 'neg', '\nconst neg = (x) => {\n', '  while (x > 100) {}\n  return -x\n}\n', '  return -x\n}\n', asserts('testNeg', negAsserts)),
  // No assert fails on the buggy code; entry_point is misspelt in case as in JavaScript/114.
  record('Toy/5', 'Ident', '\nconst ident = (x) => {\n', '  return x\n}\n', '  return x\n}\n', asserts('testIdent', idAsserts)),
];

let root: string;
let jsonl: string;

describe('importHumanEvalFix', () => {
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'hef-import-'));
    jsonl = path.join(root, 'toy.jsonl');
    await writeFile(jsonl, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    await writeFile(path.join(root, 'LICENSE'), 'MIT License (toy)\n');
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes the suite layout and splits asserts by the fixed rule', async () => {
    const out = path.join(root, 'out');
    const progress: string[] = [];
    const result = await importHumanEvalFix(jsonl, out, {
      runner: vmScriptRunner(200),
      onProgress: (done, total, id) => progress.push(`${done}/${total} ${id}`),
    });

    assert.equal(result.bugs, 5);
    // add: A0 A2 A3 A4 visible, A1 A5 hidden; double: 1; sq: 1; neg: A0 A1 A2 visible, A3 hidden; ident: A0 A2, A1 hidden
    assert.equal(result.visible, 4 + 1 + 1 + 3 + 2);
    assert.equal(result.hidden, 2 + 0 + 0 + 1 + 1);
    assert.equal(progress.length, 5);
    assert.ok(progress.includes('5/5 Toy/10') || progress.at(-1)!.startsWith('5/5'));
    assert.ok(result.warnings.some((w) => w.startsWith('Toy/5') && /no assert fails/.test(w)), result.warnings.join('\n'));
    assert.ok(result.warnings.some((w) => w.startsWith('Toy/5') && /"ident"/.test(w)), 'the misspelt entry is resolved with a warning');
    assert.equal(result.warnings.filter((w) => /reference fix fails/.test(w)).length, 0);

    const addDir = path.join(out, 'bugs', 'Toy-10');
    const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8'));
    assert.deepEqual(await readJson(path.join(addDir, 'bug.json')), {
      id: 'Toy/10',
      entry: 'add',
      description: 'Docs of add.',
      source: 'buggy.js',
      bug_type: 'operator misuse',
    });
    assert.equal(await readFile(path.join(addDir, 'buggy.js'), 'utf8'), '\nconst add = (x, y) => {\n  return x - y\n}\n');
    assert.equal(await readFile(path.join(addDir, 'fixed.js'), 'utf8'), '\nconst add = (x, y) => {\n  return x + y\n}\n');
    assert.deepEqual(await readJson(path.join(addDir, 'cases.json')), [0, 2, 3, 4].map((i) => ({ script: addAsserts[i] })));
    assert.deepEqual(await readJson(path.join(addDir, 'hidden.json')), [1, 5].map((i) => ({ script: addAsserts[i] })));

    const doubleCases = await readJson(path.join(out, 'bugs', 'Toy-2', 'cases.json'));
    assert.equal(doubleCases.length, 1);
    assert.equal(doubleCases[0].script, loopTest.replace('\n\ntestDouble()', '\ntestDouble()'));
    assert.deepEqual(await readdir(path.join(out, 'bugs', 'Toy-2')), ['bug.json', 'buggy.js', 'cases.json', 'fixed.js']);

    const sqCases = await readJson(path.join(out, 'bugs', 'Toy-3', 'cases.json'));
    assert.equal(sqCases.length, 1);
    assert.match(sqCases[0].script, /const n = 3[\s\S]*testSq\(\)\n$/);

    assert.deepEqual(await readJson(path.join(out, 'bugs', 'Toy-4', 'cases.json')), [0, 1, 2].map((i) => ({ script: negAsserts[i] })));
    assert.deepEqual(await readJson(path.join(out, 'bugs', 'Toy-5', 'hidden.json')), [{ script: idAsserts[1] }]);
    assert.equal((await readJson(path.join(out, 'bugs', 'Toy-5', 'bug.json'))).entry, 'ident');

    assert.equal(await readFile(path.join(out, 'LICENSE'), 'utf8'), 'MIT License (toy)\n');
    const suite = await loadSuite(out);
    assert.equal(suite.name, 'out');
    assert.equal(suite.license, 'MIT');
    assert.deepEqual(suite.bugs.map((b) => b.id), ['Toy/2', 'Toy/3', 'Toy/4', 'Toy/5', 'Toy/10']);
    const add = suite.bugs.at(-1)!;
    assert.deepEqual(add.cases.map((c) => [c.id, c.kind, c.check]), [0, 1, 2, 3].map((i) => [`visible-${i}`, 'test', 'script']));
    assert.equal(add.hidden[1]!.script, addAsserts[5]);
  });

  it('re-importing replaces bug dirs that are no longer in the source', async () => {
    const out = path.join(root, 'again');
    await importHumanEvalFix(jsonl, out, { runner: vmScriptRunner(200), checkFixed: false });
    const one = path.join(root, 'one.jsonl');
    await writeFile(one, JSON.stringify(records[0]) + '\n');
    const result = await importHumanEvalFix(one, out, { runner: vmScriptRunner(200), checkFixed: false });
    assert.equal(result.bugs, 1);
    assert.deepEqual(await readdir(path.join(out, 'bugs')), ['Toy-10']);
  });

  it('warns when the reference fix fails a case', async () => {
    const broken = path.join(root, 'broken.jsonl');
    await writeFile(broken, JSON.stringify({ ...records[0], canonical_solution: '  return 0\n}\n' }) + '\n');
    const result = await importHumanEvalFix(broken, path.join(root, 'broken'), { runner: vmScriptRunner(200) });
    assert.ok(result.warnings.some((w) => /Toy\/10: the reference fix fails 5 of 6 cases/.test(w)), result.warnings.join('\n'));
  });
});
