import { availableParallelism, homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

export type Policy = 'auto' | 'canary' | 'manual';

/** One configurable setting: its key in the config file, its environment variable and its default. */
export interface SettingSpec {
  key: string;
  env: string;
  description: string;
  /** Default as shown in `--help` (undefined: no default, the setting is optional). */
  shownDefault?: string;
  schema: z.ZodType;
  /** Turns the environment variable's text into the value the schema checks. */
  fromEnv: (text: string) => unknown;
  /** Secrets are never printed (help shows only whether they are set). */
  secret?: boolean;
}

const text = (s: string) => s;
const integer = (s: string) => (/^-?\d+$/.test(s.trim()) ? Number(s) : s);
const number = (s: string) => (s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : s);
const bool = (s: string) => (/^(1|true|yes|on)$/i.test(s) ? true : /^(0|false|no|off)$/i.test(s) ? false : s);
const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

/** `app:token,app2:token2` → `{ app: 'token', app2: 'token2' }`; malformed pairs are left for the schema to reject. */
function appTokens(s: string): unknown {
  const out: Record<string, string> = {};
  for (const pair of list(s)) {
    const i = pair.indexOf(':');
    if (i <= 0 || i === pair.length - 1) return s;
    out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}

/** `app=canary,app/block=manual` → `{ app: 'canary', 'app/block': 'manual' }`. */
function policies(s: string): unknown {
  const out: Record<string, string> = {};
  for (const pair of list(s)) {
    const i = pair.indexOf('=');
    if (i <= 0) return s;
    out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}

/**
 * Where the daemon keeps its state (the private signing key among it) unless told: a per-user
 * state folder, never the working directory, where a key could end up committed.
 * $XDG_STATE_HOME/suture, else ~/.local/state/suture (%LOCALAPPDATA%\suture on Windows).
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  if (env.XDG_STATE_HOME) return join(env.XDG_STATE_HOME, 'suture');
  if (process.platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'suture');
  return join(home, '.local', 'state', 'suture');
}

const port = z.number().int().min(0).max(65535);
const positiveInt = z.number().int().min(1);
const ratio = z.number().min(0).max(1);
const policy = z.enum(['auto', 'canary', 'manual']);
const name = z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'letters, digits, ".", "_" or "-" (1 to 100)');

/** Every setting of the daemon and the worker, in the order `--help` lists them. */
export const SETTINGS = [
  { key: 'port', env: 'SUTURE_PORT', shownDefault: '7070', schema: port.default(7070), fromEnv: integer, description: 'HTTP port of the daemon (0 picks a free port)' },
  { key: 'host', env: 'SUTURE_HOST', shownDefault: '0.0.0.0', schema: z.string().min(1).default('0.0.0.0'), fromEnv: text, description: 'address the daemon listens on' },
  { key: 'redisUrl', env: 'SUTURE_REDIS_URL', shownDefault: 'redis://127.0.0.1:6379', schema: z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').default('redis://127.0.0.1:6379'), fromEnv: text, description: 'Redis shared by every daemon and worker (maxmemory-policy noeviction)' },
  { key: 'prefix', env: 'SUTURE_PREFIX', shownDefault: 'suture', schema: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "_" or "-"').default('suture'), fromEnv: text, description: 'prefix of every Redis key and of the BullMQ queue' },
  { key: 'adminToken', env: 'SUTURE_ADMIN_TOKEN', schema: z.string().min(16, 'must be at least 16 characters').optional(), fromEnv: text, secret: true, description: 'Bearer token of the admin API (admin routes answer 401 while unset)' },
  { key: 'appTokens', env: 'SUTURE_APP_TOKENS', shownDefault: '(none)', schema: z.record(name, z.string().min(8, 'tokens must be at least 8 characters'), { error: 'expected app:token pairs separated by commas' }).default({}), fromEnv: appTokens, secret: true, description: 'app tokens, `app:token,app2:token2`' },
  { key: 'dataDir', env: 'SUTURE_DATA_DIR', shownDefault: '~/.local/state/suture', schema: z.string().min(1).default(defaultDataDir()), fromEnv: text, description: 'local state: the Ed25519 key pair is generated here on first start ($XDG_STATE_HOME/suture when set; never the working directory)' },
  { key: 'signingKeyFile', env: 'SUTURE_SIGNING_KEY_FILE', schema: z.string().min(1).optional(), fromEnv: text, description: 'Ed25519 private key (PEM) to sign patches with, instead of <dataDir>/signing-key.pem; give every machine the same one' },
  { key: 'policy', env: 'SUTURE_POLICY', shownDefault: 'auto', schema: policy.default('auto'), fromEnv: text, description: 'default publication policy: auto, canary or manual' },
  { key: 'policies', env: 'SUTURE_POLICIES', shownDefault: '(none)', schema: z.record(z.string().regex(/^[^/\s]+(\/[^\s]+)?$/, 'keys are app or app/blockId'), policy, { error: 'expected app=policy or app/blockId=policy pairs separated by commas' }).default({}), fromEnv: policies, description: 'policy per app or block, `app=canary,app/blockId=manual` (the admin API can change them later)' },
  { key: 'generators', env: 'SUTURE_GENERATORS', shownDefault: 'template', schema: z.array(z.enum(['template', 'llm'])).min(1).default(['template']), fromEnv: list, description: 'candidate generators: template, llm or template,llm' },
  { key: 'llmBaseUrl', env: 'OPENAI_BASE_URL', schema: z.url().optional(), fromEnv: text, description: 'OpenAI-compatible endpoint of the LLM generator' },
  { key: 'llmApiKey', env: 'OPENAI_API_KEY', schema: z.string().optional(), fromEnv: text, secret: true, description: 'API key of the LLM endpoint' },
  { key: 'llmModel', env: 'SUTURE_LLM_MODEL', schema: z.string().min(1).optional(), fromEnv: text, description: 'model name; required when generators include llm' },
  { key: 'llmSamples', env: 'SUTURE_LLM_SAMPLES', shownDefault: '4', schema: z.number().int().min(1).max(32).default(4), fromEnv: integer, description: 'candidates asked of the LLM per round, as that many parallel requests (1 to 32)' },
  { key: 'budgetMs', env: 'SUTURE_BUDGET_MS', shownDefault: '30000', schema: positiveInt.default(30_000), fromEnv: integer, description: 'search budget of one repair job, ms' },
  { key: 'maxCandidates', env: 'SUTURE_MAX_CANDIDATES', shownDefault: '20000', schema: positiveInt.default(20_000), fromEnv: integer, description: 'most candidates tried per job' },
  { key: 'sandboxSize', env: 'SUTURE_SANDBOX_SIZE', shownDefault: 'CPU count', schema: positiveInt.default(availableParallelism()), fromEnv: integer, description: 'sandbox host processes per worker' },
  { key: 'sandboxCpuMs', env: 'SUTURE_SANDBOX_CPU_MS', shownDefault: '1000', schema: positiveInt.default(1000), fromEnv: integer, description: 'CPU time per case in the sandbox, ms' },
  { key: 'sandboxWallMs', env: 'SUTURE_SANDBOX_WALL_MS', shownDefault: '2000', schema: positiveInt.default(2000), fromEnv: integer, description: 'wall-clock time per case in the sandbox, ms' },
  { key: 'sandboxMemoryMb', env: 'SUTURE_SANDBOX_MEMORY_MB', shownDefault: '64', schema: positiveInt.default(64), fromEnv: integer, description: 'isolate heap limit, MB' },
  { key: 'workerConcurrency', env: 'SUTURE_WORKER_CONCURRENCY', shownDefault: '1', schema: positiveInt.default(1), fromEnv: integer, description: 'repair jobs one worker process runs at once' },
  { key: 'jobAttempts', env: 'SUTURE_JOB_ATTEMPTS', shownDefault: '3', schema: positiveInt.default(3), fromEnv: integer, description: 'attempts per repair job before it fails' },
  { key: 'jobBackoffMs', env: 'SUTURE_JOB_BACKOFF_MS', shownDefault: '5000', schema: z.number().int().min(0).default(5000), fromEnv: integer, description: 'first retry delay, doubled each attempt, ms' },
  { key: 'lockDurationMs', env: 'SUTURE_LOCK_DURATION_MS', shownDefault: '30000', schema: z.number().int().min(1000).default(30_000), fromEnv: integer, description: 'job lock; a worker silent this long (killed) loses its job to another' },
  { key: 'stalledIntervalMs', env: 'SUTURE_STALLED_INTERVAL_MS', shownDefault: '30000', schema: z.number().int().min(500).default(30_000), fromEnv: integer, description: 'how often workers look for stalled jobs, ms' },
  { key: 'keepCandidates', env: 'SUTURE_KEEP_CANDIDATES', shownDefault: '50', schema: z.number().int().min(0).default(50), fromEnv: integer, description: 'candidate reports (diff, score, trial table) kept per job for the admin API' },
  { key: 'canarySteps', env: 'SUTURE_CANARY_STEPS', shownDefault: '0.1,0.5,1', schema: z.array(ratio.positive()).min(1).refine((a) => a.every((v, i) => i === 0 || v > a[i - 1]) && a[a.length - 1] === 1, 'must increase and end with 1').default([0.1, 0.5, 1]), fromEnv: (s: string) => list(s).map(number), description: 'canary rollout shares, increasing, ending with 1' },
  { key: 'canaryCleanCalls', env: 'SUTURE_CANARY_CLEAN_CALLS', shownDefault: '100', schema: positiveInt.default(100), fromEnv: integer, description: 'clean patched calls needed at a canary step before the next step' },
  { key: 'rollbackThreshold', env: 'SUTURE_ROLLBACK_THRESHOLD', shownDefault: '0.05', schema: ratio.default(0.05), fromEnv: number, description: 'share of patched calls that throw above which a patch is rolled back' },
  { key: 'rollbackMinCalls', env: 'SUTURE_ROLLBACK_MIN_CALLS', shownDefault: '20', schema: positiveInt.default(20), fromEnv: integer, description: 'patched calls seen before the rollback threshold applies' },
  { key: 'requeueOnRollback', env: 'SUTURE_REQUEUE_ON_ROLLBACK', shownDefault: 'true', schema: z.boolean().default(true), fromEnv: bool, description: 'queue the bug again after an automatic rollback, with the failing patched inputs as cases' },
  { key: 'maxBodyBytes', env: 'SUTURE_MAX_BODY_BYTES', shownDefault: '1048576', schema: positiveInt.default(1_048_576), fromEnv: integer, description: 'largest request body accepted, bytes' },
  { key: 'maxSnapshotBytes', env: 'SUTURE_MAX_SNAPSHOT_BYTES', shownDefault: '262144', schema: positiveInt.default(262_144), fromEnv: integer, description: 'largest snapshot (args, result) accepted per call, bytes of JSON' },
  { key: 'maxSnapshotDepth', env: 'SUTURE_MAX_SNAPSHOT_DEPTH', shownDefault: '64', schema: positiveInt.default(64), fromEnv: integer, description: 'deepest nesting accepted in a snapshot' },
  { key: 'maxCasesPerBug', env: 'SUTURE_MAX_CASES_PER_BUG', shownDefault: '50', schema: positiveInt.default(50), fromEnv: integer, description: 'distinct failing inputs kept per bug' },
  { key: 'maxRecordedPerBlock', env: 'SUTURE_MAX_RECORDED_PER_BLOCK', shownDefault: '200', schema: positiveInt.default(200), fromEnv: integer, description: 'distinct recorded successful calls kept per block' },
  { key: 'requestIdTtlSeconds', env: 'SUTURE_REQUEST_ID_TTL_SECONDS', shownDefault: '86400', schema: positiveInt.default(86_400), fromEnv: integer, description: 'how long a request id is remembered for de-duplication, s' },
  { key: 'longPollMaxMs', env: 'SUTURE_LONG_POLL_MAX_MS', shownDefault: '30000', schema: z.number().int().min(0).default(30_000), fromEnv: integer, description: 'longest wait accepted by GET /v1/failures/:fingerprint/patch?wait=' },
  { key: 'auditMax', env: 'SUTURE_AUDIT_MAX', shownDefault: '10000', schema: positiveInt.default(10_000), fromEnv: integer, description: 'audit log entries kept' },
  { key: 'logLevel', env: 'SUTURE_LOG_LEVEL', shownDefault: 'info', schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'), fromEnv: text, description: 'pino log level' },
] as const satisfies readonly SettingSpec[];

type Settings = typeof SETTINGS;
type Shape = { [S in Settings[number] as S['key']]: S['schema'] };

/** The one schema of daemon and worker configuration. */
export const configSchema = z.strictObject(Object.fromEntries(SETTINGS.map((s) => [s.key, s.schema])) as unknown as Shape);

export type SutureConfig = z.output<typeof configSchema>;
