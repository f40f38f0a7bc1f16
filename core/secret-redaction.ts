/**
 * Redaction of credential-shaped strings by value: used by the SDK on every string of a snapshot
 * that leaves the process, and again on LLM prompts as a last line.
 * Snapshots are already redacted by key name upstream; this catches secrets that sit in values
 * or in the block's own source (a hard-coded key), where no key name gives them away.
 */

const REDACTED = '[REDACTED]';

// Ordered so that the more specific shapes win before the generic bearer rule rewrites the prefix.
const PATTERNS: readonly RegExp[] = [
  // JWT: base64url JSON header ("eyJ" = '{"'), payload, optional signature.
  /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g,
  // OpenAI-style and similar `sk-` keys (sk-..., sk-proj-..., sk-ant-...).
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  // GitHub tokens.
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{30,}/g,
  // Slack tokens.
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  // AWS access key ids.
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  // Private key blocks.
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
];

// Prose such as "Bearer authentication" or "Basic validation" must survive (it may be in the
// block's comments), so a credential needs a digit, or a length no English word has.
const BEARER = /\b(Bearer|Basic)(\s+)((?=[A-Za-z._~+/=-]*[0-9])[A-Za-z0-9._~+/=-]{8,}|[A-Za-z0-9._~+/=-]{24,})/gi;

/** Replaces bearer tokens, JWT-shaped strings and well-known API key shapes with `[REDACTED]`. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const pattern of PATTERNS) out = out.replace(pattern, REDACTED);
  return out.replace(BEARER, (_match, scheme: string, space: string) => `${scheme}${space}${REDACTED}`);
}
