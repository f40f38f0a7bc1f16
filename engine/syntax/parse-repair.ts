import { tokenizer } from 'acorn';
import { BlockParseError, parseSource, type BlockForm } from './block-parser.ts';

/**
 * Token-level repair of a block that does not parse: a stray token deleted, a missing operator, operand,
 * bracket or comma inserted, one punctuator replaced by another (`x > y` where an arrow `x => y` was meant),
 * up to three such edits, until the block parses in its form. Blocks break this way when they are typed by
 * hand in a hurry: `'page ' + n ' of ' + total` (a `+` missing), `f(a b)` (a comma), `if (x > 0 {` (a `)`).
 *
 * Search: from the parser's error position, each edit at the tokens around it that moves the error later (or
 * removes it) is kept; the most promising few go on to the next round. Repairs come back fewest edits first;
 * among repairs of equal length, insertions (of an opening bracket: after deletions) before deletions before
 * replacements.
 */

export interface ParseRepair {
  source: string;
  /** Each edit in words, in the order made. */
  steps: string[];
}

export interface ParseRepairOptions {
  /** Most edits in one repair. @defaultValue 3 */
  maxEdits?: number;
  /** Most repairs returned. @defaultValue 8 */
  maxRepairs?: number;
  /** Partial repairs carried from one round to the next. @defaultValue 12 */
  beam?: number;
}

/** What a missing token most often is, in order. */
const INSERTIONS = ['+', ',', ')', '(', ';', ']', '}', '.', '&&', '||', '=>', '=', ':', '?', '{', '['];
/** Punctuators a wrong one is replaced with. */
const REPLACEMENTS = ['=>', '+', ',', ')', '(', ';', '.', '===', '=', ':', '&&', '||'];
const NEAR_BEFORE = 2;
const NEAR_AFTER = 1;
const KIND_ORDER: Record<Step['kind'], number> = { insert: 0, delete: 1, replace: 2 };

interface Step {
  kind: 'insert' | 'replace' | 'delete';
  start: number;
  end: number;
  text: string;
}

interface Token {
  start: number;
  end: number;
  text: string;
  punctuator: boolean;
}

/** The error offset of `source`, or undefined when it parses. */
function errorAt(source: string, form: BlockForm): number | undefined {
  try {
    parseSource(source, form);
    return undefined;
  } catch (error) {
    if (error instanceof BlockParseError) return Math.max(0, Math.min(error.offset ?? source.length, source.length));
    throw error;
  }
}

/** Tokens of `source` up to where acorn's tokenizer gives up. */
function tokensOf(source: string): Token[] {
  const tokens: Token[] = [];
  try {
    for (const token of tokenizer(source, { ecmaVersion: 'latest', allowHashBang: true })) {
      const label = token.type.label;
      tokens.push({ start: token.start, end: token.end, text: source.slice(token.start, token.end), punctuator: !/^(name|num|string|regexp|template|`|privateId)$/.test(label) && !token.type.keyword });
    }
  } catch {
    // An unterminated string or the like: the tokens before it still locate the error.
  }
  return tokens;
}

function apply(source: string, step: Step): string {
  const before = source.slice(0, step.start);
  const after = source.slice(step.end);
  if (step.kind !== 'insert') return before + step.text + after;
  // Operators get a space on each side that has none; words are kept apart (`a in b`, not `ainb`).
  const spaced = /^[,;)\].]$/.test(step.text) ? false : !/^[([{]$/.test(step.text);
  const pad = (a: string, b: string) => ((/[\w$]$/.test(a) && /^[\w$]/.test(b)) || (spaced && /\S$/.test(a) && /^\S/.test(b)) ? ' ' : '');
  return before + pad(before, step.text) + step.text + pad(step.text, after) + after;
}

function describe(source: string, step: Step): string {
  const line = source.slice(0, step.start).split('\n').length;
  const column = step.start - source.lastIndexOf('\n', step.start - 1);
  const at = `${line}:${column}`;
  if (step.kind === 'insert') return `insert \`${step.text}\` at ${at}`;
  if (step.kind === 'delete') return `delete \`${source.slice(step.start, step.end)}\` at ${at}`;
  return `replace \`${source.slice(step.start, step.end)}\` with \`${step.text}\` at ${at}`;
}

/** Single edits around the error at `offset`. */
function stepsAround(source: string, offset: number): Step[] {
  const tokens = tokensOf(source);
  let k = tokens.findIndex((t) => t.start >= offset);
  if (k < 0) k = tokens.length;
  const steps: Step[] = [];
  for (let i = Math.max(0, k - NEAR_BEFORE); i <= Math.min(tokens.length, k + NEAR_AFTER); i++) {
    // Insert before token i (or at the end of the source); closing punctuation right after the token before it.
    const at = i < tokens.length ? tokens[i].start : source.length;
    const closing = i > 0 ? tokens[i - 1].end : at;
    for (const text of INSERTIONS) {
      const where = /^[,;)\]}]$/.test(text) ? closing : at;
      steps.push({ kind: 'insert', start: where, end: where, text });
    }
    const token = tokens[i];
    if (!token) continue;
    if (token.punctuator) for (const text of REPLACEMENTS) if (text !== token.text) steps.push({ kind: 'replace', start: token.start, end: token.end, text });
    steps.push({ kind: 'delete', start: token.start, end: token.end, text: '' });
  }
  return steps;
}

/**
 * Ways to make `source` parse in `form` with at most `maxEdits` token edits, fewest first. Empty when the source
 * parses already or no repair is found.
 */
export function repairParse(source: string, form: BlockForm, options: ParseRepairOptions = {}): ParseRepair[] {
  const maxEdits = options.maxEdits ?? 3;
  const maxRepairs = options.maxRepairs ?? 8;
  const beam = options.beam ?? 12;
  const start = errorAt(source, form);
  if (start === undefined) return [];
  const repairs: ParseRepair[] = [];
  const seen = new Set<string>([source]);
  let frontier: Array<{ source: string; steps: string[]; error: number }> = [{ source, steps: [], error: start }];
  for (let round = 0; round < maxEdits && frontier.length > 0 && repairs.length < maxRepairs; round++) {
    const next: Array<{ source: string; steps: string[]; error: number; order: number; progress: number }> = [];
    const found: Array<{ repair: ParseRepair; order: number }> = [];
    for (const partial of frontier) {
      for (const step of stepsAround(partial.source, partial.error)) {
        const edited = apply(partial.source, step);
        if (seen.has(edited)) continue;
        seen.add(edited);
        const error = errorAt(edited, form);
        const steps = [...partial.steps, describe(partial.source, step)];
        // An opening bracket inserted is rarer than a stray token: after deletions.
        const order = KIND_ORDER[step.kind] + (step.kind === 'insert' && /^[([{]$/.test(step.text) ? 1.5 : 0);
        if (error === undefined) found.push({ repair: { source: edited, steps }, order });
        // Progress: the parser now gets further than before this edit, counted in the unedited text.
        else if (error - (edited.length - partial.source.length) > partial.error) next.push({ source: edited, steps, error, order, progress: error - (edited.length - source.length) });
      }
    }
    found.sort((a, b) => a.order - b.order);
    for (const { repair } of found) if (repairs.length < maxRepairs) repairs.push(repair);
    next.sort((a, b) => b.progress - a.progress || a.order - b.order);
    frontier = next.slice(0, beam);
  }
  return repairs;
}
