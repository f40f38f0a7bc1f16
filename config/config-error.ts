/** A configuration value that does not validate; `key` names the setting (and `env` its variable). */
export class ConfigError extends Error {
  readonly code = 'SUTURE_CONFIG_INVALID';
  constructor(
    readonly key: string,
    readonly env: string | undefined,
    readonly reason: string,
  ) {
    super(`invalid configuration: ${key}${env ? ` (${env})` : ''}: ${reason}`);
    this.name = 'ConfigError';
  }
}
