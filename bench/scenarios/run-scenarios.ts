/**
 * npm run bench:scenarios -- [--only ID,ID] [--json [FILE]] [--budget S] [--timeout S] [--sample-rate R] [--no-replace]
 *
 * End-to-end scenarios of apps using the SDK against one real daemon + worker + Redis; see
 * scenario-runner.ts and the README's benchmarks section.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadScenarios } from './scenario-definition.ts';
import { DEFAULT_SETTINGS, runScenarios, type BenchReport, type BenchSettings } from './scenario-runner.ts';

const DEFAULT_JSON = join(import.meta.dirname, '..', 'results', 'scenarios-latest.json');

const HELP = `Usage: npm run bench:scenarios -- [options]

Runs the app scenarios in bench/scenarios/apps/ end to end: a real daemon and worker (offline
template engine) on the local Redis, each scenario's app through a fresh SDK client: healthy
calls, failing calls, the repair, then hidden calls (expected answers from the scenario's
intended function) and the healthy calls again, in fallback mode and (unless --no-replace)
with the patch granted replace mode.

Options:
  --only ID,ID        run only these scenarios
  --json [FILE]       write the results as JSON (default FILE: bench/results/scenarios-latest.json)
  --budget S          search budget of a repair job, seconds (default ${DEFAULT_SETTINGS.budgetMs / 1000}, the service's default)
  --timeout S         longest wait for a scenario's patch after its first failing call, seconds (default ${DEFAULT_SETTINGS.patchTimeoutMs / 1000})
  --sample-rate R     the SDK's record.sampleRate in the apps, 0..1 (default ${DEFAULT_SETTINGS.sampleRate})
  --no-replace        skip the replace-mode phase
  --list              list the scenarios and exit
  -h, --help          this text
`;

interface Cli {
  only?: string[];
  json?: string;
  list: boolean;
  settings: Partial<BenchSettings>;
}

function parse(argv: string[]): Cli | 'help' {
  const cli: Cli = { list: false, settings: {} };
  const number = (flag: string, v: string | undefined, min: number, max: number): number => {
    const n = Number(v);
    if (v === undefined || v.startsWith('--') || !Number.isFinite(n) || n < min || n > max) throw new Error(`${flag} takes a number from ${min} to ${max} (got ${v ?? 'nothing'})`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = argv[i + 1];
    switch (a) {
      case '-h':
      case '--help':
        return 'help';
      case '--only':
        if (!next || next.startsWith('--')) throw new Error('--only takes a comma-separated list of scenario ids');
        cli.only = next.split(',').map((x) => x.trim()).filter(Boolean);
        i++;
        break;
      case '--json':
        if (next && !next.startsWith('--')) {
          cli.json = next;
          i++;
        } else cli.json = DEFAULT_JSON;
        break;
      case '--budget':
        cli.settings.budgetMs = number(a, next, 0.1, 600) * 1000;
        i++;
        break;
      case '--timeout':
        cli.settings.patchTimeoutMs = number(a, next, 1, 3600) * 1000;
        i++;
        break;
      case '--sample-rate':
        cli.settings.sampleRate = number(a, next, 0, 1);
        i++;
        break;
      case '--no-replace':
        cli.settings.replacePhase = false;
        break;
      case '--list':
        cli.list = true;
        break;
      default:
        throw new Error(`unknown option ${a} (see --help)`);
    }
  }
  return cli;
}

function table(report: BenchReport): string {
  const lines = ['| scenario | uses | grade | hidden right | healthy unchanged | replace: hidden / healthy | held | s to patch |', '|---|---|---|---|---|---|---|---|'];
  for (const r of report.scenarios) {
    const f = r.fallback;
    const x = r.replace;
    lines.push(`| ${r.id} | ${r.uses.join(', ') || '-'} | ${r.grade} | ${f ? `${f.hiddenCorrect}/${f.hiddenTotal}` : '-'} | ${f ? `${f.healthyUnchanged}/${f.healthyTotal}` : '-'} | ${x ? `${x.hiddenCorrect}/${x.hiddenTotal} / ${x.healthyUnchanged}/${x.healthyTotal}` : '-'} | ${r.held ? `yes (${r.confidence ?? '?'})` : 'no'} | ${r.msToPatch === undefined ? '-' : (r.msToPatch / 1000).toFixed(1)} |`);
  }
  const t = report.totals;
  lines.push('', `fixed correctly ${t.fixed} of ${t.run} run (${t.scenarios} scenarios, ${t.skipped} skipped); plausible but wrong ${t.wrong}; held for approval ${t.held} (correct once approved ${t.heldCorrect}, wrong ${t.heldWrong}); no patch ${t.noPatch}`);
  lines.push(`wall time ${(report.ms / 1000).toFixed(0)} s; load average at start ${report.machine.loadAvgAtStart.map((l) => l.toFixed(2)).join(' ')}, at end ${report.machine.loadAvgAtEnd.map((l) => l.toFixed(2)).join(' ')} (${report.machine.cores} cores)`);
  return lines.join('\n');
}

async function main(): Promise<number> {
  let cli: Cli | 'help';
  try {
    cli = parse(process.argv.slice(2));
  } catch (e) {
    console.error((e as Error).message);
    return 2;
  }
  if (cli === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  let scenarios = await loadScenarios();
  if (cli.only) {
    const unknown = cli.only.filter((id) => !scenarios.some((s) => s.id === id));
    if (unknown.length) {
      console.error(`unknown scenario(s): ${unknown.join(', ')}; known: ${scenarios.map((s) => s.id).join(', ')}`);
      return 2;
    }
    scenarios = scenarios.filter((s) => cli.only?.includes(s.id));
  }
  if (cli.list) {
    for (const s of scenarios) console.log(`${s.id}${s.uses.length ? ` (uses ${s.uses.join(', ')})` : ''}: ${s.title}`);
    return 0;
  }
  const report = await runScenarios(scenarios, { ...cli.settings, log: (line) => console.log(line) });
  console.log(`\n${table(report)}`);
  if (cli.json) {
    mkdirSync(dirname(cli.json), { recursive: true });
    writeFileSync(cli.json, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`results: ${cli.json}`);
  }
  return 0;
}

process.exitCode = await main();
