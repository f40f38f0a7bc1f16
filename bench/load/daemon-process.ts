/**
 * A daemon in its own process for load benchmarks, so the figure measures the daemon and not the
 * load generator sharing its event loop. Reads the full configuration as JSON from
 * SUTURE_BENCH_CONFIG, prints `{"url": ...}` on one line once listening, closes on SIGTERM.
 */
import { pino } from 'pino';
import type { SutureConfig } from '../../config/config-settings.ts';
import { createDaemon } from '../../daemon/daemon-server.ts';

const config = JSON.parse(process.env.SUTURE_BENCH_CONFIG ?? '') as SutureConfig;
const daemon = await createDaemon(config, { logger: pino({ level: 'warn' }) });
const url = await daemon.listen();
process.stdout.write(`${JSON.stringify({ url })}\n`);
process.once('SIGTERM', () => {
  daemon.close().finally(() => process.exit(0));
});
