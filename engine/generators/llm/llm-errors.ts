/** Thrown by the LlmGenerator constructor when an option is missing or out of range; names the bad key. */
export class LlmConfigError extends Error {
  readonly code = 'ERR_LLM_CONFIG';
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
    readonly code: 'ERR_LLM_NO_JSON' | 'ERR_LLM_SHAPE' | 'ERR_LLM_TOO_LARGE' | 'ERR_LLM_PARSE' | 'ERR_LLM_FORM' | 'ERR_LLM_EMPTY',
    message: string,
  ) {
    super(message);
    this.name = 'LlmAnswerError';
  }
}
