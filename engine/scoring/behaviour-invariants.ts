import type { Case, Encoded, TrialResult } from '../../core/types.ts';

/**
 * What the block's known-good behaviour says about its values, learned from the cases with an expected value
 * (recorded calls and tests). A failure case only asks "must not throw", and the cheapest way not to throw is
 * to return nothing or let NaN flow on (`enemy.stats?.armor` makes the damage NaN). Such a result is not a fix:
 * a candidate's result on a failure case must be of a kind the block is known to return, and NaN must not
 * appear in its result or arguments unless known-good behaviour has it too.
 */
export interface BehaviourInvariants {
  /** Kinds of top-level return values seen in known-good calls; empty when there were none. */
  returnKinds: Set<string>;
  /** NaN appears somewhere in a known-good result or argument state. */
  nanSeen: boolean;
  /** Keys every known-good plain-object result has (undefined when no result was a plain object). */
  objectKeys?: Set<string>;
}

export function deriveInvariants(cases: Case[]): BehaviourInvariants {
  const returnKinds = new Set<string>();
  let nanSeen = false;
  let objectKeys: Set<string> | undefined;
  for (const c of cases) {
    if (c.check !== 'value') continue;
    returnKinds.add(kindOf(c.expect === undefined ? { $t: 'undefined' } : c.expect));
    if (kindOf(c.expect) === 'object') {
      const keys = Object.keys(c.expect as object);
      objectKeys = objectKeys ? new Set(keys.filter((k) => objectKeys!.has(k))) : new Set(keys);
    }
    if (containsNaN(c.expect) || (c.argsAfter ?? []).some(containsNaN) || (c.args ?? []).some(containsNaN)) nanSeen = true;
  }
  return { returnKinds, nanSeen, objectKeys };
}

/** Why a passing no-throw trial breaks the invariants, or undefined when it keeps them. */
export function invariantViolation(inv: BehaviourInvariants, trial: TrialResult): string | undefined {
  if (trial.verdict !== 'pass' || trial.actual === undefined) return undefined;
  if (inv.returnKinds.size > 0) {
    const kind = kindOf(trial.actual);
    if (!inv.returnKinds.has(kind)) return `returned ${kind} where known-good calls return ${[...inv.returnKinds].join(' or ')}`;
    if (kind === 'object' && inv.objectKeys) {
      const missing = [...inv.objectKeys].filter((k) => !Object.hasOwn(trial.actual as object, k));
      if (missing.length > 0) return `returned an object without ${missing.join(', ')}, which every known-good result has`;
    }
  }
  if (!inv.nanSeen && (containsNaN(trial.actual) || (trial.actualArgsAfter ?? []).some(containsNaN))) {
    return 'NaN in the result or the arguments, never seen in known-good calls';
  }
  return undefined;
}

/** The kind of an encoded value: JSON types, or the snapshot tag (`undefined`, `date`, `map`…); NaN is `nan`. */
export function kindOf(value: Encoded): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') {
    const tag = (value as { $t?: unknown }).$t;
    if (typeof tag !== 'string') return 'object';
    if (tag === 'number') return (value as { v?: unknown }).v === 'NaN' ? 'nan' : 'number';
    if (tag === 'array') return 'array';
    return tag;
  }
  return typeof value;
}

function containsNaN(value: Encoded, depth = 0): boolean {
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => containsNaN(v, depth + 1));
  const o = value as Record<string, unknown>;
  if (o.$t === 'number') return o.v === 'NaN';
  return Object.values(o).some((v) => containsNaN(v, depth + 1));
}
