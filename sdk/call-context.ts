/** One call of a block as `run` (or a wrapped function) received it. */
export interface CallContext {
  id: string;
  description: string;
  fn: Function;
  self: unknown;
  args: unknown[];
}
