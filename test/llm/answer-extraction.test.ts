import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractAnswer, MAX_EXPLANATION_CHARS, MAX_SOURCE_BYTES } from '../../engine/generators/llm/answer-extraction.ts';
import { LlmAnswerError } from '../../engine/generators/llm/llm-errors.ts';

const payload = { source: 'function f() { return 1 }', explanation: 'returns one' };

test('plain JSON, fenced JSON and JSON inside prose are all accepted', () => {
  assert.deepEqual(extractAnswer(JSON.stringify(payload)), payload);
  assert.deepEqual(extractAnswer('```json\n' + JSON.stringify(payload) + '\n```'), payload);
  assert.deepEqual(extractAnswer('Sure! ' + JSON.stringify(payload, null, 2) + ' Let me know.'), payload);
  assert.deepEqual(extractAnswer('```js\nnot it\n```\n```json\n' + JSON.stringify(payload) + '\n```'), payload);
});

test('reasoning text and stray braces before the answer do not hide it', () => {
  const thought = '<think>maybe {x} or return { a: 1 }?</think>\n';
  assert.deepEqual(extractAnswer(thought + JSON.stringify(payload)), payload);
  assert.deepEqual(extractAnswer('Use `if (x) { y }` and then: ' + JSON.stringify(payload) + ' {done}'), payload);
  assert.deepEqual(extractAnswer('{"note": "see below"}\n' + JSON.stringify(payload)), payload);
});

test('a code fence inside the source string is stripped; the explanation is one bounded line', () => {
  const out = extractAnswer(JSON.stringify({ source: '```javascript\nfunction f() {}\n```', explanation: `a\n\nb ${'y'.repeat(1000)}` }));
  assert.equal(out.source, 'function f() {}');
  assert.ok(out.explanation.startsWith('a b y'));
  assert.equal(out.explanation.length, MAX_EXPLANATION_CHARS);
  assert.equal(extractAnswer(JSON.stringify({ source: 'x' })).explanation, '');
});

test('no JSON, wrong shape, empty or oversized answers are refused with a code', () => {
  const refused = (content: string | null) => {
    try {
      extractAnswer(content);
      return 'accepted';
    } catch (error) {
      assert.ok(error instanceof LlmAnswerError);
      return error.code;
    }
  };
  assert.equal(refused(null), 'SUTURE_LLM_EMPTY');
  assert.equal(refused('   '), 'SUTURE_LLM_EMPTY');
  assert.equal(refused('just add a null check'), 'SUTURE_LLM_NO_JSON');
  assert.equal(refused('[1, 2]'), 'SUTURE_LLM_NO_JSON');
  assert.equal(refused('{"fix": "x"}'), 'SUTURE_LLM_SHAPE');
  assert.equal(refused('{"source": ["x"]}'), 'SUTURE_LLM_SHAPE');
  assert.equal(refused('{"source": "  "}'), 'SUTURE_LLM_SHAPE');
  assert.equal(refused(JSON.stringify({ source: 'x'.repeat(MAX_SOURCE_BYTES + 1) })), 'SUTURE_LLM_TOO_LARGE');
});
