/**
 * The LLM generator: candidate fixes from an OpenAI-compatible chat completions endpoint, with secrets
 * redacted from the prompt and every answer treated as untrusted (README.md). This is the area's face:
 * other areas, and anything outside that uses the generator alone, import from here.
 */
export { LlmGenerator } from './llm-generator.ts';
export type { LlmRepairInput } from './repair-input.ts';
