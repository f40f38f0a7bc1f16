/**
 * Examples the caller already wrote in a block's description, as cases (kind 'description'). A description
 * often shows calls and their answers; the unambiguous ones say what a patch must return as plainly as a
 * recorded call. Recognised, one example per line (leading `>>>`, `*`, `-` or `•` and spaces are ignored):
 *
 *     f(args) === value     f(args) == value     f(args) = value
 *     f(args) => value      f(args) ==> value    f(args) -> value     f(args) ➞ value    f(args) → value
 *     f(args) // => value   f(args) returns value    f(args) should return value
 *     >>> f(args)           (the value alone on the next non-empty line, which does not start with `>>>`)
 *
 * and inside prose, "for example, f(args) returns value" (any of the separators, the value running to the
 * end of the line or of the sentence). `f` must be the block's entry or the function's own name; the
 * arguments and the value must be literal expressions (literal-values.ts: read with acorn, never
 * evaluated). Everything else is left alone: Python's `True`/`None`/tuples, values that run on with more
 * text, calls with expressions as arguments, a missing value. The same call shown with two different
 * answers is contradictory and gives no case; a call the job's own cases already answer differently is
 * left to the job's case.
 */
import { parse } from 'acorn';
import type { Block, Case, Encoded } from '../../core/types.ts';
import { encodedKind, parseLiteral, scriptExpectations } from './literal-values.ts';

export interface DescriptionExample {
  args: Encoded[];
  expect: Encoded;
  /** The line it was read from, trimmed. */
  text: string;
}

export interface DescriptionExamples {
  examples: DescriptionExample[];
  /** Lines that call the function but were not read as examples, with why (for the report). */
  skipped: { text: string; reason: string }[];
}

const SEPARATORS = ['===', '==>', '==', '//\\s*=>', '//\\s*->', '=>', '->', '➞', '→', '=', 'should\\s+return', 'returns'];
const SEPARATOR = new RegExp(`^(?:${SEPARATORS.join('|')})(?=\\s|$|[\\[{'"\`\\d-])\\s*`, 'u');
const PREFIX = /^\s*(?:>>>|\*|-|•)?\s*/u;
const MAX_LINE = 2000;
const MAX_EXAMPLES = 50;

/** The name examples must call: the block's entry, else the function expression's own name. */
export function exampleName(block: Block): string | undefined {
  if (block.entry) return block.entry;
  try {
    const program = parse(`(${block.source}\n)`, { ecmaVersion: 'latest', sourceType: 'script' }) as unknown as { body: { expression?: { type: string; id?: { name: string } | null } }[] };
    const fn = program.body[0]?.expression;
    return fn?.type === 'FunctionExpression' && fn.id ? fn.id.name : undefined;
  } catch {
    return undefined;
  }
}

/** The examples of a description for calls of `name` (see the module comment). */
export function parseDescriptionExamples(description: string, name: string): DescriptionExamples {
  const examples: DescriptionExample[] = [];
  const skipped: DescriptionExamples['skipped'] = [];
  if (!/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(name)) return { examples, skipped };
  const lines = description.split(/\r?\n/);
  const skip = (text: string, reason: string) => {
    if (skipped.at(-1)?.text !== text) skipped.push({ text, reason });
  };
  for (let i = 0; i < lines.length && examples.length < MAX_EXAMPLES; i++) {
    const line = lines[i];
    if (line.length > MAX_LINE || !line.includes(`${name}(`)) continue;
    const text = line.trim();
    const doctest = /^\s*>>>/.test(line);
    for (const start of callStarts(line, name, doctest)) {
      const call = readCall(line, start + name.length);
      if (!call) continue;
      const args = parseLiteral(`[${call.inner}]`);
      if (!args) {
        skip(text, 'an argument is not a literal');
        continue;
      }
      const rest = line.slice(call.end).trim();
      let valueText: string | undefined;
      if (rest === '' && doctest) {
        const next = lines.slice(i + 1).find((l) => l.trim() !== '');
        if (next === undefined || /^\s*>>>/.test(next)) {
          skip(text, 'no value follows');
          continue;
        }
        valueText = next;
      } else {
        const separator = SEPARATOR.exec(rest);
        if (!separator) {
          if (start === firstCallColumn(line)) skip(text, 'no separator between the call and a value');
          continue;
        }
        valueText = rest.slice(separator[0].length);
      }
      const value = readValue(valueText);
      if (!value) {
        skip(text, 'the value is not a literal');
        continue;
      }
      examples.push({ args: args.value as Encoded[], expect: value.value, text });
    }
  }
  return { examples: withoutContradictions(examples, skipped), skipped };
}

