import assert from 'node:assert/strict';
import { Redis } from 'ioredis';

/** Asserts that no Redis key is left under the key prefix a demo run printed ("Redis keys under "PREFIX:""). */
export async function assertDemoKeysDeleted(output: string): Promise<void> {
  const prefix = /Redis keys under "([^"]+):"/.exec(output)?.[1];
  assert.ok(prefix, 'the demo names its key prefix');
  const redis = new Redis('redis://127.0.0.1:6379');
  try {
    assert.deepEqual(await redis.keys(`${prefix}:*`), [], 'every key under the demo prefix is deleted');
  } finally {
    redis.disconnect();
  }
}
