import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BlockParseError, earlyErrorsOf, parseBlock, parsesAs } from '../../engine/syntax/block-parser.ts';
import { instrumentForCoverage } from '../../engine/localisation/coverage-instrumenter.ts';

const REDECLARING = `function area(a, b) {
  let m = a * 2;
  let m = m * b;
  return m;
}`;

test('a block that only redeclares a binding still parses, with the early error recorded at the duplicate', () => {
  const parsed = parseBlock({ source: REDECLARING, entry: 'area' });
  assert.equal(parsed.earlyErrors.length, 1);
  assert.match(parsed.earlyErrors[0].message, /already been declared/);
  assert.equal(parsed.earlyErrors[0].offset, REDECLARING.indexOf('m = m * b'));
  assert.equal(parsed.root.type, 'Program');
});

test('expression blocks report early-error offsets in the block source', () => {
  const source = `(x) => { const y = 1; let y = x; return y; }`;
  const parsed = parseBlock({ source });
  assert.equal(parsed.earlyErrors[0].offset, source.indexOf('y = x'));
  assert.deepEqual(earlyErrorsOf(source, 'expression')?.map((e) => e.offset), [source.indexOf('y = x')]);
});

test('real syntax errors still throw, and the candidate check stays strict about early errors', () => {
  assert.throws(() => parseBlock({ source: 'function f( { return 1 }', entry: 'f' }), BlockParseError);
  assert.equal(parsesAs(REDECLARING, 'entry'), false);
  assert.equal(parsesAs(REDECLARING.replace('let m = m', 'm = m'), 'entry'), true);
  assert.equal(earlyErrorsOf('function f( {', 'entry'), undefined);
  assert.deepEqual(earlyErrorsOf(REDECLARING.replace('let m = m', 'm = m'), 'entry'), []);
});

test('the instrumenter accepts a redeclaring block', () => {
  const instrumented = instrumentForCoverage({ source: REDECLARING, entry: 'area' });
  assert.ok(instrumented.probes.length >= 3);
});
