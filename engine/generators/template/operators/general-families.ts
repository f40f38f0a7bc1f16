import type { MutationContext } from '../mutation-context.ts';
import { dataShape } from './data-shape.ts';
import { methodChain } from './method-chain.ts';
import { missingCondition } from './missing-condition.ts';
import { serviceFailures } from './service-failures.ts';

/**
 * The operator families that reach fixes beyond one-token edits (a call appended to a chain, a new guard or sub-condition, a fallback the block uses elsewhere, ...), each
 * documented in its own file. Their priors put them after the cheaper edits at the same location.
 */
export function generalFamilies(ctx: MutationContext): void {
  methodChain(ctx);
  missingCondition(ctx);
  serviceFailures(ctx);
  dataShape(ctx);
}
