import { tokenizer } from 'acorn';

const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * A token-stream normal form for de-duplication: comments and layout vanish, string and number literals are
 * compared by value (`'a'` = `"a"`, `1.0` = `1`), and a `;` that ASI would insert anyway (before `}`, a line break
 * or the end) is dropped. Sources that do not tokenize normalise to themselves.
 */
export function normaliseSource(source: string): string {
  const parts: string[] = [];
  let pendingSemicolon = -1;
  try {
    for (const token of tokenizer(source, { ecmaVersion: 'latest', allowHashBang: true })) {
      const label = token.type.label;
      if (pendingSemicolon >= 0) {
        const asi = label === '}' || LINE_BREAK.test(source.slice(pendingSemicolon, token.start));
        if (!asi) parts.push(';');
        pendingSemicolon = -1;
      }
      if (label === ';') {
        pendingSemicolon = token.end;
        continue;
      }
      parts.push(tokenText(label, (token as { value?: unknown }).value, source.slice(token.start, token.end)));
    }
  } catch {
    return source;
  }
  return parts.join(' ');
}

function tokenText(label: string, value: unknown, raw: string): string {
  switch (label) {
    case 'string':
      return JSON.stringify(value);
    case 'num':
      return typeof value === 'bigint' ? `${value}n` : String(value);
    case 'template':
      return `\`${raw}`;
    default:
      return raw;
  }
}
