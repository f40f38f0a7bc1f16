import type { Command } from 'commander';
import type { BugRecord, PatchRecord } from '../service/store/service-store.ts';
import { noPatchReason } from '../service/bug-status.ts';
import { evidenceCounts, evidenceWarning, FAILING_INPUTS_ONLY } from '../core/patch-evidence.ts';
import type { AdminClient } from './admin-client.ts';
import { adminCommand, age, runAdmin, table } from './admin-command.ts';

interface JobRow {
  id: string;
  state: string;
  data?: { fingerprint?: string; app?: string; round?: number };
  progress?: { phase?: string; tried?: number; plausible?: number; best?: { generator: string; description: string; score?: number } } | number;
  attemptsMade?: number;
  failedReason?: string;
}

export interface ServiceStatus {
  apps: string[];
  bugs: BugRecord[];
  jobs: { counts: Record<string, number>; jobs: JobRow[] };
  patches: PatchRecord[];
}

/** Bugs, jobs and patches of every app (or of one), read from the admin API. */
export async function readStatus(client: AdminClient, app?: string): Promise<ServiceStatus> {
  const apps = app ? [app] : (await client.get<{ apps: string[] }>('/v1/admin/apps')).apps;
  const perApp = await Promise.all(apps.map(async (a) => {
    const q = encodeURIComponent(a);
    const [bugs, patches] = await Promise.all([
      client.get<{ bugs: BugRecord[] }>(`/v1/admin/bugs?app=${q}`),
      client.get<{ patches: PatchRecord[] }>(`/v1/admin/patches?app=${q}`),
    ]);
    return { bugs: bugs.bugs, patches: patches.patches };
  }));
  const jobs = await client.get<ServiceStatus['jobs']>('/v1/admin/jobs?limit=50');
  if (app) jobs.jobs = jobs.jobs.filter((j) => j.data?.app === app);
  return { apps, bugs: perApp.flatMap((p) => p.bugs), jobs, patches: perApp.flatMap((p) => p.patches).sort((a, b) => b.createdAt - a.createdAt) };
}

/** Bugs, then why no patch will come for each bug where none will (a `cannot-see` bug names what to pass in `uses`). */
export function bugsTable(bugs: BugRecord[]): string {
  if (!bugs.length) return '(no bugs)';
  const rows = table(
    ['FINGERPRINT', 'APP', 'BLOCK', 'STATUS', 'SEEN', 'LAST', 'PATCH', 'ERROR'],
    bugs.map((b) => [b.fingerprint.slice(0, 16), b.app, b.blockId, b.status, b.count, age(b.lastSeen), b.patchId ?? '', `${b.errorName}: ${b.firstMessage}`]),
  );
  const notes = bugs.flatMap((b) => {
    const reason = noPatchReason(b);
    return reason === null ? [] : [`${b.status === 'cannot-see' ? '⚠ ' : ''}${b.fingerprint.slice(0, 16)} ${b.status}: ${reason}`];
  });
  return [rows, ...notes].join('\n');
}

export function jobsTable(jobs: JobRow[]): string {
  if (!jobs.length) return '(no jobs)';
  return table(
    ['JOB', 'APP', 'ROUND', 'STATE', 'PHASE', 'TRIED', 'PLAUSIBLE', 'BEST'],
    jobs.map((j) => {
      const p = typeof j.progress === 'object' && j.progress ? j.progress : {};
      return [j.id.slice(0, 20), j.data?.app, j.data?.round, j.state, p.phase, p.tried, p.plausible, p.best ? `${p.best.generator} ${p.best.description}` : j.failedReason ?? ''];
    }),
  );
}

/**
 * Patches with what they were checked against (cases by kind, re-check verdict); a patch checked
 * against failing inputs only is marked ⚠ and named again under the table.
 */
export function patchesTable(patches: PatchRecord[]): string {
  if (!patches.length) return '(no patches)';
  const rows = table(
    ['PATCH', 'APP', 'BLOCK', 'V', 'STATUS', 'ROLLOUT', 'PASSED', 'THREW', 'CREATED', 'CHECKED AGAINST', 'RE-CHECK', 'FIX'],
    patches.map((p) => [
      p.id, p.app, p.blockId, p.version, p.status, `${Math.round(p.rollout * 100)}%`, p.passed, p.threw, age(p.createdAt),
      p.evidence ? `${evidenceWarning(p.evidence) ? '⚠ ' : ''}${evidenceCounts(p.evidence)}` : '(no evidence)',
      p.evidence ? `${p.evidence.recheck.passed}/${p.evidence.recheck.total}` : '',
      `${p.score.generator}: ${p.score.description}`,
    ]),
  );
  const thin = patches.filter((p) => evidenceWarning(p.evidence));
  const warnings = thin.map((p) => `⚠ ${p.id}: checked against ${FAILING_INPUTS_ONLY} (no recorded call, no generated input)`);
  return [rows, ...warnings].join('\n');
}

export function statusCommand(): Command {
  return adminCommand('status', 'Show bugs, repair jobs and patches of every app (or --app) in tables')
    .option('--app <app>', 'only this app')
    .option('--json', 'print JSON ({apps, bugs, jobs, patches}) instead of tables')
    .action(async (opts) => {
      await runAdmin('status', opts, async (client) => {
        const s = await readStatus(client, opts.app);
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
          return;
        }
        const counts = Object.entries(s.jobs.counts).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(', ') || 'none';
        process.stdout.write(`daemon ${client.url} · apps: ${s.apps.join(', ') || '(none yet)'}\n\n`);
        process.stdout.write(`BUGS\n${bugsTable(s.bugs)}\n\nJOBS (${counts})\n${jobsTable(s.jobs.jobs)}\n\nPATCHES\n${patchesTable(s.patches)}\n`);
      });
    });
}
