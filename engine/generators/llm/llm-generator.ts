import OpenAI, { APIError } from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { CandidateSpec } from '../../../core/types.ts';
import { extractAnswer } from './answer-extraction.ts';
import { boundedFetch, type BoundedFetchCounters } from './bounded-fetch.ts';
import { LlmAnswerError, LlmConfigError } from './llm-errors.ts';
import type { LlmFeedback, LlmRepairInput } from './repair-input.ts';
import { buildRefineMessages, buildRepairMessages } from './repair-prompt.ts';
import { redactSecrets } from './secret-redaction.ts';
import { checkSourceForm } from './source-form.ts';

export type { LlmFeedback, LlmRepairInput } from './repair-input.ts';

/** USD per million tokens, per model name. */
export interface LlmPrice {
  inputPerMTok: number;
  outputPerMTok: number;
}

export interface LlmGeneratorOptions {
  /** OpenAI-compatible endpoint, e.g. `http://127.0.0.1:11434/v1`. @defaultValue process.env.OPENAI_BASE_URL, else OpenAI's API */
  baseURL?: string;
  /**
   * Bearer key. A local endpoint without auth needs only `baseURL`.
   * @defaultValue process.env.OPENAI_API_KEY
   */
  apiKey?: string;
  /** Model name sent with every request, e.g. from SUTURE_LLM_MODEL. */
  model: string;
  /** Candidates asked for per round, as that many parallel requests (many servers ignore `n`). @defaultValue 4 */
  samples?: number;
  /** Sampling temperature; diversity across the parallel samples comes from it. @defaultValue 0.8 */
  temperature?: number;
  /** Per HTTP attempt, headers and body included, ms. @defaultValue 60000 */
  timeoutMs?: number;
  /** Retries of one request on connection errors, timeouts, 408/409/429/5xx (the client's own retry). @defaultValue 2 */
  maxRetries?: number;
  /** Upper bound on the answer's tokens. @defaultValue 2048 */
  maxOutputTokens?: number;
  /** Price table for usage().costUsd, keyed by model name; unknown models cost 0. @defaultValue {} */
  prices?: { [model: string]: LlmPrice };
  /** Cancels every request in flight and every later one. */
  signal?: AbortSignal;
}

export interface LlmUsage {
  /** Logical requests started (one per sample); client retries are not counted here. */
  requests: number;
  /** Requests that produced no candidate: transport/HTTP errors after retries, or an invalid answer. */
  failures: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  /** Wall-clock ms of all rounds, from first request sent to last settled. */
  ms: number;
  /** HTTP attempts, retries included. */
  attempts: number;
  /** Subset of `failures`: answers received but dropped (not JSON, wrong shape, too large, does not parse, wrong form). */
  invalid: number;
  /** Requests cancelled by the caller's signal or by the consumer leaving the stream early; not failures. */
  aborted: number;
  /** The most recent failure, for reports that must say why the LLM gave nothing. */
  lastError?: string;
}

const DEFAULTS = {
  samples: 4,
  temperature: 0.8,
  timeoutMs: 60_000,
  maxRetries: 2,
  maxOutputTokens: 2048,
} as const;

const CANDIDATE_PRIOR = 0.5;
const MAX_SAMPLES = 32;

/**
 * Candidate generator backed by an OpenAI-compatible chat completions endpoint.
 * Round 1 (`generate`) sends the job; round 2 (`refine`) continues the conversation with the trial
 * failures of earlier candidates. Answers are untrusted: they are parsed, never evaluated here.
 * Neither method throws: failures are counted in `usage()`.
 */
