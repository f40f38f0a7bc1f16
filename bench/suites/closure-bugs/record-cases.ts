/**
 * Writes the closure-bugs suite: each bug's block runs here, in Node, against live stand-ins of the
 * service it lives in (a database with rows, a mailer, a clock, a game unit), and every case's
 * world is recorded from that run as the SDK records a call: the `uses` values on entry and after,
 * each call made through them in order (arguments, answer or error, sync or async), the receiver.
 * The blocks are the bug directories' buggy.js and fixed.js; the services and inputs bug-specs.ts.
 * Failing calls and recorded calls come from the buggy block (what production saw); the expected
 * behaviour of test and hidden cases from the reference fix. Then every case is checked in the
 * sandbox: the buggy block fails its failing cases and passes its recorded ones, the fix passes all.
 *
 * Run: node --no-node-snapshot --import tsx bench/suites/closure-bugs/record-cases.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { encodeSnapshot } from '../../../core/snapshot.ts';
import type { Case, Encoded } from '../../../core/types.ts';
import type { CallWorld, DependencyCall } from '../../../core/world.ts';
import { TrialRunner } from '../../../engine/sandbox/trial-runner.ts';
import { BUGS, type BugSpec, type CaseSpec } from './bug-specs.ts';

const SUITE = new URL('./', import.meta.url);

/** Wraps the live `uses` values so every call through them is logged with its path. */
function recording(uses: Record<string, unknown>, pure: ReadonlySet<string>, log: DependencyCall[]): Record<string, unknown> {
  const proxies = new WeakMap<object, unknown>();
  const wrapFn = (fn: (...a: unknown[]) => unknown, path: string, self?: unknown) =>
    function (this: unknown, ...args: unknown[]) {
      const entry: DependencyCall = { path, args: args.map((a) => encodeSnapshot(a)), async: false };
      log.push(entry);
      let out: unknown;
      try {
        out = fn.apply(self ?? this, args);
      } catch (e) {
        entry.error = { name: (e as Error).name, message: (e as Error).message };
        throw e;
      }
      if (out && typeof (out as Promise<unknown>).then === 'function') {
        entry.async = true;
        return (out as Promise<unknown>).then(
          (v) => ((entry.result = encodeSnapshot(v)), v),
          (e: Error) => {
            entry.error = { name: e.name, message: e.message };
            throw e;
          },
        );
      }
      entry.result = encodeSnapshot(out);
      return out;
    };
  const wrap = (value: unknown, path: string): unknown => {
    if (pure.has(path)) return value;
    if (typeof value === 'function') return wrapFn(value as (...a: unknown[]) => unknown, path);
    if (value === null || typeof value !== 'object') return value;
    if (proxies.has(value)) return proxies.get(value);
    const proxy = new Proxy(value, {
      get(target, key, receiver) {
        const v = Reflect.get(target, key, receiver);
        if (typeof key !== 'string' || Array.isArray(target) || key in Object.prototype) return typeof v === 'object' && typeof key === 'string' ? wrap(v, `${path}.${key}`) : v;
        if (typeof v === 'function') return pure.has(`${path}.${key}`) ? v : wrapFn(v as (...a: unknown[]) => unknown, `${path}.${key}`, target);
        return wrap(v, `${path}.${key}`);
      },
    });
    proxies.set(value, proxy);
    return proxy;
  };
  return Object.fromEntries(Object.entries(uses).map(([k, v]) => [k, wrap(v, k)]));
}

function sourceAt(uses: Record<string, unknown>, path: string): string {
  let v: unknown = uses;
  for (const k of path.split('.')) v = (v as Record<string, unknown>)[k];
  return String(v);
}

interface Run {
  threw?: Error;
  result?: Encoded;
  world: CallWorld;
}

/** Runs `source` on one case in a fresh service, recording its world. */
async function runRecorded(bug: Bug, source: string, c: CaseSpec): Promise<Run> {
  const live = bug.service();
  const pure = new Set(bug.pure ?? []);
  const log: DependencyCall[] = [];
  const world: CallWorld = { uses: Object.fromEntries(Object.entries(live).map(([k, v]) => [k, encodeSnapshot(v)])), calls: log };
  if (bug.pure?.length) world.sources = Object.fromEntries(bug.pure.map((p) => [p, sourceAt(live, p)]));
  const receiver = c.self ? structuredClone(c.self) : undefined;
  if (receiver !== undefined) world.this = encodeSnapshot(receiver);
  const names = Object.keys(live);
  const wrapped = recording(live, pure, log);
  const fn = new Function(...names, `${source}\nreturn ${bug.entry};`)(...names.map((n) => wrapped[n])) as (...a: unknown[]) => unknown;
  const args = structuredClone(c.args);
  try {
    const value = await fn.apply(receiver, args);
    world.usesAfter = Object.fromEntries(Object.entries(live).map(([k, v]) => [k, encodeSnapshot(v)]));
    if (receiver !== undefined) world.thisAfter = encodeSnapshot(receiver);
    return { result: encodeSnapshot(value), world };
  } catch (e) {
    return { threw: e as Error, world };
  }
}

