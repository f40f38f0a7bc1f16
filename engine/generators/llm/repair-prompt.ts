import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { LlmFeedback, LlmRepairInput } from './repair-input.ts';
import { redactSecrets } from './secret-redaction.ts';

/** How much of each job goes into a prompt; bounds cost and keeps the fault in view. */
export const PROMPT_LIMITS = {
  failing: 5,
  passing: 5,
  feedbackFailures: 6,
  valueChars: 1_500,
  stackLines: 12,
  sourceChars: 40_000,
} as const;

/** Messages for round 1: system rules, then the job. Every string is passed through redaction. */
export function buildRepairMessages(input: LlmRepairInput): ChatCompletionMessageParam[] {
  return [
    { role: 'system', content: redactSecrets(systemPrompt(input)) },
    { role: 'user', content: redactSecrets(jobPrompt(input)) },
  ];
}

/**
 * Messages for round 2: the round-1 conversation, the earlier candidate as the assistant's own
 * answer, then its trial failures and a request to fix them (conversational repair).
 */
export function buildRefineMessages(input: LlmRepairInput, feedback: LlmFeedback): ChatCompletionMessageParam[] {
  const failures = feedback.failures.slice(0, PROMPT_LIMITS.feedbackFailures).map((f) => `- ${clip(f, PROMPT_LIMITS.valueChars)}`);
  const more = feedback.failures.length - failures.length;
  const lines = [
    'That candidate was run in the sandbox and did not pass every case:',
    ...failures,
    ...(more > 0 ? [`- (${more} more failures not shown)`] : []),
    '',
    'Fix the candidate so that it passes every failing case and keeps the behaviour of the passing examples.',
    'Answer again with one JSON object {"source": "...", "explanation": "..."} and nothing else.',
  ];
  return [
    ...buildRepairMessages(input),
    {
      role: 'assistant',
      content: redactSecrets(JSON.stringify({ source: clip(feedback.source, PROMPT_LIMITS.sourceChars), explanation: 'previous attempt' })),
    },
    { role: 'user', content: redactSecrets(lines.join('\n')) },
  ];
}

function systemPrompt(input: LlmRepairInput): string {
  const form =
    input.block.entry !== undefined
      ? `a complete JavaScript script that declares a function named \`${input.block.entry}\` (helpers may sit beside it), in the same form as the original`
      : 'a single JavaScript function expression (for example `(a, b) => { ... }` or `function (x) { ... }`), in the same form as the original, with no statements before or after it';
  return [
    'You repair one JavaScript function that throws or returns a wrong result.',
    'Make the smallest change that fixes the failing inputs and keeps the behaviour on the passing examples exactly.',
    'Do not special-case the failing inputs, do not return constants, do not delete the failing logic, and do not wrap the body in a try/catch that hides errors.',
    'The code runs in a sandbox with no modules, network or file system: do not use require, import or process.',
    '',
    'Answer with one JSON object and nothing else:',
    '{"source": "<the full replacement code>", "explanation": "<one sentence: what was wrong and what you changed>"}',
    `"source" must be ${form}.`,
  ].join('\n');
}

function jobPrompt(input: LlmRepairInput): string {
  const description = input.description ?? input.block.description;
  const parts: string[] = [];
  if (description) parts.push(`## What the function should do\n${description}`);
  parts.push(`## Source\n\`\`\`js\n${clip(input.block.source, PROMPT_LIMITS.sourceChars)}\n\`\`\``);
  if (input.error) {
    const stack = input.error.stack?.split('\n').slice(0, PROMPT_LIMITS.stackLines).join('\n');
    parts.push(`## Error\n${input.error.name}: ${input.error.message}${stack ? `\n\nStack:\n${stack}` : ''}`);
  }
  parts.push(
    'Values below are JSON in a snapshot encoding: plain JSON values are themselves; undefined, NaN, Infinity, BigInt, Date, Map, Set, cycles and similar appear as tagged objects.',
  );
  parts.push(`## Failing inputs\n${listCases(input.failing, PROMPT_LIMITS.failing)}`);
  if (input.passing.length > 0) parts.push(`## Passing examples (keep this behaviour)\n${listCases(input.passing, PROMPT_LIMITS.passing)}`);
  parts.push('Return the JSON object now.');
  return parts.join('\n\n');
}

function listCases(cases: readonly Record<string, unknown>[], max: number): string {
  if (cases.length === 0) return '(none recorded)';
  const shown = cases.slice(0, max).map((c, i) => {
    const fields = Object.entries(c)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `  ${key}: ${key === 'script' || key === 'error' ? clip(String(value), PROMPT_LIMITS.valueChars) : encode(value)}`);
    return `${i + 1}.\n${fields.join('\n')}`;
  });
  if (cases.length > max) shown.push(`(${cases.length - max} more not shown)`);
  return shown.join('\n');
}

function encode(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'undefined';
  } catch {
    text = String(value);
  }
  return clip(text, PROMPT_LIMITS.valueChars);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [truncated ${text.length - max} chars]`;
}
