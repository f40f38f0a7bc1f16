/** Thrown by the LlmGenerator constructor when an option is missing or out of range; names the bad key. */
export class LlmConfigError extends Error {
  readonly code = 'SUTURE_LLM_CONFIG';
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(`llm generator option \`${key}\`: ${message}`);
    this.name = 'LlmConfigError';
  }
}

/**
 * Why one model answer produced no candidate. Never thrown out of the generator: recorded in
 * usage().lastError so a report can say why the LLM contributed nothing.
 */
export class LlmAnswerError extends Error {
  constructor(
    readonly code: 'SUTURE_LLM_NO_JSON' | 'SUTURE_LLM_SHAPE' | 'SUTURE_LLM_TOO_LARGE' | 'SUTURE_LLM_PARSE' | 'SUTURE_LLM_FORM' | 'SUTURE_LLM_EMPTY',
    message: string,
  ) {
    super(message);
    this.name = 'LlmAnswerError';
  }
}
