/**
 * The two packages as people install them. `npm pack` builds and packs @suture/sdk and suture; the
 * suture tarball is installed in a folder outside the repository and its `suture daemon` and
 * `suture worker` serve the test (with the real Redis); the SDK tarball is installed in one app per
 * Node version (24, 22, 26; the others come from the `node` npm package, cached between runs),
 * where a plain ESM app, a CommonJS app, a strict TypeScript app compiled by tsc and the README's
 * example, each run as `node FILE` with no flags, see a failing call reported and repaired, and
 * later calls patched.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { deleteKeysUnder } from '../../service/store/key-scan.ts';

/** Node versions besides the one running this test (24), from the `node` npm package. */
const OTHER_NODES = ['22.23.3', '26.10.0'];
/** isolated-vm that npm picks on each Node major (6.x is the last line built for Node 22). */
const IVM_MAJOR: Record<number, number> = { 22: 6, 24: 7, 26: 7 };

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const APPS = join(REPO, 'test', 'package', 'apps');
const NODE_CACHE = join(tmpdir(), 'suture-package-test-nodes');
const TOKEN = 'game-token-0123456789';
const rootPackage = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment without what an outer `npm test` or `node --test` puts in it. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_|^NODE_OPTIONS$|^NODE_TEST_CONTEXT$|^INIT_CWD$/i.test(k)) env[k] = v;
  return { ...env, ...extra };
}

function run(cmd: string, args: string[], opts: { cwd: string; node?: string; env?: Record<string, string>; timeoutMs?: number }): Promise<Ran> {
  const path = opts.node ? `${dirname(opts.node)}${delimiter}${process.env.PATH}` : process.env.PATH ?? '';
  const child = spawn(cmd, args, { cwd: opts.cwd, env: cleanEnv({ PATH: path, ...opts.env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function mustRun(cmd: string, args: string[], opts: Parameters<typeof run>[2]): Promise<string> {
  const r = await run(cmd, args, opts);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${opts.cwd}) exited ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** npm as the app's owner runs it: on `node` (npm picks isolated-vm by that Node), offline when the cache has it. */
const npm = (cwd: string, node: string, ...args: string[]) => mustRun('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], { cwd, node });

/** A Node binary from the `node` npm package, kept between runs. */
async function nodeBinary(version: string): Promise<string> {
  const dir = join(NODE_CACHE, version);
  const bin = join(dir, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
    await npm(dir, process.execPath, 'install', `node@${version}`);
  }
  const reported = (await mustRun(bin, ['-p', 'process.version'], { cwd: dir })).trim();
  assert.equal(reported, `v${version}`, `${bin} is ${reported}`);
  return bin;
}

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string }[];
}

async function pack(dest: string, ...args: string[]): Promise<Packed & { tarball: string }> {
  const out = await mustRun('npm', ['pack', ...args, '--json', '--pack-destination', dest], { cwd: REPO, node: process.execPath, timeoutMs: 180_000 });
  const [info] = JSON.parse(out.slice(out.indexOf('['))) as Packed[];
  return { ...info, tarball: join(dest, info.filename) };
}

/** The first fenced block of `lang` in the README section `heading`. */
function readmeBlock(heading: string, lang: string): string {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `README has no "${heading}" section`);
  const section = readme.slice(start + heading.length + 2).split(/\n## /)[0];
  const block = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section);
  assert.ok(block, `README "${heading}" has no \`\`\`${lang} block`);
  return block[1];
}

/** `suture <command>` from the installed package; resolves once it printed `ready`. */
function startService(ops: string, command: string, env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, [join(ops, 'node_modules', '.bin', 'suture'), command], { cwd: ops, env: cleanEnv(env), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`suture ${command} not ready in 30 s:\n${stderr}`)), 30_000);
    child.stderr!.on('data', (d) => {
      stderr += d;
      const match = ready.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    });
    child.on('exit', (code) => reject(new Error(`suture ${command} exited ${code}:\n${stderr}`)));
  });
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

interface Summary {
  known: unknown[];
  repaired: { value?: unknown; threw?: string; health: number };
  viaWait: string[];
  later?: { value?: unknown; threw?: string; health: number };
  laterCalls: number;
  patched: string[];
  healthy: unknown;
  errors: string[];
}

/** What test/package/apps/scenario.mjs must have seen: repaired while waiting, later calls patched, healthy calls untouched. */
function assertScenario(out: Ran): void {
  assert.equal(out.code, 0, `app exited ${out.code}\n${out.stdout}\n${out.stderr}`);
  const s = JSON.parse(out.stdout.trim().split('\n').at(-1)!) as Summary;
  assert.deepEqual(s.errors, [], 'the SDK reported no error');
  assert.deepEqual(s.known, [20, 16, 11], 'known-good calls answer as the block does');
  assert.equal(typeof s.repaired.value, 'number', `the failing call was repaired: ${JSON.stringify(s.repaired)}`);
  assert.equal(s.repaired.health, 40 - (s.repaired.value as number), 'the effect of the patch on the enemy was written back');
  assert.deepEqual(s.viaWait, ['wait'], 'the failing call waited for its patch');
  assert.ok(s.patched.includes('manifest'), `a later call was patched from the manifest (${s.laterCalls} calls): ${JSON.stringify(s.later)}`);
  assert.equal(typeof s.later?.value, 'number');
  assert.equal(s.later!.health, 50 - (s.later!.value as number));
  assert.equal(s.healthy, 16, 'a healthy call keeps the answer of the block under the fallback patch');
}

