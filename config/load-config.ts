import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.ts';
import { SETTINGS, configSchema, type SettingSpec, type SutureConfig } from './config-settings.ts';

export interface LoadConfigOptions {
  /** Environment to read `SUTURE_*` (and `OPENAI_*`) variables from. @defaultValue process.env */
  env?: Record<string, string | undefined>;
  /** JSON config file (keys as in the schema). @defaultValue env.SUTURE_CONFIG */
  file?: string;
  /** Values that win over the file and the environment (CLI flags, tests). */
  overrides?: Partial<Record<keyof SutureConfig, unknown>>;
}

/**
 * Builds the configuration from defaults < config file < environment < overrides and validates
 * it once. Throws a {@link ConfigError} naming the first bad key.
 */
export function loadConfig(options: LoadConfigOptions = {}): SutureConfig {
  const env = options.env ?? process.env;
  const raw: Record<string, unknown> = {};
  const source: Record<string, string> = {};
  const file = options.file ?? env.SUTURE_CONFIG;
  if (file) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new ConfigError('config file', 'SUTURE_CONFIG', `${file}: ${(error as Error).message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError('config file', 'SUTURE_CONFIG', `${file}: must hold a JSON object`);
    for (const [k, v] of Object.entries(parsed)) {
      raw[k] = v;
      source[k] = `in ${file}`;
    }
  }
  for (const s of SETTINGS as readonly SettingSpec[]) {
    const value = env[s.env];
    if (value !== undefined && value !== '') {
      raw[s.key] = s.fromEnv(value);
      source[s.key] = s.env;
    }
  }
  for (const [k, v] of Object.entries(options.overrides ?? {})) if (v !== undefined) raw[k] = v;

  const result = configSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const key = issue.path.length ? issue.path.map(String).join('.') : String((issue as { keys?: string[] }).keys?.[0] ?? 'config');
    const top = String(issue.path[0] ?? (issue as { keys?: string[] }).keys?.[0] ?? '');
    const spec = (SETTINGS as readonly SettingSpec[]).find((s) => s.key === top);
    const where = source[top] && source[top] !== spec?.env ? ` ${source[top]}` : '';
    throw new ConfigError(key + where, spec?.env, issue.code === 'unrecognized_keys' ? 'unknown setting' : issue.message);
  }
  const config = result.data;
  if (config.generators.includes('llm') && !config.llmModel) throw new ConfigError('llmModel', 'SUTURE_LLM_MODEL', 'required when generators include llm');
  return config;
}

/** The configuration with secrets replaced by `[set]`, for logs and `--print-config`. */
export function describeConfig(config: SutureConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of SETTINGS as readonly SettingSpec[]) {
    const v = (config as Record<string, unknown>)[s.key];
    out[s.key] = s.secret && v !== undefined ? (typeof v === 'object' ? Object.fromEntries(Object.keys(v as object).map((k) => [k, '[set]'])) : '[set]') : v;
  }
  return out;
}

/** Help text listing every setting with its environment variable and default. */
export function settingsHelp(): string {
  const rows = (SETTINGS as readonly SettingSpec[]).map((s) => [s.env, s.key, s.shownDefault ?? '(unset)', s.description]);
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  const w2 = Math.max(...rows.map((r) => r[2].length));
  return [
    'Settings (environment variable, config-file key, default). A JSON config file given with --config or',
    'SUTURE_CONFIG sets the same keys; the environment wins over the file, flags over both.',
    ...rows.map((r) => `  ${r[0].padEnd(w0)}  ${r[1].padEnd(w1)}  ${r[2].padEnd(w2)}  ${r[3]}`),
  ].join('\n');
}
