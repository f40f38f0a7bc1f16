// Developer tool: converts suite case files written before a dependency call's `mode: "sync" | "async"`
// became `async: false | true` (core/world.ts DependencyCall). Rewrites every cases.json and
// hidden.json under the given suite directories in place. The text is edited where the key stands
// (whatever the file's formatting), and the result must parse to exactly the cases with each call's
// `mode` replaced by `async`, or the file is refused: nothing but that key changes.
// Usage: node --no-node-snapshot --import tsx bench/tools/convert-world-calls.ts <suite-dir>...
import { isDeepStrictEqual } from 'node:util';
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
  let converted = 0;
  const expected = cases.map((c: { world?: { calls?: Record<string, unknown>[] } }, i) => {
    const calls = c?.world?.calls;
    if (!Array.isArray(calls)) return c;
    const out = calls.map((call, j) => convertCall(call, `${file}: case ${i}, call ${j}`));
    converted += out.filter((call, j) => call !== calls[j]).length;
    return { ...c, world: { ...c.world, calls: out } };
  });
  if (converted === 0) return { text, converted };
  const edited = text.replace(/"mode"(\s*:\s*)"(sync|async)"/g, (_, sep: string, mode: string) => `"async"${sep}${mode === 'async'}`);
  if (!isDeepStrictEqual(JSON.parse(edited), expected)) throw new Error(`${file}: a "mode" outside a call's own key; convert it by hand`);
  return { text: edited, converted };
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
