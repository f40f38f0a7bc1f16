import { Queue, type JobsOptions } from 'bullmq';
import type { SutureConfig } from '../config/config-settings.ts';

/** BullMQ queue name; with the configured prefix the queue's keys are `<prefix>:repair:*`. */
export const REPAIR_QUEUE = 'repair';

export interface RepairJobData {
  fingerprint: string;
  app: string;
  /** The bug's round: a rollback or a new input after a failed search opens the next one. */
  round: number;
}

/** One open job per bug: the fingerprint for the first round, `<fingerprint>-r<n>` after that. */
export function repairJobId(fingerprint: string, round: number): string {
  return round <= 1 ? fingerprint : `${fingerprint}-r${round}`;
}

export function repairJobOptions(config: Pick<SutureConfig, 'jobAttempts' | 'jobBackoffMs'>): JobsOptions {
  return {
    attempts: config.jobAttempts,
    backoff: { type: 'exponential', delay: config.jobBackoffMs },
    // Finished jobs are kept a week so their progress stays visible; the bug's status, not the
    // job's presence, decides whether a new failure queues a repair.
    removeOnComplete: { age: 7 * 86_400 },
    removeOnFail: { age: 30 * 86_400 },
  };
}

/** BullMQ connection options from a Redis URL. */
export function bullConnection(redisUrl: string, extra: Record<string, unknown> = {}) {
  return { url: redisUrl, ...extra };
}

export function createRepairQueue(config: Pick<SutureConfig, 'redisUrl' | 'prefix'>): Queue<RepairJobData> {
  // Fail fast while Redis is away: ingest answers 503 instead of holding requests.
  return new Queue<RepairJobData>(REPAIR_QUEUE, {
    prefix: config.prefix,
    connection: bullConnection(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }),
  });
}
