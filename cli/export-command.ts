import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { BlockRecord, PatchRecord, StoredFailureCase, StoredRecordedCall } from '../service/store/service-store.ts';
import { buildExport, type ExportFiles } from '../service/regression-export.ts';
import { AdminError, EXIT, type AdminClient } from './admin-client.ts';
import { adminCommand, runAdmin } from './admin-command.ts';

/** Reads a patch, its block's source and its bug's cases from the admin API and builds the export files. */
export async function exportPatch(client: AdminClient, patchId: string): Promise<ExportFiles & { patch: PatchRecord; failures: number; recorded: number }> {
  const patch = await client.get<PatchRecord>(`/v1/admin/patches/${encodeURIComponent(patchId)}`);
  const [{ blocks }, bug] = await Promise.all([
    client.get<{ blocks: BlockRecord[] }>(`/v1/admin/blocks?app=${encodeURIComponent(patch.app)}`),
    client.get<{ cases: StoredFailureCase[]; recorded?: StoredRecordedCall[] }>(`/v1/admin/bugs/${encodeURIComponent(patch.fingerprint)}`),
  ]);
  const block = blocks.find((b) => b.blockId === patch.blockId && b.sourceHash === patch.sourceHash);
  if (!block) throw new AdminError(`the daemon no longer has the source of block ${patch.blockId} (${patch.sourceHash.slice(0, 12)}) of patch ${patch.id}`, 'SUTURE_UNKNOWN_BLOCK', EXIT.refused);
  // Failures that came from running an earlier patch are that patch's, not the original's.
  const failures = bug.cases.filter((c) => !c.patchId);
  const recorded = bug.recorded ?? [];
  const files = buildExport({ patch, originalSource: block.source, failures, recorded });
  return { ...files, patch, failures: failures.length, recorded: recorded.length };
}

export function exportCommand(): Command {
  return adminCommand('export', 'Write a patch back for source control: PATCH.diff (unified diff against the block) and PATCH.test.mjs (regression test for node --test)')
    .argument('<patch>', 'patch id (see `suture patches`)')
    .requiredOption('--out <dir>', 'directory to write the two files into (created if missing)')
    .action(async (patchId: string, opts) => {
      await runAdmin('export', opts, async (client) => {
        const x = await exportPatch(client, patchId);
        const dir = resolve(opts.out);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, x.diffName), x.diff);
        writeFileSync(join(dir, x.testName), x.test);
        process.stdout.write(`${join(dir, x.diffName)}\n${join(dir, x.testName)}  (${x.failures} failing input${x.failures === 1 ? '' : 's'}, ${x.recorded} recorded call${x.recorded === 1 ? '' : 's'}; run with node --test)\n`);
      });
    });
}
