import { parse } from 'acorn';
import type { Block } from '../../core/types.ts';
import type { SyntaxNode } from './syntax-tree.ts';

/** How a block's source is shaped: a script declaring `entry`, or one function expression. */
export type BlockForm = 'entry' | 'expression';

export interface ParsedBlock {
  form: BlockForm;
  source: string;
  /** The Program (entry form) or the function expression (expression form); offsets index `source`. */
  root: SyntaxNode;
}

/** The block's source is not JavaScript acorn accepts in the block's form. */
export class BlockParseError extends Error {
  readonly code = 'BLOCK_PARSE_ERROR';
  constructor(message: string, readonly offset?: number) {
    super(message);
    this.name = 'BlockParseError';
  }
}

const OPTIONS = { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true } as const;

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
      return { form, source, root: parse(source, OPTIONS) as unknown as SyntaxNode };
    } catch (error) {
      throw toParseError(error, 0);
    }
  }
  let program: SyntaxNode;
  try {
    program = parse(`(${source})`, OPTIONS) as unknown as SyntaxNode;
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
  return { form, source, root };
}

/** True when `source` parses in the given form (cheap syntax check for generated candidates). */
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
