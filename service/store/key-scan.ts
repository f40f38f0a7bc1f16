import type { Redis } from 'ioredis';

/** Every key matching `pattern` (SCAN, so Redis is never blocked the way KEYS would block it). */
export async function scanKeys(redis: Redis, pattern: string, count = 1000): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', count);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  return keys;
}

/** Deletes every key under `prefix:` (tests, benches and the demo clean up after themselves); returns how many. */
export async function deleteKeysUnder(redis: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (found.length) deleted += await redis.unlink(...found);
  } while (cursor !== '0');
  return deleted;
}
