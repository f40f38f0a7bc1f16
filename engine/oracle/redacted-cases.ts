/**
 * Recorded calls with redacted values. The SDK replaces the value of a secret-looking key (`authorization`,
 * `apiKey`, `password`...) by `{"$t":"redacted"}` before a call leaves the app, and a trial decodes that marker
 * to a frozen empty object, never to the secret: a redacted value must never reach a trial as if it were real.
 *
 * So a recorded call is only usable where the block does not need the redacted value. The original decides
 * it: run on the recorded input with the marker, it either gives the recorded answer (the block did not read
 * the value, or its answer does not depend on it: the call stays a known-good case) or it does not (the answer
 * came from the secret, which no trial has). Such a call is left out of the job, with a warning, instead of
 * becoming a "failing" case no candidate could pass without the secret. Failing calls (no-throw) stay: they
 * only ask for no throw.
 */
import type { Case, Encoded } from '../../core/types.ts';

/** The path of the first redacted value in a case's input (arguments, uses, receiver), or undefined. */
export function redactedPath(c: Case): string | undefined {
  const roots: Array<[string, unknown]> = (c.args ?? []).map((a, i) => [`argument ${i + 1}`, a]);
  if (c.world) {
    for (const [name, value] of Object.entries(c.world.uses ?? {})) roots.push([name, value]);
    if (Object.hasOwn(c.world, 'this')) roots.push(['this', c.world.this]);
  }
  for (const [name, value] of roots) {
    const found = find(value as Encoded, name, 0);
    if (found) return found;
  }
  return undefined;
}

/**
 * The value cases the original does not pass and whose input holds a redacted value: unusable, since the
 * answer they record depends on a value no trial can have.
 */
export function unusableRedacted(cases: readonly Case[], failingIds: ReadonlySet<string>): { id: string; path: string }[] {
  const out: { id: string; path: string }[] = [];
  for (const c of cases) {
    if (c.check !== 'value' || !failingIds.has(c.id)) continue;
    const path = redactedPath(c);
    if (path) out.push({ id: c.id, path });
  }
  return out;
}

function find(value: Encoded, path: string, depth: number): string | undefined {
  if (depth > 32 || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = find(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  const o = value as Record<string, Encoded>;
  if (o.$t === 'redacted') return path;
  for (const [key, inner] of Object.entries(o)) {
    if (key === '$t') continue;
    const found = find(inner, o.$t !== undefined && (key === 'props' || key === 'items' || key === 'entries' || key === 'values') ? path : `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}
