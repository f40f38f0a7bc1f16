import type { SandboxLimits } from '../../core/types.ts';

/** Per-case limits used when neither the pool nor the request says otherwise. */
export const DEFAULT_LIMITS: SandboxLimits = Object.freeze({
  cpuMs: 1000,
  wallMs: 2000,
  memoryMb: 64,
  maxResultBytes: 1_000_000,
});

/** Merge partial limits over a base, ignoring keys that are not positive finite numbers. */
export function resolveLimits(base: SandboxLimits, ...overrides: Array<Partial<SandboxLimits> | undefined>): SandboxLimits {
  const out: SandboxLimits = { ...base };
  for (const o of overrides) {
    if (!o) continue;
    for (const key of ['cpuMs', 'wallMs', 'memoryMb', 'maxResultBytes'] as const) {
      const v = o[key];
      if (typeof v === 'number' && Number.isFinite(v) && v > 0) out[key] = v;
    }
  }
  // isolated-vm refuses isolates under 8 MB.
  out.memoryMb = Math.max(8, Math.round(out.memoryMb));
  return out;
}
