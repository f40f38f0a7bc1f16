import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LlmAnswerError } from '../../engine/generators/llm/llm-errors.ts';
import { checkSourceForm } from '../../engine/generators/llm/source-form.ts';

const code = (fn: () => void) => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    assert.ok(error instanceof LlmAnswerError);
    return error.code;
  }
};

test('with entry: the script must declare the entry function at top level', () => {
  assert.equal(code(() => checkSourceForm('function f(a) { return a }', 'f')), 'ok');
  assert.equal(code(() => checkSourceForm('const f = (a) => a;', 'f')), 'ok');
  assert.equal(code(() => checkSourceForm('let g = 1, f = async function () {};', 'f')), 'ok');
  assert.equal(code(() => checkSourceForm('const helper = (x) => x * 2;\nfunction f(a) { return helper(a) }', 'f')), 'ok');
  assert.equal(code(() => checkSourceForm('function g(a) { return a }', 'f')), 'SUTURE_LLM_FORM');
  assert.equal(code(() => checkSourceForm('function outer() { function f() {} }', 'f')), 'SUTURE_LLM_FORM');
  assert.equal(code(() => checkSourceForm('let f;', 'f')), 'SUTURE_LLM_FORM');
  assert.equal(code(() => checkSourceForm('function f(a { return a }', 'f')), 'SUTURE_LLM_PARSE');
  assert.equal(code(() => checkSourceForm('import x from "fs"; function f() {}', 'f')), 'SUTURE_LLM_PARSE');
});

test('without entry: exactly one function expression', () => {
  assert.equal(code(() => checkSourceForm('(a, b) => a + b', undefined)), 'ok');
  assert.equal(code(() => checkSourceForm('async (x) => { await x }', undefined)), 'ok');
  assert.equal(code(() => checkSourceForm('function (x) { return x } // trailing comment', undefined)), 'ok');
  assert.equal(code(() => checkSourceForm('function named(x) { return x }', undefined)), 'ok');
  assert.equal(code(() => checkSourceForm('42', undefined)), 'SUTURE_LLM_FORM');
  assert.equal(code(() => checkSourceForm('class A {}', undefined)), 'SUTURE_LLM_FORM');
  assert.equal(code(() => checkSourceForm('(a) => a, (b) => b', undefined)), 'SUTURE_LLM_FORM');
  // an attempt to close the wrapping parenthesis and smuggle a statement beside the expression
  assert.equal(code(() => checkSourceForm('(a) => a); evil(); ((b) => b', undefined)), 'SUTURE_LLM_FORM');
  assert.equal(code(() => checkSourceForm('(a) => {', undefined)), 'SUTURE_LLM_PARSE');
});

test('checking parses only: hostile code that parses is accepted and not run', () => {
  const hostile = "const f = () => { this.constructor.constructor('return process')().exit(1) }; globalThis.__ranFormCheck = 1;";
  assert.equal(code(() => checkSourceForm(hostile, 'f')), 'ok');
  assert.equal((globalThis as Record<string, unknown>).__ranFormCheck, undefined);
});