/** Where calls of `name` start in a line: at its start (after a prefix), or after a word boundary in prose. */
function callStarts(line: string, name: string, doctest: boolean): number[] {
  const starts: number[] = [];
  const escaped = name.replace(/[$]/g, '\\$');
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_$.])${escaped}\\(`, 'gu');
  for (const match of line.matchAll(pattern)) starts.push(match.index!);
  // A doctest line is one call: the first.
  return doctest ? starts.slice(0, 1) : starts;
}

function firstCallColumn(line: string): number {
  return line.length - line.replace(PREFIX, '').length;
}

/** The argument text of a call whose `(` is at `open`, up to its matching `)`, skipping strings. */
function readCall(line: string, open: number): { inner: string; end: number } | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) return ch === ')' ? { inner: line.slice(open + 1, i), end: i + 1 } : undefined;
    }
  }
  return undefined;
}

/** A value running to the end of the line, where a final `.`, `,` or `;` may close the sentence. */
function readValue(text: string): { value: Encoded } | undefined {
  const trimmed = text.trim();
  const whole = parseLiteral(trimmed);
  if (whole) return whole;
  const end = /[.,;]$/.exec(trimmed);
  return end ? parseLiteral(trimmed.slice(0, -1)) : undefined;
}

function withoutContradictions(examples: DescriptionExample[], skipped: DescriptionExamples['skipped']): DescriptionExample[] {
  const byArgs = new Map<string, DescriptionExample[]>();
  for (const e of examples) {
    const key = JSON.stringify(e.args);
    byArgs.set(key, [...(byArgs.get(key) ?? []), e]);
  }
  const out: DescriptionExample[] = [];
  for (const group of byArgs.values()) {
    if (new Set(group.map((e) => JSON.stringify(e.expect))).size > 1) {
      for (const e of group) skipped.push({ text: e.text, reason: 'the same call is shown with different values' });
    } else {
      out.push(group[0]);
    }
  }
  return out;
}

/**
 * Cases (kind 'description', check 'value') for a block's description examples, except calls the job's own
 * value cases already cover (the job's case decides there).
 */
export function descriptionCases(block: Block, jobCases: readonly Case[]): { cases: Case[]; found: number; skipped: DescriptionExamples['skipped'] } {
  const name = block.description ? exampleName(block) : undefined;
  if (!block.description || !name) return { cases: [], found: 0, skipped: [] };
  const { examples, skipped } = parseDescriptionExamples(block.description, name);
  // What the block's own cases expect, where they say it plainly: value cases, and test scripts'
  // `console.assert(f(...) === literal)`.
  const stated = new Map<string, string>();
  for (const c of jobCases) {
    if (c.args !== undefined && c.check === 'value') stated.set(JSON.stringify(c.args), JSON.stringify(c.expect));
    else if (c.script) for (const e of scriptExpectations(c.script, name)) stated.set(JSON.stringify(e.args), JSON.stringify(e.expect));
  }
  // A description that contradicts the block's own cases on one input is not trusted on any other:
  // its examples were written for another version of the block, or wrongly.
  const contradicted = examples.find((e) => stated.has(JSON.stringify(e.args)) && stated.get(JSON.stringify(e.args)) !== JSON.stringify(e.expect));
  // Likewise one whose answers are of another kind than every answer the cases expect (a number
  // where they all expect a list): it describes something else (a formula, a helper), not this block.
  const kinds = new Set([...stated.values()].map((json) => encodedKind(JSON.parse(json))));
  const otherKind = kinds.size > 0 ? examples.find((e) => !kinds.has(encodedKind(e.expect))) : undefined;
  const distrust = contradicted ? `the description contradicts the block's own cases (${contradicted.text})`
    : otherKind ? `the description's answers are not of the kind the block's cases expect (${otherKind.text})` : '';
  if (distrust) {
    return { cases: [], found: examples.length, skipped: [...skipped, ...examples.map((e) => ({ text: e.text, reason: distrust }))] };
  }
  const cases: Case[] = [];
  for (const e of examples) {
    if (stated.has(JSON.stringify(e.args))) continue;
    cases.push({ id: `description-${cases.length + 1}`, kind: 'description', check: 'value', args: e.args, expect: e.expect });
  }
  return { cases, found: examples.length, skipped };
}

