// Developer tool: converts suite case files written before a dependency call's `mode: "sync" | "async"`
// became `async: false | true` (core/world.ts DependencyCall). Rewrites every cases.json and
// hidden.json under the given suite directories in place, the key at the same position, and refuses
// a file whose formatting it would not reproduce (so nothing but that key changes).
// Usage: node --no-node-snapshot --import tsx bench/tools/convert-world-calls.ts <suite-dir>...
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The call with `mode` replaced by `async` in place; other keys and their order kept. */
function convertCall(call: Record<string, unknown>, where: string): Record<string, unknown> {
  if (!('mode' in call)) return call;
  if (call.mode !== 'sync' && call.mode !== 'async') throw new Error(`${where}: mode is ${JSON.stringify(call.mode)}, not "sync" or "async"`);
  if ('async' in call) throw new Error(`${where}: has both mode and async`);
  return Object.fromEntries(Object.entries(call).map(([k, v]) => (k === 'mode' ? ['async', v === 'async'] : [k, v])));
}

/** The number of calls converted in one case file's text, and the new text. */
export function convertCaseFile(text: string, file: string): { text: string; converted: number } {
  const cases: unknown = JSON.parse(text);
  if (!Array.isArray(cases)) throw new Error(`${file}: not an array of cases`);
  const indent = /^\[\n( +)/.exec(text)?.[1]?.length ?? 2;
  const trailing = text.endsWith('\n') ? '\n' : '';
  if (JSON.stringify(cases, null, indent) + trailing !== text) throw new Error(`${file}: not formatted as JSON.stringify(…, null, ${indent}); convert it by hand`);
  let converted = 0;
  cases.forEach((c: { world?: { calls?: Record<string, unknown>[] } }, i) => {
    const calls = c?.world?.calls;
    if (!Array.isArray(calls)) return;
    c.world!.calls = calls.map((call, j) => {
      const out = convertCall(call, `${file}: case ${i}, call ${j}`);
      if (out !== call) converted++;
      return out;
    });
  });
  return { text: JSON.stringify(cases, null, indent) + trailing, converted };
}

function caseFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && (e.name === 'cases.json' || e.name === 'hidden.json'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

if (import.meta.main) {
  const dirs = process.argv.slice(2);
  if (dirs.length === 0) throw new Error('usage: convert-world-calls.ts <suite-dir>...');
  for (const file of dirs.flatMap(caseFiles)) {
    const { text, converted } = convertCaseFile(readFileSync(file, 'utf8'), file);
    if (converted > 0) {
      writeFileSync(file, text);
      console.log(`${file}: ${converted} calls`);
    }
  }
}
