/**
 * 0-based offset of a 1-based (line, column) in `source`, counting line breaks the way V8 does
 * (\n, \r\n, \r, U+2028, U+2029). Undefined when the position lies outside the source.
 */
export function offsetOfPosition(source: string, line: number, column: number): number | undefined {
  if (!Number.isInteger(line) || !Number.isInteger(column) || line < 1 || column < 1) return undefined;
  let current = 1;
  let lineStart = 0;
  let i = 0;
  while (current < line) {
    if (i >= source.length) return undefined;
    const c = source.charCodeAt(i);
    if (c === 10 || c === 0x2028 || c === 0x2029) i += 1;
    else if (c === 13) i += source.charCodeAt(i + 1) === 10 ? 2 : 1;
    else { i++; continue; }
    current++;
    lineStart = i;
  }
  const offset = lineStart + column - 1;
  return offset <= source.length ? offset : undefined;
}
