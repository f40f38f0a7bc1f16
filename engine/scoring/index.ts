/**
 * Scoring of plausible candidates: the ranking score (prior, edit size, known overfitting shapes), the
 * invariants known-good behaviour sets on values (no NaN, kinds the block returns), and the answer
 * kinds known-good answers have. This is the area's face: other areas, and anything outside that uses
 * scoring alone, import from here.
 */
export { scoreCandidate } from './candidate-score.ts';
export { deriveInvariants, invariantViolation } from './behaviour-invariants.ts';
export type { BehaviourInvariants } from './behaviour-invariants.ts';
export { answerProfile, offKind } from './answer-kinds.ts';
export type { AnswerProfile } from './answer-kinds.ts';
