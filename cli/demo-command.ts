import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { loadConfig } from '../config/load-config.ts';
import { createDaemon, type Daemon } from '../daemon/daemon-server.ts';
import { GAME_APP } from '../demo/game-loop.ts';
import { ensureRedis, RedisMissingError, type RedisHandle } from '../demo/local-redis.ts';
import { startRepairWorker, type RepairWorkerHandle } from '../worker/repair-worker.ts';
import { AdminClient } from './admin-client.ts';
import { attackScenario } from './demo-attack.ts';
import { enemyScenario } from './demo-enemy.ts';
import { out, resetSections, section } from './demo-output.ts';
import { publicKeyId } from './key-id.ts';
import { deleteKeysUnder } from '../service/store/key-scan.ts';

/** The demo's scenarios: `attack` (the default), `enemy`, or `all` (both, one after the other, on one daemon and worker). */
export const DEMO_SCENARIOS = ['attack', 'enemy', 'all'] as const;
export type DemoScenarioName = (typeof DEMO_SCENARIOS)[number];

export interface DemoOptions {
  /** Search budget of the repair job, ms. @defaultValue 20000 */
  budgetMs: number;
  /** Redis to use (else a private redis-server is started). @defaultValue SUTURE_REDIS_URL or redis://127.0.0.1:6379 */
  redisUrl: string;
  /** Longest the whole demo waits for the patch before it gives up, ms. @defaultValue 90000 */
  deadlineMs: number;
  /** Which scenario to run. @defaultValue 'attack' */
  scenario?: DemoScenarioName;
}

export function demoCommand(): Command {
  return new Command('demo')
    .description('The whole loop: starts a daemon and a worker, runs a small game on the SDK that hits a bug, and shows suture repair it live; stops everything at the end')
    .option('--budget <seconds>', 'search budget of the repair job, seconds', (v) => positive(v), 20)
    .option('--scenario <name>', `which bug to repair: ${DEMO_SCENARIOS.join(', ')}`, (v) => scenarioName(v), 'attack')
    .addHelpText('after', [
      '\nScenarios:',
      '  attack  applyAttack(player, enemy) throws on an enemy without stats; the patch is `enemy.stats?.armor ?? 0`',
      '  enemy   the enemy AI block `pause.run({ id: \'enemy-ai-move-towards-player\', …, uses: { getPlayerCoordinates, self, moveRight } }, …)`',
      '          throws after its move when the enemy steps onto a teleporter pad (its position is null in transit);',
      '          the patch runs on the live enemy, which keeps closing in on the player, never moving twice in a tick',
      '  all     both, one after the other',
      '\nUses the Redis at SUTURE_REDIS_URL (default redis://127.0.0.1:6379), or starts a private redis-server.\nSet OPENAI_API_KEY (and SUTURE_LLM_MODEL, OPENAI_BASE_URL) to add the LLM generator.',
    ].join('\n'))
    .action(async (opts) => {
      process.exitCode = await runDemo({ budgetMs: opts.budget * 1000, redisUrl: process.env.SUTURE_REDIS_URL ?? 'redis://127.0.0.1:6379', deadlineMs: 90_000, scenario: opts.scenario });
    });
}

