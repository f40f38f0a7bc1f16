import { decodeSnapshot } from '../core/snapshot.ts';
import type { HttpErrorCode } from './http-errors.ts';

/** A snapshot refused at the edge; `field` names where it sits in the request. */
export class SnapshotLimitError extends Error {
  readonly code = 'SUTURE_SNAPSHOT_REFUSED' satisfies HttpErrorCode;
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = 'SnapshotLimitError';
  }
}

/** Nesting depth of a JSON value, walked without recursion (hostile input can't blow the stack). */
function depthOf(value: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

/**
 * Checks one snapshot-encoded value against the size and depth limits and that it decodes (so
 * workers never meet an encoding the sandbox would refuse). Returns its JSON text.
 */
export function checkSnapshot(field: string, value: unknown, limits: { maxBytes: number; maxDepth: number }): string {
  const depth = depthOf(value, limits.maxDepth);
  if (depth > limits.maxDepth) throw new SnapshotLimitError(field, `nested deeper than ${limits.maxDepth} levels`);
  const json = JSON.stringify(value) ?? 'null';
  if (Buffer.byteLength(json) > limits.maxBytes) throw new SnapshotLimitError(field, `larger than ${limits.maxBytes} bytes`);
  try {
    decodeSnapshot(value);
  } catch (error) {
    throw new SnapshotLimitError(field, `not a valid snapshot (${(error as Error).message})`);
  }
  return json;
}
