import { Command, InvalidArgumentError } from 'commander';
import { loadSuite } from '../suite/suite-loader.ts';
import { SandboxPool, repairBlock, type CandidateReport, type EngineEvent, LlmGenerator } from '../engine/index.ts';

export function repairCommand(): Command {
  return new Command('repair')
    .description('Repair one bug of a suite and show every step: baseline, localisation, candidates, the winning diff')
    .requiredOption('--suite <dir>', 'suite directory')
    .requiredOption('--bug <id>', 'bug id')
    .option('--budget <seconds>', 'search budget, seconds', (v) => positive(v), 30)
    .option('--verbose', 'print every candidate tried, not only the first ones and the plausible ones', false)
    .action(async (opts) => {
      await narrateRepair(opts.suite, opts.bug, opts.budget, Boolean(opts.verbose));
    });
}

async function narrateRepair(suiteDir: string, bugId: string, budgetSeconds: number, verbose: boolean) {
  const suite = await loadSuite(suiteDir, { only: [bugId] });
  const bug = suite.bugs[0];
  const out = process.stdout;
  const generators: ('template' | 'llm')[] = ['template'];
  let llm: LlmGenerator | undefined;
  if (process.env.OPENAI_API_KEY && process.env.SUTURE_LLM_MODEL) {
    llm = new LlmGenerator({ model: process.env.SUTURE_LLM_MODEL });
    generators.push('llm');
    out.write(`LLM generator on: ${process.env.SUTURE_LLM_MODEL} at ${process.env.OPENAI_BASE_URL ?? 'the OpenAI default endpoint'}\n`);
  } else {
    out.write('generators: template (offline engine); set OPENAI_API_KEY and SUTURE_LLM_MODEL to add the LLM generator\n');
  }
  out.write(`\nbug ${bug.id}: ${bug.description}\n\n${indent(bug.block.source)}\n\n`);
  const pool = new SandboxPool();
  let shown = 0;
  const onEvent = (e: EngineEvent) => {
    if (e.type === 'baseline') out.write(`baseline: the original fails ${e.failing} of ${e.total} cases\n`);
    if (e.type === 'oracle') {
      const o = e.report;
      out.write(o.applied
        ? `generated inputs: ${o.generated}, ${o.cases} became cases (the original's answer), the original threw on ${o.originalThrew}${o.limits + o.misbehaved + o.unstable ? `, ${o.limits + o.misbehaved + o.unstable} dropped (limits, NaN-like answers, unstable)` : ''}\n`
        : `generated inputs: none (${o.reason})\n`);
    }
    if (e.type === 'warning') out.write(`warning: ${e.message}\n`);
    if (e.type === 'localised') {
      out.write('suspicious code, most suspicious first:\n');
      for (const r of e.top.slice(0, 3)) out.write(`  ${r.score.toFixed(2)} ${r.reason.padEnd(10)} ${JSON.stringify(bug.block.source.slice(r.start, r.end).split('\n')[0].slice(0, 70))}\n`);
      out.write('candidates (each in its own sandbox, failing cases first, stopped at the first failure):\n');
    }
    if (e.type === 'candidate' && (verbose || shown < 12 || e.candidate.status === 'plausible')) {
      shown++;
      out.write(`  #${String(e.candidate.rank).padEnd(4)} ${e.candidate.generator.padEnd(28)} ${status(e.candidate).padEnd(26)} ${e.candidate.description}\n`);
    }
  };
  try {
    const result = await repairBlock(bug.block, bug.cases, { pool, generators, llm, budgetMs: budgetSeconds * 1000, onEvent });
    out.write(`\n${result.tried} candidates tried, ${result.trials} trials, ${(result.ms / 1000).toFixed(2)} s, stopped: ${result.stoppedBy}\n`);
    if (!result.winner) {
      out.write('no plausible patch found\n');
      process.exitCode = 2;
      return;
    }
    const w = result.winner;
    out.write(`\nwinner #${w.rank} ${w.generator}: ${w.description} (score ${w.score?.toFixed(2)}, ${w.editSize} characters changed)\n${w.diff}\n`);
    out.write('trial table of the winner:\n');
    for (const t of w.trials) out.write(`  ${t.caseId.padEnd(12)} ${t.verdict.padEnd(6)} ${t.ms.toFixed(2)} ms${t.actual !== undefined ? `  returned ${JSON.stringify(t.actual)}` : ''}\n`);
    if (bug.hidden.length) {
      const hidden = await pool.run({ block: { ...bug.block, source: w.source }, cases: bug.hidden });
      const passed = hidden.results.filter((r) => r.verdict === 'pass').length;
      out.write(`hidden cases (never shown to the engine): ${passed}/${bug.hidden.length} pass\n`);
    }
  } finally {
    await pool.close();
  }
}

function status(c: CandidateReport): string {
  if (c.status === 'plausible') return `PLAUSIBLE ${c.passed}/${c.total}`;
  if (c.status === 'compile-error') return 'compile error';
  const last = c.trials.at(-1);
  return `${last?.verdict ?? c.status} on ${last?.caseId ?? '?'}`;
}

function indent(text: string) {
  return text.split('\n').map((l) => '    ' + l).join('\n');
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`expected a positive number, got "${value}"`);
  return n;
}
