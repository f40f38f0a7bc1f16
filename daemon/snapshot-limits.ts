import { decodeSnapshot } from '../core/snapshot.ts';
import type { CallWorld } from '../core/world.ts';
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

/**
 * Checks every snapshot inside a call's world (uses values before and after, dependency call
 * arguments and answers, receiver) against the same limits as arguments. Returns its JSON text.
 */
export function checkWorld(field: string, world: CallWorld, limits: { maxBytes: number; maxDepth: number }): string {
  const values = (name: string, record: Record<string, unknown> | undefined) => {
    for (const [key, value] of Object.entries(record ?? {})) checkSnapshot(`${field}/${name}/${key}`, value, limits);
  };
  values('uses', world.uses);
  values('usesAfter', world.usesAfter);
  world.calls.forEach((call, i) => {
    checkSnapshot(`${field}/calls/${i}/args`, call.args, limits);
    if ('result' in call) checkSnapshot(`${field}/calls/${i}/result`, call.result, limits);
  });
  if ('this' in world) checkSnapshot(`${field}/this`, world.this, limits);
  if ('thisAfter' in world) checkSnapshot(`${field}/thisAfter`, world.thisAfter, limits);
  const json = JSON.stringify(world);
  if (Buffer.byteLength(json) > limits.maxBytes * 4) throw new SnapshotLimitError(field, `larger than ${limits.maxBytes * 4} bytes in all`);
  return json;
}
