/**
 * Runs of the original block: the engine's baseline on the job's cases, and the same path for the
 * inputs generated around them (oracle-cases.ts), with the same limits.
 */
import type { Block, Case, SandboxLimits, TrialReport } from '../../core/types.ts';
import type { SandboxPool } from '../sandbox/index.ts';

/**
 * Runs the original on every case. A block that loops forever would cost the full limit on every case,
 * so the first pass uses a short probe limit and only the first case that timed out is run again with the
 * configured one: if it passes then, the block is merely slow and the timed-out cases are run again in full.
 */
export async function runBaseline(pool: SandboxPool, block: Block, cases: Case[], limits: SandboxLimits): Promise<TrialReport & { trials: number }> {
  const probeMs = Math.min(limits.cpuMs, 200);
  const probe = await pool.run({ block, cases, limits: { ...limits, cpuMs: probeMs, wallMs: Math.min(limits.wallMs, probeMs * 2) } });
  let trials = probe.results.length;
  const timedOut = probe.results.filter((r) => r.verdict === 'timeout').map((r) => r.caseId);
  if (timedOut.length === 0 || probeMs === limits.cpuMs) return { ...probe, trials };
  const first = cases.filter((c) => c.id === timedOut[0]);
  const check = await pool.run({ block, cases: first, limits });
  trials += check.results.length;
  if (check.results[0]?.verdict === 'timeout') {
    return { ...probe, results: probe.results.map((r) => (r.caseId === timedOut[0] ? check.results[0] : r)), trials };
  }
  const full = await pool.run({ block, cases: cases.filter((c) => timedOut.includes(c.id)), limits });
  trials += full.results.length;
  const byId = new Map(full.results.map((r) => [r.caseId, r]));
  return { ...probe, results: probe.results.map((r) => byId.get(r.caseId) ?? r), trials };
}
