import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Queue } from 'bullmq';

/** Prometheus metrics of one daemon; queue gauges are read from Redis at scrape time. */
export function createDaemonMetrics(queue: Queue) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'suture_daemon_' });
  const failures = new Counter({ name: 'suture_failures_received_total', help: 'Failure reports accepted', labelNames: ['app', 'result'] as const, registers: [registry] });
  const recorded = new Counter({ name: 'suture_recorded_calls_total', help: 'Recorded successful calls accepted (after de-duplication)', labelNames: ['app'] as const, registers: [registry] });
  const outcomes = new Counter({ name: 'suture_patched_calls_total', help: 'Patched calls reported by SDKs', labelNames: ['app', 'outcome'] as const, registers: [registry] });
  const jobsQueued = new Counter({ name: 'suture_repair_jobs_added_total', help: 'Repair jobs handed to BullMQ (duplicates included; BullMQ keeps one per job id)', registers: [registry] });
  const decisions = new Counter({ name: 'suture_rollout_decisions_total', help: 'Automatic and admin rollout decisions', labelNames: ['decision'] as const, registers: [registry] });
  const http = new Histogram({ name: 'suture_http_request_seconds', help: 'HTTP request duration', labelNames: ['route', 'method', 'status'] as const, buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5, 30], registers: [registry] });
  new Gauge({
    name: 'suture_repair_jobs',
    help: 'Repair jobs in the queue by state',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      try {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized', 'waiting-children');
        for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
      } catch {
        // Redis away: the gauge keeps its last values; /readyz says why.
      }
    },
  });
  return { registry, failures, recorded, outcomes, jobsQueued, decisions, http };
}

export type DaemonMetrics = ReturnType<typeof createDaemonMetrics>;
