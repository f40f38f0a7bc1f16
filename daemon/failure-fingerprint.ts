import { hash } from 'node:crypto';
import { sourceHash } from '../core/source-hash.ts';

// The one-shot hash skips building a Hash object per call: ingest hashes three strings per report.
export const sha256 = (text: string): string => hash('sha256', text, 'hex');

// Reports of one bug carry the same block source again and again: remember the hashes of recent
// sources instead of hashing them per report. Bounded in count (cleared when full) and in the
// length of a source kept, so the cache holds at most 1,024 × 16 KB.
const sourceHashes = new Map<string, string>();
const SOURCE_HASHES_MAX = 1024;
const CACHED_SOURCE_MAX_CHARS = 16_384;

/** core's sourceHash of a block source, cached for recently seen sources. */
export function sourceHashOf(source: string): string {
  if (source.length > CACHED_SOURCE_MAX_CHARS) return sourceHash(source);
  let h = sourceHashes.get(source);
  if (h === undefined) {
    h = sourceHash(source);
    if (sourceHashes.size >= SOURCE_HASHES_MAX) sourceHashes.clear();
    sourceHashes.set(source, h);
  }
  return h;
}

/**
 * Masks what varies between occurrences of one bug: quoted values ('x', "x", `x`) and numbers,
 * so "Cannot read properties of undefined (reading 'hp')" and the same error on another key, or
 * "index 12 out of range" and "index 7 out of range", fall in one bug.
 */
export function normaliseMessage(message: string): string {
  return message
    .slice(0, 2000)
    .replace(/'(?:[^'\\\n]|\\.){0,200}'|"(?:[^"\\\n]|\\.){0,200}"|`(?:[^`\\]|\\.){0,200}`/g, '<v>')
    .replace(/0x[0-9a-f]+|\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b/gi, '<n>')
    .trim();
}

/**
 * The innermost stack frame without its path (deployments differ in directories, not in where
 * the block threw): `at fn (/srv/app/x.js:10:5)` → `fn:10:5`; `''` when the stack has no frame.
 */
export function topFrame(stack: string | undefined): string {
  if (!stack) return '';
  for (const raw of stack.split('\n', 50)) {
    const line = raw.trim();
    if (!line.startsWith('at ')) continue;
    const m = /^at (?:async )?(?:(.*?) \()?(?:.*?[/\\])?([^/\\()]*?)(?::(\d+):(\d+))?\)?$/.exec(line);
    if (!m) return line.slice(0, 200);
    const fn = m[1] ?? '<anonymous>';
    return m[3] ? `${fn}:${m[3]}:${m[4]}` : fn;
  }
  return '';
}

export interface FingerprintInput {
  app: string;
  blockId: string;
  source: string;
  error: { name: string; message: string; stack?: string };
  /** The outside names the block is given (`uses`), in any order. */
  uses?: readonly string[];
}

/**
 * Identity of a bug: hash of (app, block id, sha256 of the block source, error name, normalised
 * message, top frame, and the block's `uses` names when it has any). 32 hex characters; also the
 * BullMQ job id of the bug's repair job. A block given other `uses` is another bug: its failing
 * inputs carry the values of those names, which the earlier ones lack (so a block that was
 * `cannot-see` and now passes the names it reads opens a fresh bug, which is searched).
 */
export function failureFingerprint(input: FingerprintInput): { fingerprint: string; sourceHash: string; message: string; frame: string; uses: string[] } {
  const sourceHash = sourceHashOf(input.source);
  const message = normaliseMessage(input.error.message);
  const frame = topFrame(input.error.stack);
  const parts = [input.app, input.blockId, sourceHash, input.error.name, message, frame];
  const uses = usesKey(input.uses);
  if (uses.length > 0) parts.push(uses.join(','));
  const fingerprint = sha256(parts.join('\u0000')).slice(0, 32);
  return { fingerprint, sourceHash, message, frame, uses };
}

/** `uses` names as a bug keeps them: distinct, sorted. */
export function usesKey(uses: readonly string[] | undefined): string[] {
  return uses && uses.length > 0 ? [...new Set(uses)].sort() : [];
}
