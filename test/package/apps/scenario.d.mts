import type { createRepairClient } from '@suture/sdk';

type Outcome = { value?: unknown; threw?: string; health: number };
export interface ScenarioSummary {
  known: unknown[];
  repaired: Outcome;
  viaWait: string[];
  later: Outcome;
  laterCalls: number;
  patched: string[];
  healthy: unknown;
  errors: string[];
}
export function scenario(create: typeof createRepairClient, env: NodeJS.ProcessEnv): Promise<ScenarioSummary>;