export class LlmGenerator {
  readonly name = 'llm';
  readonly #client: OpenAI;
  readonly #model: string;
  readonly #samples: number;
  readonly #temperature: number;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #maxOutputTokens: number;
  readonly #prices: { [model: string]: LlmPrice };
  readonly #signal: AbortSignal | undefined;
  readonly #http: BoundedFetchCounters = { attempts: 0 };
  readonly #usage: Omit<LlmUsage, 'attempts'> = {
    requests: 0,
    failures: 0,
    promptTokens: 0,
    completionTokens: 0,
    costUsd: 0,
    ms: 0,
    invalid: 0,
    aborted: 0,
  };
  // Servers differ in which optional parameters they accept; each is dropped once a server rejects it.
  #jsonMode = true;
  #sendTemperature = true;
  #tokenParam: 'max_completion_tokens' | 'max_tokens' = 'max_completion_tokens';

  constructor(options: LlmGeneratorOptions) {
    if (typeof options.model !== 'string' || options.model.trim() === '') throw new LlmConfigError('model', 'must be a non-empty string');
    this.#model = options.model;
    this.#samples = integerOption('samples', options.samples ?? DEFAULTS.samples, 1, MAX_SAMPLES);
    this.#temperature = numberOption('temperature', options.temperature ?? DEFAULTS.temperature, 0, 2);
    this.#timeoutMs = integerOption('timeoutMs', options.timeoutMs ?? DEFAULTS.timeoutMs, 1, 3_600_000);
    this.#maxRetries = integerOption('maxRetries', options.maxRetries ?? DEFAULTS.maxRetries, 0, 10);
    this.#maxOutputTokens = integerOption('maxOutputTokens', options.maxOutputTokens ?? DEFAULTS.maxOutputTokens, 1, 1_000_000);
    this.#prices = {};
    for (const [model, price] of Object.entries(options.prices ?? {})) {
      numberOption(`prices.${model}.inputPerMTok`, price?.inputPerMTok, 0, Number.MAX_VALUE);
      numberOption(`prices.${model}.outputPerMTok`, price?.outputPerMTok, 0, Number.MAX_VALUE);
      this.#prices[model] = { inputPerMTok: price.inputPerMTok, outputPerMTok: price.outputPerMTok };
    }
    this.#signal = options.signal;

    const baseURL = options.baseURL ?? process.env.OPENAI_BASE_URL;
    const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
    if (!apiKey && !baseURL) {
      throw new LlmConfigError('apiKey', 'no API key: pass apiKey or set OPENAI_API_KEY (a local endpoint without auth needs only baseURL)');
    }
    this.#client = new OpenAI({
      // The client refuses to start without a key; local servers ignore the header.
      apiKey: apiKey || 'no-key',
      baseURL,
      timeout: this.#timeoutMs,
      maxRetries: this.#maxRetries,
      fetch: boundedFetch(this.#http),
    });
  }

  /** Round 1: `samples` parallel requests; candidates stream as each request completes. */
  generate(input: LlmRepairInput): AsyncIterable<CandidateSpec> {
    const messages = buildRepairMessages(input);
    return this.#round(input, () => messages, 1);
  }

  /**
   * Round 2 (conversational repair): each sample continues the round-1 conversation with one
   * earlier candidate as the model's answer followed by its trial failures; samples cycle through
   * `feedback`. Generator tags continue after round 1's (`#samples+1` ...).
   */
  refine(input: LlmRepairInput, feedback: LlmFeedback[]): AsyncIterable<CandidateSpec> {
    if (feedback.length === 0) {
      const messages = buildRepairMessages(input);
      return this.#round(input, () => messages, this.#samples + 1);
    }
    const conversations = feedback.map((item) => buildRefineMessages(input, item));
    return this.#round(input, (i) => conversations[i % conversations.length]!, this.#samples + 1);
  }

  usage(): LlmUsage {
    return { ...this.#usage, ms: Math.round(this.#usage.ms), attempts: this.#http.attempts };
  }

  async *#round(
    input: LlmRepairInput,
    messagesFor: (sample: number) => ChatCompletionMessageParam[],
    firstTag: number,
  ): AsyncGenerator<CandidateSpec> {
    const started = performance.now();
    // Aborted when the consumer stops iterating, so abandoned requests stop costing tokens.
    const local = new AbortController();
    const signal = this.#signal ? AbortSignal.any([this.#signal, local.signal]) : local.signal;
    const pending = new Map<number, Promise<{ tag: number; candidate: CandidateSpec | undefined }>>();
    for (let i = 0; i < this.#samples; i++) {
      const tag = firstTag + i;
      pending.set(
        tag,
        this.#sample(input, messagesFor(i), tag, signal).then((candidate) => ({ tag, candidate })),
      );
    }
    try {
      while (pending.size > 0) {
        const { tag, candidate } = await Promise.race(pending.values());
        pending.delete(tag);
        if (candidate) yield candidate;
      }
    } finally {
      local.abort();
      await Promise.all(pending.values());
      this.#usage.ms += performance.now() - started;
    }
  }

  /** One request to one candidate; never rejects. */
  async #sample(
    input: LlmRepairInput,
    messages: ChatCompletionMessageParam[],
    tag: number,
    signal: AbortSignal,
  ): Promise<CandidateSpec | undefined> {
    this.#usage.requests++;
    try {
      const completion = await this.#complete(messages, signal);
      if (completion === null || typeof completion !== 'object' || !Array.isArray(completion.choices)) {
        throw new LlmAnswerError('SUTURE_LLM_SHAPE', 'the response is not a chat completion');
      }
      this.#addTokens(completion);
      const answer = extractAnswer(completion.choices[0]?.message?.content);
      checkSourceForm(answer.source, input.block.entry);
      return {
        source: answer.source,
        generator: `llm:${this.#model}#${tag}`,
        description: answer.explanation || `rewrite by ${this.#model}`,
        prior: CANDIDATE_PRIOR,
      };
    } catch (error) {
      if (signal.aborted) {
        this.#usage.aborted++;
      } else {
        this.#usage.failures++;
        if (error instanceof LlmAnswerError) this.#usage.invalid++;
      }
      this.#usage.lastError = redactSecrets(describeError(error)).slice(0, 500);
      return undefined;
    }
  }

  async #complete(messages: ChatCompletionMessageParam[], signal: AbortSignal): Promise<ChatCompletion> {
    for (;;) {
      const body: ChatCompletionCreateParamsNonStreaming = { model: this.#model, messages };
      if (this.#sendTemperature) body.temperature = this.#temperature;
      body[this.#tokenParam] = this.#maxOutputTokens;
      if (this.#jsonMode) body.response_format = { type: 'json_object' };
      try {
        return await this.#client.chat.completions.create(body, { signal, timeout: this.#timeoutMs, maxRetries: this.#maxRetries });
      } catch (error) {
        if (!this.#dropRejectedParameter(error)) throw error;
      }
    }
  }

  /** True when a 400/422 names an optional parameter still being sent; it is dropped for good. */
  #dropRejectedParameter(error: unknown): boolean {
    if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return false;
    const message = `${error.message} ${JSON.stringify(error.error ?? '')}`;
    if (this.#jsonMode && /response_format|json_object|json mode/i.test(message)) {
      this.#jsonMode = false;
      return true;
    }
    if (this.#tokenParam === 'max_completion_tokens' && /max_completion_tokens/.test(message)) {
      this.#tokenParam = 'max_tokens';
      return true;
    }
    if (this.#sendTemperature && /temperature/i.test(message)) {
      this.#sendTemperature = false;
      return true;
    }
    return false;
  }

  #addTokens(completion: ChatCompletion): void {
    const prompt = tokenCount(completion.usage?.prompt_tokens);
    const output = tokenCount(completion.usage?.completion_tokens);
    this.#usage.promptTokens += prompt;
    this.#usage.completionTokens += output;
    const price = this.#prices[this.#model] ?? (typeof completion.model === 'string' ? this.#prices[completion.model] : undefined);
    if (price) this.#usage.costUsd += (prompt * price.inputPerMTok + output * price.outputPerMTok) / 1_000_000;
  }
}

function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

function describeError(error: unknown): string {
  if (error instanceof LlmAnswerError) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

function numberOption(key: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new LlmConfigError(key, `must be a number from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

function integerOption(key: string, value: unknown, min: number, max: number): number {
  if (!Number.isInteger(value)) throw new LlmConfigError(key, `must be an integer, got ${String(value)}`);
  return numberOption(key, value, min, max);
}
