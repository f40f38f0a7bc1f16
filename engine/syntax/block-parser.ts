import { Parser, parse, type Options } from 'acorn';
import type { Block } from '../../core/types.ts';
import type { SyntaxNode } from './syntax-tree.ts';

/** How a block's source is shaped: a script declaring `entry`, or one function expression. */
export type BlockForm = 'entry' | 'expression';

export interface ParsedBlock {
  form: BlockForm;
  source: string;
  /** The Program (entry form) or the function expression (expression form); offsets index `source`. */
  root: SyntaxNode;
  /**
   * Early errors acorn found but did not throw for (redeclared bindings and the like; offsets index `source`).
   * The tree is complete, so the block can still be analysed and mutated, but it will not compile as it is.
   */
  earlyErrors: EarlyError[];
}

/** A static-semantics error that leaves the syntax tree intact (acorn's "recoverable" errors). */
export interface EarlyError {
  message: string;
  offset: number;
}

/** The block's source is not JavaScript acorn accepts in the block's form. */
export class BlockParseError extends Error {
  readonly code = 'SUTURE_BLOCK_PARSE';
  constructor(message: string, readonly offset?: number) {
    super(message);
    this.name = 'BlockParseError';
  }
}

const OPTIONS = { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true } as const;

/**
 * Acorn with its recoverable (early) errors collected instead of thrown. Buggy code really does redeclare
 * `let` bindings; a repair engine must be able to read and mutate it, and the candidates that still do not
 * compile are rejected by the strict `parsesAs` check (and by the sandbox) anyway.
 */
class TolerantParser extends Parser {
  collected: EarlyError[] = [];
  constructor(options: Options, input: string) {
    super(options, input);
  }
  raiseRecoverable(pos: number, message: string): void {
    this.collected.push({ message, offset: pos });
  }
}

function parseTolerant(input: string, shift: number): { program: SyntaxNode; earlyErrors: EarlyError[] } {
  const parser = new TolerantParser(OPTIONS, input);
  const program = parser.parse() as unknown as SyntaxNode;
  return { program, earlyErrors: parser.collected.map((e) => ({ message: e.message, offset: e.offset - shift })) };
}

export function blockForm(block: Block): BlockForm {
  return block.entry === undefined ? 'expression' : 'entry';
}

/**
 * Parses a block so that every node offset indexes the block's own source. An expression block is
 * parsed as `(` + source + `)` (a bare `function () {}` is not a valid statement) and shifted back.
 */
export function parseBlock(block: Block): ParsedBlock {
  return parseSource(block.source, blockForm(block));
}

export function parseSource(source: string, form: BlockForm): ParsedBlock {
  if (form === 'entry') {
    try {
      const { program, earlyErrors } = parseTolerant(source, 0);
      return { form, source, root: program, earlyErrors };
    } catch (error) {
      throw toParseError(error, 0);
    }
  }
  let program: SyntaxNode;
  let earlyErrors: EarlyError[];
  try {
    ({ program, earlyErrors } = parseTolerant(`(${source})`, 1));
  } catch (error) {
    throw toParseError(error, 1);
  }
  const body = program.body as SyntaxNode[];
  const statement = body[0];
  if (body.length !== 1 || statement.type !== 'ExpressionStatement') {
    throw new BlockParseError('an expression block must hold exactly one expression');
  }
  const root = statement.expression as SyntaxNode;
  shiftOffsets(root, -1);
  return { form, source, root, earlyErrors };
}

/** True when `source` parses in the given form with no early errors (cheap syntax check for generated candidates). */
export function parsesAs(source: string, form: BlockForm): boolean {
  try {
    if (form === 'entry') parse(source, OPTIONS);
    else {
      const program = parse(`(${source})`, OPTIONS) as unknown as SyntaxNode;
      if (program.body.length !== 1) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * The early errors of `source` in the given form, or undefined when it does not parse at all. Lets a generator
 * working on a block that has early errors keep only the candidates that remove some of them.
 */
export function earlyErrorsOf(source: string, form: BlockForm): EarlyError[] | undefined {
  try {
    if (form === 'entry') return parseTolerant(source, 0).earlyErrors;
    const { program, earlyErrors } = parseTolerant(`(${source})`, 1);
    return program.body.length === 1 ? earlyErrors : undefined;
  } catch {
    return undefined;
  }
}

function shiftOffsets(node: SyntaxNode, delta: number): void {
  const seen = new Set<object>();
  const stack: SyntaxNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (seen.has(current)) continue;
    seen.add(current);
    current.start += delta;
    current.end += delta;
    for (const key of Object.keys(current)) {
      if (key === 'loc') continue;
      const value = current[key];
      if (Array.isArray(value)) {
        for (const item of value) if (item && typeof item.type === 'string') stack.push(item);
      } else if (value && typeof value === 'object' && typeof value.type === 'string') {
        stack.push(value);
      }
    }
  }
}

function toParseError(error: unknown, shift: number): BlockParseError {
  const pos = (error as { pos?: number }).pos;
  const message = error instanceof Error ? error.message : String(error);
  return new BlockParseError(message, typeof pos === 'number' ? pos - shift : undefined);
}
