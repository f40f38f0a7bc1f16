/**
 * The template generator: candidate fixes made by mutation operators (operators/) applied around the
 * suspicious ranges, ordered by prior (adjusted by learned per-family factors) and edit size. This is
 * the area's face: other areas, and anything outside that uses the generator alone, import from here.
 */
export { generateTemplateCandidates } from './template-generator.ts';
export { normaliseSource } from './normalise-source.ts';
export { parseLearnedPriors, priorFactors } from './learned-priors.ts';
export type { LearnedOperator, LearnedPriors, PriorFactors } from './learned-priors.ts';
export { ARRAY_MEMBERS, STRING_MEMBERS } from './operators/value-defaults.ts';
