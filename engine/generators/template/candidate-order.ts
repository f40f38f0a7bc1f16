import type { SuspiciousRange } from '../../../core/types.ts';
import type { Mutation } from './mutation.ts';

/** Score given to mutations outside every suspicious range: after all ranked locations. */
const UNRANKED = -1;

/**
 * The suspiciousness of the location a mutation changes: the innermost suspicious range holding its anchor
 * (or, failing that, its start).
 */
export function locationScore(mutation: Mutation, ranges: readonly SuspiciousRange[]): number {
  let best: SuspiciousRange | undefined;
  let fallback: SuspiciousRange | undefined;
  for (const range of ranges) {
    const width = range.end - range.start;
    if (range.start <= mutation.anchorStart && mutation.anchorEnd <= range.end) {
      if (!best || width < best.end - best.start) best = range;
    } else if (range.start <= mutation.anchorStart && mutation.anchorStart < range.end) {
      if (!fallback || width < fallback.end - fallback.start) fallback = range;
    }
  }
  return (best ?? fallback)?.score ?? UNRANKED;
}

/**
 * Orders mutations to try: by location score (every operator at a more suspicious location first; locations
 * with equal scores form one tier), then by prior, then by edit size, then in source order.
 */
export function orderMutations(mutations: readonly Mutation[], ranges: readonly SuspiciousRange[]): Mutation[] {
  const keyed = mutations.map((mutation, index) => ({ mutation, index, score: locationScore(mutation, ranges) }));
  keyed.sort((a, b) =>
    b.score - a.score ||
    b.mutation.prior - a.mutation.prior ||
    a.mutation.size - b.mutation.size ||
    a.mutation.anchorStart - b.mutation.anchorStart ||
    a.index - b.index);
  return keyed.map((k) => k.mutation);
}

/**
 * Index pairs (i < j) of a ranked list of length n in order of rank sum, so pairs of the best singles come first.
 */
export function* rankSumPairs(n: number): Generator<[number, number]> {
  for (let sum = 1; sum <= 2 * n - 3; sum++) {
    for (let i = Math.max(0, sum - (n - 1)); i < sum - i; i++) yield [i, sum - i];
  }
}