/** Runs the demo; returns the exit code. Everything it starts is stopped and its Redis keys deleted. */
export async function runDemo(o: DemoOptions): Promise<number> {
  const started = Date.now();
  const cleanups: [string, () => Promise<unknown>][] = [];
  const scenarios = o.scenario === 'all' ? [attackScenario, enemyScenario] : [o.scenario === 'enemy' ? enemyScenario : attackScenario];
  resetSections();
  out(scenarios[0].intro.join('\n'));

  section('Starting suture');
  let redis: RedisHandle;
  try {
    redis = await ensureRedis(o.redisUrl);
  } catch (error) {
    if (error instanceof RedisMissingError) {
      process.stderr.write(`suture demo: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  out(redis.started ? `Redis: none at ${o.redisUrl}; started a private redis-server at ${redis.url} (stopped at the end)` : `Redis: ${redis.url}`);
  if (redis.started) cleanups.push(['redis-server', () => redis.stop()]);

  const prefix = `suture-demo-${randomBytes(4).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'suture-demo-'));
  cleanups.push(['data dir', async () => rmSync(dataDir, { recursive: true, force: true })]);
  const adminToken = randomBytes(16).toString('hex');
  const appToken = randomBytes(12).toString('hex');
  const llm = Boolean(process.env.OPENAI_API_KEY);
  const llmModel = process.env.SUTURE_LLM_MODEL ?? 'gpt-4o-mini';
  const silent = pino({ level: 'silent' });
  let daemon: Daemon | undefined;
  let worker: RepairWorkerHandle | undefined;
  let code = 1;
  try {
    // The environment's SUTURE_* settings are not read: the demo must not touch a real deployment.
    const config = loadConfig({
      env: {},
      overrides: {
        port: 0, host: '127.0.0.1', redisUrl: redis.url, prefix, dataDir, adminToken, appTokens: { [GAME_APP]: appToken },
        policy: 'auto', budgetMs: o.budgetMs, sandboxSize: 2, logLevel: 'silent', jobBackoffMs: 500,
        generators: llm ? ['template', 'llm'] : ['template'],
        ...(llm ? { llmModel, llmApiKey: process.env.OPENAI_API_KEY, ...(process.env.OPENAI_BASE_URL ? { llmBaseUrl: process.env.OPENAI_BASE_URL } : {}) } : {}),
      },
    });
    daemon = await createDaemon(config, { logger: silent });
    const url = await daemon.listen();
    cleanups.unshift(['daemon', () => daemon!.close()]);
    worker = await startRepairWorker(config, { logger: silent });
    cleanups.unshift(['worker and its sandboxes', () => worker!.close()]);
    out(`daemon: ${url} (Redis keys under "${prefix}:", data in ${dataDir})`);
    out(`worker: ${worker.pool.size} sandbox processes (isolated-vm), publication policy "auto"`);
    out(llm
      ? `generators: offline mutation engine + LLM generator (${llmModel} at ${process.env.OPENAI_BASE_URL ?? 'the OpenAI API'}), because OPENAI_API_KEY is set`
      : 'generators: offline mutation engine only (set OPENAI_API_KEY, and SUTURE_LLM_MODEL, to add the LLM generator)');
    const admin = new AdminClient({ url, token: adminToken, actor: 'demo' });
    const { publicKey } = await admin.getPublic<{ publicKey: string }>('/v1/public-key');
    out(`patch-signing key: Ed25519, public key ${publicKeyId(publicKey)} (the game verifies every patch with it)`);

    for (const [i, scenario] of scenarios.entries()) {
      if (i > 0) out(`\n${scenario.intro.join('\n')}`);
      code = await scenario.run({ url, admin, appToken, publicKey, deadlineMs: o.deadlineMs }, (name, stop) => cleanups.unshift([name, stop]));
      if (code !== 0) return code;
    }
    return code;
  } catch (error) {
    process.stderr.write(`suture demo: ${(error as Error)?.message ?? error}\n`);
    return 1;
  } finally {
    section('Clean-up');
    for (const [name, stop] of cleanups.filter(([n]) => n !== 'redis-server' && n !== 'data dir')) {
      await stop().catch((error: Error) => out(`  could not stop ${name}: ${error.message}`));
    }
    const deleted = await deletePrefix(redis.url, prefix).catch(() => -1);
    for (const [name, stop] of cleanups.filter(([n]) => n === 'redis-server' || n === 'data dir')) {
      await stop().catch((error: Error) => out(`  could not stop ${name}: ${error.message}`));
    }
    out(`  stopped the game client, worker, sandboxes and daemon${redis.started ? ', and the private redis-server' : ''}; deleted ${deleted} Redis keys under "${prefix}:"`);
    out(`  ${code === 0 ? 'done' : 'failed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

async function deletePrefix(url: string, prefix: string): Promise<number> {
  const r = new Redis(url, { maxRetriesPerRequest: 1 });
  r.on('error', () => {});
  let n = 0;
  try {
    n = await deleteKeysUnder(r, prefix);
  } finally {
    r.disconnect();
  }
  return n;
}

function scenarioName(value: string): DemoScenarioName {
  if ((DEMO_SCENARIOS as readonly string[]).includes(value)) return value as DemoScenarioName;
  throw new InvalidArgumentError(`expected one of ${DEMO_SCENARIOS.join(', ')}, got "${value}"`);
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`expected a positive number, got "${value}"`);
  return n;
}
