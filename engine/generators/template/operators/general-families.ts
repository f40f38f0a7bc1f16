import type { MutationContext } from '../mutation-context.ts';
import { methodChain } from './method-chain.ts';

/**
 * The operator families that reach fixes beyond one-token edits (a call appended to a chain, ...), each
 * documented in its own file. Their priors put them after the cheaper edits at the same location.
 */
export function generalFamilies(ctx: MutationContext): void {
  methodChain(ctx);
}
