#!/usr/bin/env node
// Launcher: runs the CLI on Node 24+ with the flags isolated-vm needs, whatever `node` started it.
// In a checkout (cli/main.ts present) it runs the TypeScript source through tsx; in an installed
// package it runs the compiled dist/cli/main.js (`npm run build` makes it).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const major = Number(process.versions.node.split('.')[0]);
const bundled = join(root, 'node_modules', 'node', 'bin', 'node');
const node = major >= 24 ? process.execPath : existsSync(bundled) ? bundled : null;
if (!node) {
  process.stderr.write(`suture needs Node.js 24 or newer (this is ${process.version}); run \`npm ci\` in ${root} or install Node 24.\n`);
  process.exit(1);
}
const source = join(root, 'cli', 'main.ts');
const compiled = join(root, 'dist', 'cli', 'main.js');
let entry;
if (existsSync(source)) entry = ['--import', import.meta.resolve('tsx'), source];
else if (existsSync(compiled)) entry = [compiled];
else {
  process.stderr.write(`suture: neither ${source} nor ${compiled} exists; run \`npm run build\` in ${root}.\n`);
  process.exit(1);
}
const child = spawn(node, ['--no-node-snapshot', ...entry, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