async function fileCase(bug: Bug, c: CaseSpec, hidden: boolean): Promise<Record<string, unknown>> {
  const args = c.args.map((a) => encodeSnapshot(a));
  if (!hidden && c.kind === 'failure') {
    const run = await runRecorded(bug, bug.buggy, c);
    if (!run.threw) throw new Error(`${bug.id}: the buggy block does not throw on failure case ${JSON.stringify(c.args)}`);
    return { kind: 'failure', args, throws: false, world: run.world };
  }
  // Recorded calls are what the buggy block did where it was right; tests and hidden cases the fix.
  const run = await runRecorded(bug, !hidden && c.kind === 'recorded' ? bug.buggy : bug.fixed, c);
  if (run.threw) throw new Error(`${bug.id}: throws on ${JSON.stringify(c.args)}: ${run.threw.message}`);
  return { ...(hidden ? {} : { kind: c.kind }), args, expect: run.result, world: run.world };
}

async function check(runner: TrialRunner, bug: Bug, visible: Case[], hidden: Case[]): Promise<string[]> {
  const limits = { cpuMs: 500, wallMs: 1000, memoryMb: 64, maxResultBytes: 1_000_000 };
  const problems: string[] = [];
  const block = (source: string) => ({ source, entry: bug.entry, uses: Object.keys(bug.service()) });
  const original = await runner.run({ block: block(bug.buggy), cases: visible }, limits);
  for (const [i, r] of original.results.entries()) {
    const failing = visible[i].kind !== 'recorded';
    if (failing === (r.verdict === 'pass')) problems.push(`buggy ${r.caseId} (${visible[i].kind}): ${r.verdict} ${r.error?.message ?? ''}`);
  }
  const fixed = await runner.run({ block: block(bug.fixed), cases: [...visible, ...hidden] }, limits);
  for (const r of fixed.results) {
    // A bug said to be unverifiable: its fix gets a replay miss on the failing case, and only there.
    const expected = bug.unverifiable && visible.find((c) => c.id === r.caseId)?.kind === 'failure' ? 'replay-miss' : 'pass';
    if (r.verdict !== expected) problems.push(`fixed ${r.caseId}: ${r.verdict} ${r.error?.message ?? ''}`);
  }
  if (original.compileError || fixed.compileError) problems.push('does not compile');
  return problems;
}

/** A bug's spec with its block and fix as the bug directory holds them. */
type Bug = BugSpec & { buggy: string; fixed: string };

const runner = new TrialRunner();
let bad = 0;
for (const spec of BUGS) {
  const dir = new URL(`bugs/${spec.id}/`, SUITE);
  const bug: Bug = { ...spec, buggy: readFileSync(new URL('buggy.js', dir), 'utf8'), fixed: readFileSync(new URL('fixed.js', dir), 'utf8') };
  const visible = [];
  for (const c of bug.visible) visible.push(await fileCase(bug, c, false));
  const hidden = [];
  for (const c of bug.hidden) hidden.push(await fileCase(bug, c, true));
  const uses = Object.keys(bug.service());
  writeFileSync(new URL('bug.json', dir), `${JSON.stringify({ id: bug.id, entry: bug.entry, description: bug.description, bug_type: bug.bugType, source: 'buggy.js', uses }, null, 2)}\n`);
  writeFileSync(new URL('cases.json', dir), `${JSON.stringify(visible, null, 1)}\n`);
  writeFileSync(new URL('hidden.json', dir), `${JSON.stringify(hidden, null, 1)}\n`);
  const toCase = (f: Record<string, unknown>, id: string): Case => ({
    id, kind: (f.kind as Case['kind']) ?? 'test', check: 'expect' in f ? 'value' : 'no-throw', args: f.args as Encoded[], expect: f.expect, world: f.world as CallWorld,
  });
  const problems = await check(runner, bug, visible.map((f, i) => toCase(f, `visible-${i}`)), hidden.map((f, i) => toCase(f, `hidden-${i}`)));
  if (problems.length) bad++;
  console.log(`${bug.id}: ${visible.length} visible, ${hidden.length} hidden${bug.unverifiable ? ` (unverifiable: ${bug.unverifiable})` : ''}${problems.length ? `\n  ${problems.join('\n  ')}` : ''}`);
}
runner.dispose();
process.exitCode = bad > 0 ? 1 : 0;
