import type { Block, CandidateSpec, SuspiciousRange } from '../../core/types.ts';
import { generateTemplateCandidates, normaliseSource, type ErrorInfo, type TemplateOptions } from '../../engine/generators/template/template-generator.ts';

/** 1-based position of the candidate equal (after normalisation) to `fixed`, or undefined. */
export function rankOf(block: Block, fixed: string, options: { suspicious?: SuspiciousRange[]; errorInfo?: ErrorInfo; template?: TemplateOptions } = {}):
  { rank: number | undefined; candidate: CandidateSpec | undefined } {
  const target = normaliseSource(fixed);
  let rank = 0;
  for (const candidate of generateTemplateCandidates(block, options.suspicious ?? [], options.template ?? {}, options.errorInfo)) {
    rank++;
    if (normaliseSource(candidate.source) === target) return { rank, candidate };
  }
  return { rank: undefined, candidate: undefined };
}

/** Asserts-friendly wrapper: the fix is found within the first `within` candidates. */
export function foundWithin(block: Block, fixed: string, within: number, options?: Parameters<typeof rankOf>[2]): CandidateSpec {
  const { rank, candidate } = rankOf(block, fixed, options);
  if (rank === undefined || rank > within) {
    throw new Error(`fix not within the first ${within} candidates (rank ${rank ?? 'none'}): ${fixed}`);
  }
  return candidate!;
}
