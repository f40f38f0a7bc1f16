import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateTemplateCandidates } from '../../engine/generators/template/template-generator.ts';

function sources(source: string, entry: string): string[] {
  return [...generateTemplateCandidates({ source, entry }, [], { pairs: false })].map((c) => c.source);
}

test('a boolean sort comparator becomes a subtracting one, in both directions', () => {
  const out = sources('function top(xs) {\n  return xs.sort((a, b) => b.score > a.score);\n}', 'top');
  assert.ok(out.some((s) => s.includes('(a, b) => b.score - a.score')));
  assert.ok(out.some((s) => s.includes('(a, b) => a.score - b.score')));
});

test('.map(parseInt) gets a function that ignores the index', () => {
  const out = sources("function parse(s) {\n  return s.split(',').map(parseInt);\n}", 'parse');
  assert.ok(out.some((s) => s.includes('.map(Number)')));
  assert.ok(out.some((s) => s.includes('.map((value) => parseInt(value, 10))')));
});

test('seconds passed to new Date are scaled to milliseconds, and + operands can be made numeric', () => {
  const out = sources('function expiry(token, extra) {\n  return new Date(token.exp).getTime() + extra;\n}', 'expiry');
  assert.ok(out.some((s) => s.includes('new Date(token.exp * 1000)')));
  assert.ok(out.some((s) => s.includes('+ Number(extra)')));
});
