import { LlmAnswerError } from './llm-errors.ts';

/** Largest replacement source accepted from a model, in UTF-8 bytes. */
export const MAX_SOURCE_BYTES = 50_000;

/** Longest candidate description kept from a model's explanation, in characters. */
export const MAX_EXPLANATION_CHARS = 240;

export interface ModelAnswer {
  source: string;
  explanation: string;
}

/**
 * Pulls `{"source", "explanation"}` out of a model's message. Servers that ignore
 * `response_format` wrap the object in prose or a code fence, so after a direct parse this tries
 * each fenced block, then the outermost braces.
 * @throws LlmAnswerError when no JSON object with a string `source` is found, or it is too large.
 */
export function extractAnswer(content: string | null | undefined): ModelAnswer {
  if (typeof content !== 'string' || content.trim() === '') {
    throw new LlmAnswerError('SUTURE_LLM_EMPTY', 'the model returned no content');
  }
  const parsed = firstJsonObject(content);
  if (parsed === undefined) throw new LlmAnswerError('SUTURE_LLM_NO_JSON', 'no JSON object in the answer');
  const { source, explanation } = parsed as { source?: unknown; explanation?: unknown };
  if (typeof source !== 'string' || source.trim() === '') {
    throw new LlmAnswerError('SUTURE_LLM_SHAPE', 'answer has no string `source`');
  }
  if (Buffer.byteLength(source, 'utf8') > MAX_SOURCE_BYTES) {
    throw new LlmAnswerError('SUTURE_LLM_TOO_LARGE', `source exceeds ${MAX_SOURCE_BYTES} bytes`);
  }
  return {
    source: stripCodeFence(source).trim(),
    explanation: oneLine(typeof explanation === 'string' ? explanation : '', MAX_EXPLANATION_CHARS),
  };
}

function firstJsonObject(content: string): object | undefined {
  // Reasoning models served through compatible endpoints often prepend their thoughts.
  const text = content.replace(/<think>[\s\S]*?<\/think>/g, '');
  const attempts = [text];
  for (const match of text.matchAll(/```[A-Za-z]*[^\S\n]*\n([\s\S]*?)```/g)) attempts.push(match[1]!);
  attempts.push(...balancedObjects(text));
  let fallback: object | undefined;
  for (const attempt of attempts) {
    const value = tryJson(attempt.trim());
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    if ('source' in value) return value;
    fallback ??= value;
  }
  return fallback;
}

/** Brace-balanced substrings (strings respected), outermost first; a bounded number of starts. */
function balancedObjects(text: string, maxStarts = 50): string[] {
  const found: string[] = [];
  // Each start scans forward, so both the starts and the text are bounded to keep this linear-ish.
  if (text.length > 200_000) return found;
  let from = 0;
  for (let tries = 0; tries < maxStarts; tries++) {
    const start = text.indexOf('{', from);
    if (start === -1) break;
    const end = matchingBrace(text, start);
    if (end !== -1) found.push(text.slice(start, end + 1));
    // Nested objects are only worth trying when the outer one fails, so scan inside it next.
    from = start + 1;
  }
  return found;
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// Models often put the fence inside the JSON string itself.
function stripCodeFence(source: string): string {
  const fenced = /^\s*```[A-Za-z]*[^\S\n]*\n([\s\S]*?)\n?```\s*$/.exec(source);
  return fenced ? fenced[1]! : source;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
