import type { BlockWorld, Tracer } from './block-world.ts';

/** One call of a block as `run` (or a wrapped function) received it. */
export interface CallContext {
  id: string;
  description: string;
  fn: Function;
  self: unknown;
  args: unknown[];
  /** The block's `uses` (options-object form only). */
  world?: BlockWorld;
  /** The call's tracers and call log (blocks with `uses`, once the block has run). */
  tracer?: Tracer;
  /** Copies of the `uses` values taken on entry (recorded calls). */
  usesEntry?: unknown[];
}
