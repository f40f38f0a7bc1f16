import type { SyntaxNode } from '../../syntax/index.ts';

/**
 * Reading the original source around nodes: operator positions, comments, parentheses, line/column.
 * Acorn drops parentheses and operator tokens from the tree; these helpers find them again in the text.
 */
export class SourceText {
  private readonly lineStarts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  slice(node: { start: number; end: number }): string {
    return this.text.slice(node.start, node.end);
  }

  /** 1-based line and column of an offset. */
  position(offset: number): string {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return `${low + 1}:${offset - this.lineStarts[low] + 1}`;
  }

  /** First offset at or after `from` that is not whitespace or a comment. */
  skipTrivia(from: number, limit = this.text.length): number {
    let i = from;
    while (i < limit) {
      const c = this.text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xa0 || c === 0xfeff || c === 0x2028 || c === 0x2029) i++;
      else if (c === 47 && this.text.charCodeAt(i + 1) === 47) {
        while (i < limit && this.text.charCodeAt(i) !== 10) i++;
      } else if (c === 47 && this.text.charCodeAt(i + 1) === 42) {
        const close = this.text.indexOf('*/', i + 2);
        i = close < 0 ? limit : close + 2;
      } else break;
    }
    return i;
  }

  /** Last offset (exclusive end) at or before `to` not preceded by whitespace; comments before `to` are rare enough to ignore. */
  trimBack(to: number, limit = 0): number {
    let i = to;
    while (i > limit && /\s/.test(this.text[i - 1])) i--;
    return i;
  }

  /**
   * Finds the operator between two operands: skips layout, comments and closing parentheses after `from`,
   * then matches the longest of `operators`. Returns the operator's range or undefined.
   */
  findOperator(from: number, to: number, operators: readonly string[]): { start: number; end: number; text: string } | undefined {
    let i = from;
    for (;;) {
      i = this.skipTrivia(i, to);
      if (this.text[i] === ')') i++;
      else break;
    }
    let best: string | undefined;
    for (const op of operators) {
      if (this.text.startsWith(op, i) && (!best || op.length > best.length)) best = op;
    }
    return best === undefined ? undefined : { start: i, end: i + best.length, text: best };
  }

  /** Whether the node is wrapped in its own parentheses in the source, e.g. `(a + b) * c`. */
  isParenthesised(node: SyntaxNode, container?: { start: number; end: number }): boolean {
    let before = node.start - 1;
    while (before >= 0 && /\s/.test(this.text[before])) before--;
    if (this.text[before] !== '(') return false;
    if (container && before < container.start) return false;
    const after = this.skipTrivia(node.end);
    return this.text[after] === ')';
  }
}

/** `text` as a string literal in the quote style of `raw` (the literal it replaces). */
export function quoteLike(raw: string, value: string): string {
  const quote = raw.startsWith("'") ? "'" : raw.startsWith('`') ? '`' : '"';
  const json = JSON.stringify(value).slice(1, -1);
  if (quote === '"') return `"${json}"`;
  const body = json.replace(/\\"/g, '"').replace(new RegExp(quote === '`' ? '[`$]' : "'", 'g'), (m) => `\\${m}`);
  return `${quote}${body}${quote}`;
}

/** A number in the style of `raw`: `2.0` stays decimal when the original was written `1.0`. */
export function numberLike(raw: string, value: number): string {
  if (Object.is(value, -0)) value = 0;
  const text = String(value);
  if (/^-?\d+$/.test(text) && /^\d+\.\d+$/.test(raw)) return `${text}.0`;
  return text;
}
