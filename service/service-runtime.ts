/**
 * What every long-running suture process (daemon, worker) builds the same way: its logger, its
 * Redis client, and the check that it signs with the fleet's key.
 */
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import type { SutureConfig } from '../config/config-settings.ts';
import type { SigningKeys } from './signing-keys.ts';
import type { ServiceStore } from './store/service-store.ts';

/** Log paths never written out: tokens, keys and the LLM key wherever they appear. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'config.adminToken',
  'config.appTokens',
  'config.llmApiKey',
  '*.adminToken',
  '*.appTokens',
  '*.llmApiKey',
  '*.apiKey',
  '*.privateKey',
];

export function createServiceLogger(config: Pick<SutureConfig, 'logLevel'>, name: string): Logger {
  return pino({ name, level: config.logLevel, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
}

/** Redis client of the daemon's own requests: no offline queue, so a Redis outage is a fast 503. */
export function createRedis(url: string, extra: Record<string, unknown> = {}): Redis {
  return new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, ...extra });
}

/** A Redis URL as it may be shown: without its password. */
export function shownRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.href.replace(/\/$/, '');
  } catch {
    return url;
  }
}

/**
 * Connects the clients at start-up; a Redis that does not answer stops start-up with
 * `cannot reach Redis at <url> (<cause>)` (the clients are disconnected) instead of ioredis's
 * bare "Connection is closed".
 */
export async function connectRedis(url: string, ...clients: Redis[]): Promise<void> {
  // ioredis rejects connect() with "Connection is closed."; the reason came in an 'error' event.
  let last: Error | null = null;
  const seen = (e: Error) => (last = e);
  for (const c of clients) c.on('error', seen);
  try {
    for (const c of clients) await c.connect();
  } catch (error) {
    for (const c of clients) c.disconnect();
    const cause = (last as Error | null)?.message ?? (error as Error).message;
    throw new Error(`cannot reach Redis at ${shownRedisUrl(url)} (${cause}); start it or set SUTURE_REDIS_URL`, { cause: error });
  } finally {
    for (const c of clients) c.off('error', seen);
  }
}

/**
 * Claims the Redis prefix for this process's public key, or throws when another key already
 * signs for it: two keys under one prefix would leave half the fleet rejecting half the patches.
 */
export async function claimFleetKey(store: ServiceStore, keys: SigningKeys, prefix: string): Promise<void> {
  const fleetKey = await store.claimPublicKey(keys.publicKeyPem);
  if (fleetKey !== keys.publicKeyPem) {
    throw new Error(`signing key ${keys.origin} differs from the one this Redis prefix (${prefix}) already uses; give every daemon and worker the same key (signingKeyFile)`);
  }
}
