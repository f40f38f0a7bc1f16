/**
 * The re-check before signing: the search's winner runs again, in a sandbox pool of its own (a new
 * host process that never ran a search trial), on every case of the job, each case in a fresh
 * context, without stopping at the first failure. The search ran a candidate's cases one after the
 * other in one context and stopped at the first failure; a winner whose verdict leans on state left
 * by an earlier case, on the search host, or on luck gets a different verdict here, and a patch
 * whose second verdict differs from the first is never signed.
 */
import type { Block, Case, SandboxLimits, TrialError, TrialVerdict, TrialResult } from '../core/types.ts';
import { deriveInvariants, invariantViolation, describeFailure, SandboxPool } from '../engine/index.ts';

/** A case whose re-check verdict is not the search's `pass`. */
export interface RecheckDifference {
  caseId: string;
  kind: string;
  /** The search's verdict for this case (`not run` when its trial table has no row for it). */
  search: TrialVerdict | 'not run';
  /** The re-check's verdict (`not re-checked` for a case the search ran that the re-check could not). */
  recheck: TrialVerdict | 'not re-checked';
  message?: string;
}

export interface RecheckResult {
  /** True when any case is not `pass` on the re-check: the winner must not be signed. */
  refused: boolean;
  passed: number;
  total: number;
  differing: RecheckDifference[];
  /** Pid of the sandbox host the re-check ran in (never one of the search's). */
  hostPid?: number;
  ms: number;
}

/**
 * Re-runs `winner` on every case in a fresh sandbox pool and compares with the search's verdict
 * (`searchTrials`, the winner's trial table). Cases the search ran that are missing from `cases`
 * count as differing: a verdict the re-check cannot reproduce is not signed either.
 * Rejects only when no sandbox host can start (then nothing is signed either).
 */
export async function recheckWinner(p: {
  block: Block;
  winner: { source: string; trials: readonly TrialResult[] };
  cases: readonly Case[];
  limits: Partial<SandboxLimits>;
  /** The original answers synchronously: so must the winner (see TrialRequest.synchronous). */
  synchronous?: boolean;
}): Promise<RecheckResult> {
  const started = performance.now();
  const candidate: Block = { ...p.block, source: p.winner.source };
  const searchVerdict = new Map(p.winner.trials.map((t) => [t.caseId, t.verdict] as const));
  const invariants = deriveInvariants([...p.cases]);
  const pool = new SandboxPool({ size: 1, limits: p.limits });
  let hostPid: number | undefined;
  const differing: RecheckDifference[] = [];
  let passed = 0;
  try {
    // One request per case: each case starts in a fresh compartment, whatever ran before it.
    const reports = await Promise.all(p.cases.map((c) => pool.run({ block: candidate, cases: [c], synchronous: p.synchronous === true })));
    hostPid = pool.hostPids()[0];
    p.cases.forEach((c, i) => {
      const report = reports[i];
      const result = report.compileError ? undefined : report.results[0];
      const judged = judge(c, result, report.compileError, invariants);
      if (judged.verdict === 'pass') passed++;
      else differing.push({ caseId: c.id, kind: c.kind, search: searchVerdict.get(c.id) ?? 'not run', recheck: judged.verdict, message: judged.message });
    });
  } finally {
    await pool.close();
  }
  const known = new Set(p.cases.map((c) => c.id));
  for (const t of p.winner.trials) {
    if (!known.has(t.caseId)) differing.push({ caseId: t.caseId, kind: 'unknown', search: t.verdict, recheck: 'not re-checked', message: 'the search ran this case; the re-check has no such case' });
  }
  return { refused: differing.length > 0, passed, total: p.cases.length, differing, hostPid, ms: performance.now() - started };
}

function judge(c: Case, result: TrialResult | undefined, compileError: TrialError | undefined, invariants: ReturnType<typeof deriveInvariants>): { verdict: TrialVerdict; message?: string } {
  if (compileError) return { verdict: 'threw', message: `does not compile: ${compileError.name}: ${compileError.message}` };
  if (!result) return { verdict: 'crashed', message: 'no result from the sandbox' };
  if (result.verdict !== 'pass') return { verdict: result.verdict, message: describeFailure(result) };
  // The search judged failing inputs by the same invariants (a result of a kind never seen, NaN).
  const why = c.check === 'no-throw' ? invariantViolation(invariants, result) : undefined;
  return why ? { verdict: 'wrong-result', message: why } : { verdict: 'pass' };
}
