import type { FastifyInstance } from 'fastify';
import { buildExport } from '../../service/regression-export.ts';
import type { DaemonContext } from '../daemon-context.ts';
import { HttpError } from '../http-errors.ts';
import { patchIdSchema } from '../http-schemas.ts';

/**
 * GET /v1/admin/patches/:id/export?file=diff|test: the same two files as `suture export`, one at a
 * time, as a download for the dashboard (a browser cannot run the export code itself without a
 * build step).
 */
export function patchExportRoute(app: FastifyInstance, ctx: DaemonContext): void {
  const { store } = ctx;
  app.get('/v1/admin/patches/:id/export', {
    schema: {
      tags: ['admin'],
      summary: 'A patch as source-control material: unified diff against the block (file=diff) or regression test for node --test (file=test)',
      params: { type: 'object', required: ['id'], properties: { id: patchIdSchema } },
      querystring: { type: 'object', additionalProperties: false, required: ['file'], properties: { file: { type: 'string', enum: ['diff', 'test'] } } },
    },
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { file } = request.query as { file: 'diff' | 'test' };
    const patch = await store.getPatch(id);
    if (!patch) throw new HttpError('SUTURE_UNKNOWN_PATCH', `no patch ${id}`);
    const [block, cases, recorded] = await Promise.all([
      store.getBlock(patch.app, patch.blockId, patch.sourceHash),
      store.bugCases(patch.fingerprint),
      store.recordedCalls(patch.app, patch.blockId, patch.sourceHash),
    ]);
    if (!block) throw new HttpError('SUTURE_UNKNOWN_BLOCK', `the source of block ${patch.blockId} of patch ${id} is no longer stored`);
    // Failures that came from running an earlier patch are that patch's, not the original's.
    const files = buildExport({ patch, originalSource: block.source, failures: cases.filter((c) => !c.patchId), recorded });
    const [name, body, type] = file === 'diff' ? [files.diffName, files.diff, 'text/x-diff'] : [files.testName, files.test, 'text/javascript'];
    return reply
      .type(`${type}; charset=utf-8`)
      .header('content-disposition', `attachment; filename="${name.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
      .header('x-content-type-options', 'nosniff')
      .send(body);
  });
}
