import type { RecordedCall } from '../core/wire.ts';
import type { CallWorld } from '../core/world.ts';
import { encodeWorld, frozenCalls, redactWorld } from './block-world.ts';
import type { CallContext } from './call-context.ts';
import { copyArgs } from './entry-copy.ts';
import type { ReportEncoder } from './snapshot-encoder.ts';

/**
 * The world a failure report carries: the `uses` values (copies taken on entry when the call was
 * recorded, else the values as the failed call left them), the calls made before the throw and the
 * receiver (`state[0]` when the block has one). None for a block with neither `uses` nor receiver.
 */
export function failureWorld(encoder: ReportEncoder, ctx: CallContext, state: unknown[]): CallWorld | undefined {
  if (ctx.world === undefined && ctx.self === undefined) return undefined;
  return encodeWorld(encoder, {
    names: ctx.world?.names ?? [],
    values: ctx.usesEntry ?? ctx.world?.values ?? [],
    calls: ctx.tracer?.log.calls ?? [],
    hasThis: ctx.self !== undefined,
    self: state[0],
  });
}

/** What a recorded call keeps of its world until it is encoded: copies, taken when the call returned. */
export interface PendingWorld {
  names: string[];
  values: unknown[];
  after: unknown[];
  calls: ReturnType<typeof frozenCalls>;
  hasThis: boolean;
  self?: unknown;
  selfAfter?: unknown;
}

/** Copies a successful call's world for recording (`self` is the receiver's entry copy). */
export function pendingWorld(ctx: CallContext, selfEntry: unknown): PendingWorld | undefined {
  if (ctx.world === undefined && ctx.self === undefined) return undefined;
  const names = ctx.world?.names ?? [];
  const live = ctx.world?.values ?? [];
  const out: PendingWorld = {
    names,
    values: ctx.usesEntry ?? copyArgs(live),
    after: copyArgs(live),
    calls: frozenCalls(ctx.tracer?.log.calls ?? [], copyArgs),
    hasThis: ctx.self !== undefined,
  };
  if (out.hasThis) {
    out.self = selfEntry;
    out.selfAfter = copyArgs([ctx.self])[0];
  }
  return out;
}

export function encodePendingWorld(encoder: ReportEncoder, w: PendingWorld): CallWorld {
  return encodeWorld(encoder, w);
}

/**
 * Redacts, in place, a recorded call's copies of the values its encoder redacted by key: the
 * token the block returned, copied into an argument, handed to a dependency (see ReportEncoder).
 */
export function redactCall(r: ReportEncoder, call: RecordedCall): void {
  call.args = r.redactEach(call.args);
  call.result = r.redact(call.result);
  call.argsAfter = r.redactEach(call.argsAfter);
  if (call.world !== undefined) redactWorld(r, call.world);
}
