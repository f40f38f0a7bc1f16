/**
 * Converts HumanEvalPack JavaScript records (HumanEvalFix) into the suite layout of
 * bench/suites/README.md: one bug dir per task, the reference fix beside it, and the task's asserts
 * split into visible and hidden cases by a fixed rule so figures stay comparable across runs:
 *
 * take the test function's top-level `console.assert(...)` statements A0…An-1 in order;
 * visible = the first Ai that fails on the buggy program, plus every Ai with even i; hidden = the rest.
 * A test that loops or whose asserts read the test's own locals is one visible case, no hidden ones.
 */
import { copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as acorn from 'acorn';
import { z } from 'zod';
import { splitHumanEvalTest } from './humaneval-test-split.ts';
import type { ScriptRunner } from './script-runner.ts';

export type { ScriptRunner } from './script-runner.ts';

export interface ImportHumanEvalFixOptions {
  /**
   * Runs one assert script against a program. Pass one to avoid starting sandboxes.
   * @defaultValue a runner on the real sandbox (`SandboxPool`), closed when the import ends
   */
  runner?: ScriptRunner;
  /** Called after each task is written. */
  onProgress?: (done: number, total: number, taskId: string) => void;
  /** @defaultValue the output directory's base name */
  name?: string;
  /** @defaultValue a sentence naming HumanEvalFix and the source file */
  description?: string;
  /**
   * Licence recorded in suite.json; a `LICENSE` file next to the JSONL is copied beside suite.json.
   * @defaultValue 'MIT' (HumanEvalPack's licence)
   */
  license?: string;
  /**
   * Also run every case on the reference fix and warn about any that fail (a broken import or a
   * task that needs what a sandbox lacks).
   * @defaultValue true
   */
  checkFixed?: boolean;
  /**
   * Tasks processed at once; each task's runs stay sequential because the split depends on order.
   * @defaultValue 2
   */
  concurrency?: number;
}

export interface ImportHumanEvalFixResult {
  bugs: number;
  visible: number;
  hidden: number;
  warnings: string[];
}

export class HumanEvalFixImportError extends Error {
  readonly code = 'SUTURE_HUMANEVALFIX_IMPORT';
  constructor(message: string) {
    super(message);
    this.name = 'HumanEvalFixImportError';
  }
}

const recordSchema = z.object({
  task_id: z.string().regex(/^[^\s]+$/),
  prompt: z.string(),
  declaration: z.string(),
  buggy_solution: z.string(),
  canonical_solution: z.string(),
  test: z.string(),
  entry_point: z.string().min(1),
  docstring: z.string().optional(),
  bug_type: z.string().optional(),
});
type HumanEvalRecord = z.infer<typeof recordSchema>;

interface ScriptCase {
  script: string;
}

interface ImportedTask {
  visible: ScriptCase[];
  hidden: ScriptCase[];
  warnings: string[];
}

export async function importHumanEvalFix(
  jsonlPath: string,
  outDir: string,
  options: ImportHumanEvalFixOptions = {},
): Promise<ImportHumanEvalFixResult> {
  const records = parseJsonl(await readFile(jsonlPath, 'utf8'), jsonlPath);
  const out = path.resolve(outDir);
  const bugsDir = path.join(out, 'bugs');
  if ((await exists(out)) && !(await exists(path.join(out, 'suite.json'))) && (await exists(bugsDir))) {
    // Refuse to wipe a bugs/ folder that does not look like one of our suites.
    throw new HumanEvalFixImportError(`${out} has bugs/ but no suite.json; not overwriting`);
  }
  // Re-imports start clean so a task dropped from the source does not linger.
  await rm(bugsDir, { recursive: true, force: true });
  await mkdir(bugsDir, { recursive: true });

  let runner = options.runner;
  let close: (() => Promise<void>) | undefined;
  if (!runner) {
    const { createSandboxScriptRunner } = await import('./sandbox-script-runner.ts');
    const sandbox = createSandboxScriptRunner();
    runner = sandbox.run;
    close = sandbox.close;
  }

  const result: ImportHumanEvalFixResult = { bugs: 0, visible: 0, hidden: 0, warnings: [] };
  const perTask: ImportedTask[] = new Array(records.length);
  try {
    let next = 0;
    let done = 0;
    const work = async () => {
      while (next < records.length) {
        const index = next++;
        const record = records[index]!;
        perTask[index] = await importTask(record, bugsDir, runner!, options.checkFixed ?? true);
        done++;
        options.onProgress?.(done, records.length, record.task_id);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, work));
  } finally {
    await close?.();
  }

  for (const task of perTask) {
    result.bugs++;
    result.visible += task.visible.length;
    result.hidden += task.hidden.length;
    result.warnings.push(...task.warnings);
  }

  const suiteJson: Record<string, string> = {
    name: options.name ?? path.basename(out),
    description:
      options.description ??
      `HumanEvalFix (HumanEvalPack, JavaScript) imported from ${path.basename(jsonlPath)}: ${result.bugs} bugs. ` +
        'Visible cases: the first assert failing on the buggy code plus every even-numbered assert; hidden: the rest.',
    license: options.license ?? 'MIT',
  };
  await writeJson(path.join(out, 'suite.json'), suiteJson);
  const license = path.join(path.dirname(path.resolve(jsonlPath)), 'LICENSE');
  if (await exists(license)) await copyFile(license, path.join(out, 'LICENSE'));
  return result;
}

async function importTask(record: HumanEvalRecord, bugsDir: string, runner: ScriptRunner, checkFixed: boolean): Promise<ImportedTask> {
  const id = record.task_id;
  const buggy = record.declaration + record.buggy_solution;
  const fixed = record.declaration + record.canonical_solution;
  const warnings: string[] = [];
  const entry = resolveEntry(record, fixed, warnings);

  if (/\brequire\s*\(/.test(buggy) || /\brequire\s*\(/.test(fixed)) {
    warnings.push(`${id}: the program calls require(), which a sandbox cannot serve; imported, but unfixable there`);
  }

  const split = splitHumanEvalTest(record.test);
  let visible: ScriptCase[];
  let hidden: ScriptCase[];
  if (split.by === 'whole') {
    visible = [{ script: split.script }];
    hidden = [];
  } else {
    if (split.dropped.length > 0) {
      warnings.push(`${id}: ${split.dropped.length} non-assert statement(s) in the test body were dropped`);
    }
    let firstFailing = -1;
    for (let i = 0; i < split.asserts.length && firstFailing < 0; i++) {
      if (!(await runner(buggy, entry, split.asserts[i]!))) firstFailing = i;
    }
    if (firstFailing < 0) warnings.push(`${id}: no assert fails on the buggy code; visible cases are the even-numbered asserts only`);
    visible = [];
    hidden = [];
    split.asserts.forEach((script, i) => (i % 2 === 0 || i === firstFailing ? visible : hidden).push({ script }));
  }

  if (checkFixed) {
    const all = [...visible, ...hidden];
    const failing: number[] = [];
    for (const [i, c] of all.entries()) if (!(await runner(fixed, entry, c.script))) failing.push(i);
    if (failing.length > 0) warnings.push(`${id}: the reference fix fails ${failing.length} of ${all.length} cases`);
  }

  const dir = path.join(bugsDir, id.replaceAll('/', '-'));
  await mkdir(dir, { recursive: true });
  const bugJson: Record<string, string> = {
    id,
    entry,
    description: record.docstring?.trim() ? record.docstring : record.prompt,
    source: 'buggy.js',
  };
  if (record.bug_type) bugJson.bug_type = record.bug_type;
  await writeJson(path.join(dir, 'bug.json'), bugJson);
  await writeFile(path.join(dir, 'buggy.js'), buggy);
  await writeFile(path.join(dir, 'fixed.js'), fixed);
  await writeJson(path.join(dir, 'cases.json'), visible);
  if (hidden.length > 0) await writeJson(path.join(dir, 'hidden.json'), hidden);
  return { visible, hidden, warnings };
}

/**
 * The entry point named by the record, or, when the program does not declare it (JavaScript/114 says
 * `minSubarraySum` but declares `minSubArraySum`), the declared top-level function whose name matches
 * it ignoring case. The engine looks the entry up by name, so a wrong one would make every candidate fail.
 */
function resolveEntry(record: HumanEvalRecord, program: string, warnings: string[]): string {
  let declared: string[];
  try {
    declared = topLevelFunctionNames(program);
  } catch (err) {
    warnings.push(`${record.task_id}: the reference program does not parse (${(err as Error).message})`);
    return record.entry_point;
  }
  if (declared.includes(record.entry_point)) return record.entry_point;
  const match = declared.filter((name) => name.toLowerCase() === record.entry_point.toLowerCase());
  if (match.length === 1) {
    warnings.push(`${record.task_id}: entry_point "${record.entry_point}" is not declared; using "${match[0]}"`);
    return match[0]!;
  }
  warnings.push(`${record.task_id}: entry_point "${record.entry_point}" is not declared by the program`);
  return record.entry_point;
}

function topLevelFunctionNames(program: string): string[] {
  const names: string[] = [];
  for (const statement of acorn.parse(program, { ecmaVersion: 'latest', sourceType: 'script' }).body) {
    if (statement.type === 'FunctionDeclaration' && statement.id) names.push(statement.id.name);
    if (statement.type === 'VariableDeclaration') {
      for (const d of statement.declarations) if (d.id.type === 'Identifier') names.push(d.id.name);
    }
  }
  return names;
}

function parseJsonl(text: string, file: string): HumanEvalRecord[] {
  const records: HumanEvalRecord[] = [];
  const seen = new Set<string>();
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      throw new HumanEvalFixImportError(`${file}:${i + 1}: invalid JSON (${(err as Error).message})`);
    }
    const parsed = recordSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new HumanEvalFixImportError(`${file}:${i + 1}: field ${issue.path.join('.') || '(record)'}: ${issue.message}`);
    }
    if (seen.has(parsed.data.task_id)) throw new HumanEvalFixImportError(`${file}:${i + 1}: duplicate task_id ${parsed.data.task_id}`);
    seen.add(parsed.data.task_id);
    records.push(parsed.data);
  }
  return records;
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
