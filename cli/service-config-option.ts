import { loadConfig } from '../config/load-config.ts';
import type { SutureConfig } from '../config/config-settings.ts';
import { ConfigError } from '../config/config-error.ts';

/** Loads the service configuration for a CLI command; a bad value exits with the key named. */
export function configFromCli(opts: { config?: string; port?: string }): SutureConfig {
  try {
    return loadConfig({ file: opts.config, overrides: { port: opts.port === undefined ? undefined : Number(opts.port) } });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`suture: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}
