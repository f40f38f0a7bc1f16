import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { SutureConfig } from '../config/config-settings.ts';
import type { EventBus } from './event-bus.ts';
import type { RepairJobData } from '../service/repair-queue.ts';
import type { RepairScheduler } from './repair-scheduler.ts';
import type { RouteAuth } from './route-auth.ts';
import type { DaemonMetrics } from './service-metrics.ts';
import type { SigningKeys } from '../service/signing-keys.ts';
import type { ServiceStore } from '../service/store/service-store.ts';

/** What every route needs; built once by the daemon. */
export interface DaemonContext {
  config: SutureConfig;
  redis: Redis;
  store: ServiceStore;
  queue: Queue<RepairJobData>;
  scheduler: RepairScheduler;
  bus: EventBus;
  auth: RouteAuth;
  metrics: DaemonMetrics;
  keys: SigningKeys;
  log: Logger;
}
