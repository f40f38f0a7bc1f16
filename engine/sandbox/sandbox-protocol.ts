/** Messages between the SandboxPool (parent) and a sandbox host process (child), over IPC. */
import type { SandboxLimits, TrialReport, TrialRequest, TrialResult } from '../../core/types.ts';

export type ToHostMessage =
  | { type: 'run'; id: number; request: TrialRequest; limits: SandboxLimits }
  | { type: 'exit' };

export type FromHostMessage =
  | { type: 'ready' }
  /** One finished case, sent before the next starts, so a crash loses only the case in flight. */
  | { type: 'result'; id: number; result: TrialResult }
  | { type: 'done'; id: number; report: TrialReport }
  /** The host itself failed (not the candidate); it exits right after. */
  | { type: 'failed'; id: number; message: string };
