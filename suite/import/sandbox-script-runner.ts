/**
 * The importer's default ScriptRunner: the real sandbox, so "fails on the buggy code" means exactly
 * what it will mean when the benchmark judges a candidate (same assert semantics, same limits).
 */
import type { SandboxLimits } from '../../core/types.ts';
import { SandboxPool } from '../../engine/sandbox/index.ts';
import type { ScriptRunner } from './script-runner.ts';

export interface SandboxScriptRunnerOptions {
  /** Sandbox host processes. @defaultValue 2 */
  size?: number;
  /** Per-case limits. @defaultValue the sandbox's own defaults */
  limits?: Partial<SandboxLimits>;
}

export function createSandboxScriptRunner(options: SandboxScriptRunnerOptions = {}): { run: ScriptRunner; close: () => Promise<void> } {
  const pool = new SandboxPool({ size: options.size ?? 2, ...(options.limits ? { limits: options.limits } : {}) });
  const run: ScriptRunner = async (source, entry, script) => {
    const report = await pool.run({
      block: { source, entry },
      cases: [{ id: 'script', kind: 'test', check: 'script', script }],
    });
    return !report.compileError && report.results.length === 1 && report.results[0]!.verdict === 'pass';
  };
  return { run, close: async () => void (await pool.close()) };
}
