/**
 * Builds a package's dist folder: `node packaging/build.ts sdk` (the @suture/sdk workspace, into
 * sdk/dist) or `node packaging/build.ts root` (the suture daemon, worker and CLI, into dist).
 *
 * 1. removes the old dist (a module deleted from the source must not linger in a tarball);
 * 2. compiles with tsc (the package's tsconfig.build.json: `.ts` specifiers rewritten to `.js`);
 * 3. copies the files the compiled code reads at run time next to it: every .js, .mjs, .lua, .html,
 *    .css and .svg file in a source folder that produced a module, and in its subfolders that hold
 *    no TypeScript (service/store/lua/). SES's own script is not copied: core/hardened-realm.ts
 *    resolves it from the installed `ses` package.
 *
 * Runs on Node ≥ 22.18 / 24 as it is (type stripping), so a build needs no tsx.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES: Record<string, { dir: string; project: string }> = {
  sdk: { dir: join(REPO, 'sdk'), project: join(REPO, 'sdk', 'tsconfig.build.json') },
  root: { dir: REPO, project: join(REPO, 'tsconfig.build.json') },
};
const ASSET = /\.(js|mjs|cjs|lua|html|css|svg)$/;

function fail(message: string): never {
  process.stderr.write(`packaging/build.ts: ${message}\n`);
  process.exit(1);
}

const which = process.argv[2] ?? '';
const pkg = PACKAGES[which] ?? fail(`which package? expected one of ${Object.keys(PACKAGES).join(', ')}, got "${which}"`);
const dist = join(pkg.dir, 'dist');
rmSync(dist, { recursive: true, force: true });

const tsc = join(REPO, 'node_modules', '.bin', 'tsc');
if (!existsSync(tsc)) fail(`${tsc} is missing: run npm ci at the repository root first`);
const run = spawnSync(tsc, ['-p', pkg.project, '--listEmittedFiles'], { encoding: 'utf8' });
if (run.status !== 0) fail(`tsc -p ${relative(REPO, pkg.project)} failed:\n${run.stdout}${run.stderr}`);
const emitted = run.stdout.split('\n').filter((l) => l.startsWith('TSFILE: ')).map((l) => l.slice('TSFILE: '.length).trim());
const modules = emitted.filter((f) => f.endsWith('.js'));
if (modules.length === 0) fail('tsc emitted no JavaScript');

// Source folder of each emitted module: dist/<path> mirrors <repo>/<path> (rootDir is the repository).
const sourceDirs = new Set(modules.map((f) => dirname(join(REPO, relative(dist, f)))));
const hasTypeScript = (dir: string) => readdirSync(dir).some((n) => n.endsWith('.ts'));
const copied: string[] = [];
const copyAssets = (dir: string, top: boolean): void => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const from = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'dist' || entry.name === 'node_modules' || hasTypeScript(from)) continue;
      copyAssets(from, false);
    } else if (ASSET.test(entry.name) && (top || !hasTypeScript(dir))) {
      const to = join(dist, relative(REPO, from));
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(from, to);
      copied.push(relative(REPO, from).split(sep).join('/'));
    }
  }
};
for (const dir of sourceDirs) copyAssets(dir, true);

process.stdout.write(`${which}: ${modules.length} modules and ${copied.length} assets in ${relative(REPO, dist) || '.'}/ (${copied.join(', ')})\n`);
