import type { Edit } from '../../../core/types.ts';

/** One proposed change of the original source, before ordering, de-duplication and parsing. */
export interface Mutation {
  /** Operator name; the candidate's generator is `template:<operator>`. */
  operator: string;
  edits: Edit[];
  prior: number;
  description: string;
  suspect?: boolean;
  /** The source range the change is about; fault localisation ranks mutations by it. */
  anchorStart: number;
  anchorEnd: number;
  /** Characters removed plus characters inserted. */
  size: number;
  /** The edit swaps one token for another of the same syntactic kind, so the result needs no re-parse. */
  safe?: boolean;
}

export function editSize(edits: readonly Edit[]): number {
  let size = 0;
  for (const edit of edits) size += edit.end - edit.start + edit.text.length;
  return size;
}
