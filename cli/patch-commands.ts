import type { Command } from 'commander';
import { PATCH_DECISIONS, type PatchDecision } from '../service/patch-lifecycle.ts';
import type { PatchRecord } from '../service/store/service-store.ts';
import { adminCommand, runAdmin } from './admin-command.ts';
import { patchesTable } from './status-command.ts';

export function patchesCommand(): Command {
  return adminCommand('patches', 'List patches with status, rollout share and patched-call counters')
    .option('--app <app>', 'only this app')
    .option('--json', 'print the patches as JSON')
    .action(async (opts) => {
      await runAdmin('patches', opts, async (client) => {
        const apps = opts.app ? [opts.app as string] : (await client.get<{ apps: string[] }>('/v1/admin/apps')).apps;
        const lists = await Promise.all(apps.map((a) => client.get<{ patches: PatchRecord[] }>(`/v1/admin/patches?app=${encodeURIComponent(a)}`)));
        const patches = lists.flatMap((l) => l.patches).sort((a, b) => b.createdAt - a.createdAt);
        process.stdout.write(opts.json ? `${JSON.stringify({ patches }, null, 2)}\n` : `${patchesTable(patches)}\n`);
      });
    });
}

/** One operator decision of the lifecycle table (approve, reject, promote, rollback, replace, fallback): one POST; a patch in the wrong state exits 1 (409). */
export function decisionCommand(action: PatchDecision): Command {
  const decision = PATCH_DECISIONS[action];
  const cmd = adminCommand(action, decision.summary)
    .argument('<patch>', 'patch id (see `suture patches`)')
    .option('--reason <text>', 'reason, kept in the audit log');
  if (action === 'rollback') cmd.option('--requeue', 'queue the bug for a new repair round afterwards');
  if (decision.kind === 'status' && decision.takesMode) cmd.option('--mode <mode>', 'fallback or replace (how instances use the patch)');
  return cmd.action(async (patchId: string, opts) => {
    await runAdmin(action, opts, async (client) => {
      const before = await client.get<PatchRecord>(`/v1/admin/patches/${encodeURIComponent(patchId)}`);
      const body: Record<string, unknown> = {};
      if (opts.reason) body.reason = opts.reason;
      if (opts.requeue) body.requeue = true;
      if (opts.mode) body.mode = opts.mode;
      const r = await client.post<{ patch: PatchRecord; jobId?: string }>(`/v1/admin/patches/${encodeURIComponent(patchId)}/${action}`, body);
      const mode = (before.mode ?? 'fallback') !== (r.patch.mode ?? 'fallback') ? `, mode ${before.mode ?? 'fallback'} → ${r.patch.mode}` : '';
      process.stdout.write(`patch ${patchId}: ${before.status} → ${r.patch.status} (rollout ${Math.round(r.patch.rollout * 100)}%${mode})${r.jobId ? `; bug re-queued as job ${r.jobId}` : ''}\n`);
    });
  });
}
