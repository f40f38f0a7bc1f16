import { createTwoFilesPatch, diffChars } from 'diff';

/** Unified diff of a candidate against the original block source, for reports and export. */
export function unifiedDiff(original: string, candidate: string, name = 'block.js'): string {
  return createTwoFilesPatch(`a/${name}`, `b/${name}`, ensureNewline(original), ensureNewline(candidate), '', '', {
    context: 2,
  });
}

/**
 * Size of the change in characters (removed + added), ignoring whitespace-only differences.
 * Used to rank plausible candidates: the smallest change that passes is the most likely real fix.
 */
export function editSize(original: string, candidate: string): number {
  let size = 0;
  for (const part of diffChars(original, candidate)) {
    if ((part.added || part.removed) && part.value.trim() !== '') size += part.value.replace(/\s+/g, '').length;
  }
  return size;
}

/**
 * Size of a template candidate from its edits: the same replacement made in several places (every `&&` of a
 * condition turned into `||`) is one decision, so it counts once.
 */
export function editsSize(original: string, edits: readonly { start: number; end: number; text: string }[]): number {
  const distinct = new Map<string, number>();
  for (const e of edits) {
    const before = original.slice(e.start, e.end);
    distinct.set(`${before}\u0000${e.text}`, editSize(before, e.text));
  }
  let size = 0;
  for (const v of distinct.values()) size += v;
  return size;
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : text + '\n';
}
