import type { Queue } from 'bullmq';
import type { SutureConfig } from '../config/config-settings.ts';
import { repairJobId, repairJobOptions, type RepairJobData } from '../service/repair-queue.ts';
import type { ServiceStore } from '../service/store/service-store.ts';

/** Hands bugs to the repair queue: one job per bug round, the job id derived from the fingerprint. */
export class RepairScheduler {
  constructor(
    readonly queue: Queue<RepairJobData>,
    readonly store: ServiceStore,
    readonly config: Pick<SutureConfig, 'jobAttempts' | 'jobBackoffMs'>,
    readonly onAdded: () => void = () => {},
  ) {}

  /** Adds the job of a bug round; BullMQ ignores the add when a job with that id exists. */
  async schedule(fingerprint: string, app: string, round: number): Promise<string> {
    const jobId = repairJobId(fingerprint, round);
    await this.queue.add('repair', { fingerprint, app, round }, { ...repairJobOptions(this.config), jobId });
    this.onAdded();
    return jobId;
  }

  /**
   * Adds the jobs of many bug rounds with one addBulk (duplicates by job id are added once;
   * BullMQ ignores jobs whose id exists). Returns the job ids in the order given.
   */
  async scheduleMany(rounds: readonly RepairJobData[]): Promise<string[]> {
    const ids = rounds.map((r) => repairJobId(r.fingerprint, r.round));
    const distinct = new Map<string, RepairJobData>();
    rounds.forEach((r, i) => distinct.set(ids[i], r));
    if (distinct.size === 0) return ids;
    const options = repairJobOptions(this.config);
    await this.queue.addBulk([...distinct].map(([jobId, data]) => ({ name: 'repair', data, opts: { ...options, jobId } })));
    for (let i = 0; i < distinct.size; i++) this.onAdded();
    return ids;
  }

  /** Opens the bug's next round (a new patch version may follow) and queues it. */
  async requeue(fingerprint: string, app: string): Promise<string | null> {
    const round = await this.store.requeueBug(fingerprint);
    if (round < 0) return null;
    return this.schedule(fingerprint, app, round);
  }
}
