import type { Policy } from '../config/config-settings.ts';
import type { ServiceStore } from './store/service-store.ts';

/**
 * The policy of one block: an admin setting in Redis wins over the configuration, a block's
 * setting over its app's, and the configured default applies last.
 */
export async function resolvePolicy(store: ServiceStore, config: { policy: Policy; policies: Record<string, Policy> }, app: string, blockId: string): Promise<Policy> {
  const stored = await store.getPolicies();
  const pick = (key: string) => (stored[key] as Policy | undefined) ?? config.policies[key];
  return pick(`${app}/${blockId}`) ?? pick(app) ?? config.policy;
}
