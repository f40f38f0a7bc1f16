import type { Edit } from '../../../core/types.ts';

/** Two edits touch the same characters, so applying both has no single meaning. */
export class OverlappingEditsError extends Error {
  readonly code = 'SUTURE_OVERLAPPING_EDITS';
  constructor(readonly first: Edit, readonly second: Edit) {
    super(`edits [${first.start}, ${first.end}) and [${second.start}, ${second.end}) overlap`);
    this.name = 'OverlappingEditsError';
  }
}

/**
 * Applies edits given as offsets into the ORIGINAL source. Insertions at one offset keep their given order.
 */
export function applyEdits(source: string, edits: readonly Edit[]): string {
  const ordered = edits.map((edit, order) => ({ edit, order }))
    .sort((a, b) => a.edit.start - b.edit.start || a.edit.end - b.edit.end || a.order - b.order);
  let out = '';
  let last = 0;
  let previous: Edit | undefined;
  for (const { edit } of ordered) {
    if (edit.start < last || edit.end < edit.start || edit.end > source.length) {
      throw new OverlappingEditsError(previous ?? edit, edit);
    }
    out += source.slice(last, edit.start) + edit.text;
    last = edit.end;
    previous = edit;
  }
  return out + source.slice(last);
}

/** Whether two edit lists can be applied together (no shared characters, no insertion inside a replacement). */
export function editsDisjoint(a: readonly Edit[], b: readonly Edit[]): boolean {
  for (const x of a) {
    for (const y of b) {
      if (x.start < y.end && y.start < x.end) return false;
      // Two insertions, or an insertion at a replacement's edge, at one offset have no agreed order.
      if (x.start === y.start || x.end === y.end) return false;
    }
  }
  return true;
}
