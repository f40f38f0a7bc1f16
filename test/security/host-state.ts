import { readdirSync } from 'node:fs';

/** Prototypes whose own keys a polluting program would change. */
const PROTOTYPES: Record<string, object> = {
  Object: Object.prototype,
  Array: Array.prototype,
  Function: Function.prototype,
  String: String.prototype,
  Number: Number.prototype,
  Boolean: Boolean.prototype,
  Promise: Promise.prototype,
  Error: Error.prototype,
  RegExp: RegExp.prototype,
  Map: Map.prototype,
  Set: Set.prototype,
};

/**
 * A description of everything of this process a hostile program could change: own keys of the
 * built-in prototypes and of globalThis, the environment, and the files in `dir`. Two equal strings
 * mean nothing visible changed.
 */
export function hostState(dir: string): string {
  const protos = Object.fromEntries(Object.entries(PROTOTYPES).map(([k, p]) => [k, Reflect.ownKeys(p).map(String).sort()]));
  return JSON.stringify({
    protos,
    globals: Reflect.ownKeys(globalThis).map(String).sort(),
    env: Object.entries(process.env).sort(([a], [b]) => (a < b ? -1 : 1)),
    files: readdirSync(dir).sort(),
    errorHooks: [typeof (Error as { prepareStackTrace?: unknown }).prepareStackTrace, Error.stackTraceLimit],
  });
}

/** The parts of two {@link hostState} descriptions that differ, short enough for an assertion message. */
export function stateChanges(before: string, after: string): string {
  if (before === after) return '';
  const a = JSON.parse(before) as Record<string, unknown>;
  const b = JSON.parse(after) as Record<string, unknown>;
  const out: string[] = [];
  const flat = (o: unknown, path: string, into: Map<string, string>) => {
    if (o !== null && typeof o === 'object' && !Array.isArray(o)) for (const [k, v] of Object.entries(o)) flat(v, `${path}.${k}`, into);
    else into.set(path, JSON.stringify(o));
  };
  const fa = new Map<string, string>();
  const fb = new Map<string, string>();
  flat(a, '', fa);
  flat(b, '', fb);
  for (const [k, v] of fb) {
    if (fa.get(k) === v) continue;
    const was = JSON.parse(fa.get(k) ?? 'null') as unknown;
    const now = JSON.parse(v) as unknown;
    if (Array.isArray(was) && Array.isArray(now)) {
      const ws = new Set(was.map((x) => JSON.stringify(x)));
      const ns = new Set(now.map((x) => JSON.stringify(x)));
      out.push(`${k}: +[${[...ns].filter((x) => !ws.has(x)).join(', ')}] -[${[...ws].filter((x) => !ns.has(x)).join(', ')}]`);
    } else out.push(`${k}: ${fa.get(k)} -> ${v}`);
  }
  return out.join('; ');
}
