/**
 * The repair engine: given a block and its cases it localises the fault, generates candidate fixes
 * (template operators, an LLM), trials each in the sandbox, judges them on the job's cases and the ones
 * the oracle adds, and ranks the plausible ones into a RepairResult. It knows nothing of Redis, HTTP,
 * queues or the CLI. This is its face for the rest of the repository (worker/, suite/, cli/, bench/,
 * testkit/): what a caller needs to run a repair and read its report. A caller that uses one area on its
 * own (the sandbox in a script runner, the template generator in a reach tool) may import that area's
 * index.ts instead; nothing outside engine/ but test/ imports any other engine module.
 */
export { repairBlock, describeFailure } from './repair-engine.ts';
export type { CandidateReport, EngineEvent, RepairResult } from './repair-report.ts';
export { SandboxPool } from './sandbox/index.ts';
export { LlmGenerator } from './generators/llm/index.ts';
export { parseLearnedPriors, priorFactors } from './generators/template/index.ts';
export type { LearnedOperator, LearnedPriors, PriorFactors } from './generators/template/index.ts';
export { deriveInvariants, invariantViolation } from './scoring/index.ts';