describe('the packages as installed by their users', { timeout: 600_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'suture-packages-'));
  const prefix = `suture-test-pkg-${randomBytes(6).toString('hex')}`;
  const services: ChildProcess[] = [];
  let sdk: Packed & { tarball: string };
  let root: Packed & { tarball: string };
  let appEnv: Record<string, string>;
  let sdkModules: string[];

  before(async () => {
    const packs = join(work, 'packs');
    mkdirSync(packs);
    sdkModules = readdirSync(join(REPO, 'sdk')).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
    sdk = await pack(packs, '--workspace', 'sdk');
    root = await pack(packs);
    const ops = join(work, 'ops');
    mkdirSync(ops);
    writeFileSync(join(ops, 'package.json'), '{"private":true}\n');
    await npm(ops, process.execPath, 'install', root.tarball);
    const env = {
      SUTURE_HOST: '127.0.0.1', SUTURE_PORT: '0', SUTURE_PREFIX: prefix, SUTURE_DATA_DIR: join(ops, 'data'), SUTURE_APP_TOKENS: `game:${TOKEN}`,
      SUTURE_LOG_LEVEL: 'warn', SUTURE_SANDBOX_SIZE: '1', SUTURE_BUDGET_MS: '10000', SUTURE_JOB_BACKOFF_MS: '200',
    };
    const daemon = await startService(ops, 'daemon', env, /suture daemon on (http:\/\/\S+) /);
    services.push(daemon.child);
    services.push((await startService(ops, 'worker', env, /suture worker ready/)).child);
    const url = daemon.match[1];
    const { publicKey } = (await (await fetch(`${url}/v1/public-key`)).json()) as { publicKey: string };
    appEnv = { SUTURE_URL: url, SUTURE_TOKEN: TOKEN, SUTURE_PUBLIC_KEY: publicKey };
  });

  after(async () => {
    await Promise.all(services.map(stop));
    const redis = new Redis();
    await deleteKeysUnder(redis, prefix);
    redis.disconnect();
    rmSync(work, { recursive: true, force: true });
  });

  it('the SDK tarball holds its compiled modules, their declarations and the core files they read; its dependencies are the packages they import', (t) => {
    const paths = sdk.files.map((f) => f.path);
    t.diagnostic(`${sdk.filename}: ${sdk.entryCount} files, ${sdk.size} bytes packed, ${sdk.unpackedSize} unpacked`);
    for (const p of ['package.json', 'dist/sdk/index.js', 'dist/sdk/index.d.ts', 'dist/core/snapshot-codec.js', 'dist/core/hardened-realm-script.js', 'dist/core/hardened-realm.js']) {
      assert.ok(paths.includes(p), `${p} is in the tarball`);
    }
    // Every SDK module, also those only started by path (a helper process's entry), not just what index.ts imports.
    assert.ok(sdkModules.length > 10, `sdk/ has ${sdkModules.length} modules`);
    assert.deepEqual(sdkModules.filter((f) => !paths.includes(`dist/sdk/${f.replace(/\.ts$/, '.js')}`)), [], 'every sdk/*.ts (when packed) is compiled into the tarball');
    const stray = paths.filter((p) => !['package.json', 'README.md', 'LICENSE'].includes(p) && !(p.startsWith('dist/') && (p.endsWith('.js') || p.endsWith('.d.ts'))));
    assert.deepEqual(stray, [], 'nothing but package.json, README.md, LICENSE and dist/ JavaScript and declarations');
    assert.ok(paths.includes('LICENSE'), 'the licence travels with the package');
    assert.ok(!paths.some((p) => /(^|\/)(test|bench|daemon|worker|engine)\//.test(p)), 'no tests, benches or service code');
    // Its dependencies are exactly the packages its compiled code imports, requires or resolves.
    const manifest = JSON.parse(readFileSync(join(REPO, 'sdk', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const used = new Set<string>();
    for (const p of paths.filter((f) => f.endsWith('.js'))) {
      const code = readFileSync(join(REPO, 'sdk', p), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\.resolve\s*\(\s*)['"]([^'"./][^'"]*)['"]/g)) {
        if (!m[1].startsWith('node:')) used.add(m[1].split('/').slice(0, m[1].startsWith('@') ? 2 : 1).join('/'));
      }
    }
    assert.deepEqual(Object.keys(manifest.dependencies).sort(), [...used].sort(), 'sdk/package.json dependencies are what dist/ uses');
    assert.ok(!['fastify', 'bullmq', 'ioredis', 'openai', 'tsx'].some((d) => used.has(d)), 'no service dependency');
  });

  it('the suture tarball holds the launcher and the compiled service with its run-time files, no sources or tests', (t) => {
    const paths = root.files.map((f) => f.path);
    t.diagnostic(`${root.filename}: ${root.entryCount} files, ${root.size} bytes packed, ${root.unpackedSize} unpacked`);
    for (const p of ['LICENSE', 'bin/suture.js', 'dist/cli/main.js', 'dist/engine/sandbox/sandbox-host.js', 'dist/engine/sandbox/sandbox-harness.js', 'dist/daemon/dashboard/dashboard.html', 'dist/service/store/lua/ingest-failure-7.lua']) {
      assert.ok(paths.includes(p), `${p} is in the tarball`);
    }
    const stray = paths.filter((p) => !['package.json', 'README.md', 'LICENSE', 'bin/suture.js'].includes(p) && !p.startsWith('dist/'));
    assert.deepEqual(stray, []);
    assert.ok(!paths.some((p) => p.endsWith('.ts')), 'no TypeScript sources');
  });

  for (const version of [process.versions.node, ...OTHER_NODES]) {
    const major = Number(version.split('.')[0]);
    describe(`an app on Node ${major}`, () => {
      const app = join(work, `app-node${major}`);
      let node: string;
      // `node FILE`, no flags: the SDK runs patches in its helper process.
      const appRun = (file: string, block: string) => run(node, [file], { cwd: app, env: { ...appEnv, SUTURE_BLOCK: block }, timeoutMs: 90_000 });

      before(async () => {
        node = version === process.versions.node ? process.execPath : await nodeBinary(version);
        mkdirSync(app);
        writeFileSync(join(app, 'package.json'), '{"name":"consumer-app","private":true,"type":"module"}\n');
        for (const f of readdirSync(APPS)) copyFileSync(join(APPS, f), join(app, f));
        writeFileSync(join(app, 'readme-example.mjs'), readmeBlock('## The SDK', 'js'));
        const dev = rootPackage.devDependencies;
        await npm(app, node, 'install', sdk.tarball, `typescript@${dev.typescript}`, `@types/node@${dev['@types/node']}`);
      });

      it(`installs @suture/sdk with a prebuilt isolated-vm ${IVM_MAJOR[major]}.x`, async (t) => {
        type Tree = { version: string; dependencies?: Record<string, Tree> };
        const tree = JSON.parse(await npm(app, node, 'ls', '--all', '--json')) as Tree;
        const installed = tree.dependencies!['@suture/sdk'];
        const ivm = installed.dependencies!['isolated-vm'].version;
        assert.equal(Number(ivm.split('.')[0]), IVM_MAJOR[major], `isolated-vm ${ivm}`);
        const names = new Set<string>();
        const walk = (deps: Record<string, Tree> = {}) => {
          for (const [name, dep] of Object.entries(deps)) {
            names.add(`${name}@${dep.version}`);
            walk(dep.dependencies);
          }
        };
        walk(installed.dependencies);
        t.diagnostic(`Node ${version}: @suture/sdk brings ${names.size} packages: ${[...names].join(', ')}`);
        assert.ok(names.size <= 8, `the SDK installs ${names.size} packages`);
        assert.ok(!existsSync(join(app, 'node_modules', 'isolated-vm', 'build')), 'nothing was compiled');
      });

      it('a plain ESM app: failing call repaired, later calls patched', { timeout: 90_000 }, async () => {
        assertScenario(await appRun('esm-app.mjs', `esm-node${major}`));
      });

      it('a CommonJS app (require of the SDK)', { timeout: 90_000 }, async () => {
        assertScenario(await appRun('cjs-app.cjs', `cjs-node${major}`));
      });

      it('a strict TypeScript app compiled by tsc (module nodenext)', { timeout: 120_000 }, async () => {
        await mustRun(join(app, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], { cwd: app, node });
        assertScenario(await appRun('ts-app.js', `ts-node${major}`));
      });

      it("the README's example prints the block's answer, then the repaired one", { timeout: 90_000 }, async () => {
        const out = await appRun('readme-example.mjs', 'unused');
        assert.equal(out.code, 0, `${out.stdout}\n${out.stderr}`);
        const lines = out.stdout.trim().split('\n');
        assert.equal(lines.length, 2, out.stdout);
        assert.equal(lines[0], '16 84');
        const [damage, health] = lines[1].split(' ').map(Number);
        assert.ok(Number.isFinite(damage) && health === 40 - damage, `repaired call printed "${lines[1]}"`);
      });
    });
  }

  it("the README's SDK section starts with installing the package", () => {
    assert.match(readmeBlock('## The SDK', 'sh'), /^npm install @suture\/sdk\n$/);
  });
});
