import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { DaemonContext } from '../daemon-context.ts';
import type { ServiceEvent } from '../event-bus.ts';
import { HTTP_ERRORS, HttpError, errorBody } from '../http-errors.ts';
import { appQuerySchema, manifestPatchSchema, manifestSchema, noPatchSchema, patchWaitParamsSchema, patchWaitQuerySchema } from '../http-schemas.ts';
import { noPatchReason } from '../../service/bug-status.ts';
import { PATCH_STATUS_TABLE } from '../../service/patch-lifecycle.ts';
import type { NoPatchAnswer } from '../../core/wire.ts';
import type { PatchRecord } from '../../service/store/service-store.ts';
import { ManifestBuilder, manifestEtag, toManifestPatch } from '../manifest-builder.ts';
import { setMaxListeners } from 'node:events';

const SSE_HEARTBEAT_MS = 15_000;

/** Manifest (ETag/304), its SSE stream, the per-bug long poll, and the public key. */
export function registryRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  const { store, auth, bus, config } = ctx;
  const manifests = new ManifestBuilder(store);
  // Hijacked SSE responses are outside fastify's bookkeeping: close() would wait on them forever.
  // They are ended before the server closes; SDKs reconnect to the next daemon.
  const streams = new Set<ServerResponse>();
  let closing = false;
  // Long polls end (204) when the daemon closes, rather than holding close() until their deadline.
  const shutdown = new AbortController();
  setMaxListeners(0, shutdown.signal); // one listener per open long poll
  app.addHook('preClose', async () => {
    closing = true;
    shutdown.abort();
    for (const res of streams) res.end();
    streams.clear();
  });

  app.get('/v1/manifest', {
    schema: { tags: ['registry'], summary: 'Signed patches of an app; ETag and 304 on If-None-Match', querystring: appQuerySchema, response: { 200: manifestSchema, 304: { description: 'unchanged since If-None-Match', type: 'null' } } },
  }, async (request, reply) => {
    const { app: appName } = request.query as { app: string };
    auth.app(request, appName);
    const etagOf = manifestEtag(await store.revision(appName));
    reply.header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === etagOf) return reply.code(304).header('etag', etagOf).send();
    const built = await manifests.build(appName);
    return reply.header('etag', manifestEtag(built.revision)).type('application/json').send(built.json);
  });

  app.get('/v1/manifest/stream', {
    schema: { tags: ['registry'], summary: 'Server-Sent Events: `manifest` event with the whole manifest on connect and on every change', querystring: appQuerySchema },
  }, async (request, reply) => {
    const { app: appName } = request.query as { app: string };
    auth.app(request, appName);
    const first = await manifests.build(appName);
    // A stream opened while the daemon closes would hold close() open forever: send the client on.
    if (closing) return reply.code(HTTP_ERRORS.SUTURE_CLOSING.status).header('retry-after', '1').send(errorBody('SUTURE_CLOSING', 'the daemon is shutting down'));
    reply.hijack();
    const res = reply.raw;
    streams.add(res);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    let sent = -1;
    let building = false;
    let again = false;
    const send = (m: { revision: number; json: string }) => {
      if (m.revision <= sent) return;
      sent = m.revision;
      res.write(`event: manifest\nid: ${m.revision}\ndata: ${m.json}\n\n`);
    };
    // Rebuild once per burst of events; an event arriving during a rebuild triggers one more.
    const refresh = async () => {
      if (building) {
        again = true;
        return;
      }
      building = true;
      try {
        do {
          again = false;
          send(await manifests.build(appName));
        } while (again);
      } catch (error) {
        ctx.log.warn({ err: error }, 'manifest stream refresh failed');
      } finally {
        building = false;
      }
    };
    const onEvent = (e: ServiceEvent) => {
      if (e.app === appName && 'revision' in e && e.revision > sent) void refresh();
    };
    send(first);
    bus.on('event', onEvent);
    const heartbeat = setInterval(() => res.write(': ping\n\n'), SSE_HEARTBEAT_MS);
    heartbeat.unref();
    request.raw.on('close', () => {
      streams.delete(res);
      clearInterval(heartbeat);
      bus.off('event', onEvent);
    });
  });

  app.get('/v1/failures/:fingerprint/patch', {
    schema: {
      tags: ['registry'],
      summary: "Long poll for the live patch of one bug: 200 with the patch; 200 with {status: 'no-patch', bugStatus, reason} at once when none will come (the block reads names suture cannot see, the search found no plausible candidate or its winner was refused, the job failed, the patch was rejected); 204 when none by the deadline",
      params: patchWaitParamsSchema,
      querystring: patchWaitQuerySchema,
      response: { 200: { anyOf: [manifestPatchSchema, noPatchSchema] }, 204: { description: 'no live patch by the deadline', type: 'null' } },
    },
  }, async (request, reply) => {
    const { fingerprint } = request.params as { fingerprint: string };
    const wait = Math.min((request.query as { wait?: number }).wait ?? 0, config.longPollMaxMs);
    auth.known(request);
    const bug = await store.getBug(fingerprint);
    if (!bug) throw new HttpError('SUTURE_UNKNOWN_BUG', `no bug with fingerprint ${fingerprint}`);
    auth.app(request, bug.app);
    // The live patch, or the answer that none will come for the bug as it stands.
    const answer = async (): Promise<PatchRecord | NoPatchAnswer | null> => {
      const b = await store.getBug(fingerprint);
      if (!b) return null;
      if (b.patchId) {
        const p = await store.getPatch(b.patchId);
        if (p && PATCH_STATUS_TABLE[p.status].live) return p;
      }
      const reason = noPatchReason(b);
      if (reason === null) return null;
      return { status: 'no-patch', bugStatus: b.status, reason, ...(b.unseen ? { names: b.unseen } : {}) };
    };
    const deadline = Date.now() + wait;
    const closed = new AbortController();
    request.raw.on('close', () => closed.abort());
    if (shutdown.signal.aborted) closed.abort();
    else shutdown.signal.addEventListener('abort', () => closed.abort(), { once: true, signal: closed.signal });
    let found = await answer();
    while (!found && Date.now() < deadline && !closed.signal.aborted) {
      await bus.waitFor((e) => e.app === bug.app && (e.type !== 'bug-status' || e.fingerprint === fingerprint), deadline - Date.now(), closed.signal);
      found = await answer();
    }
    if (!found) return reply.code(204).send();
    return found.status === 'no-patch' ? found : toManifestPatch(found);
  });

  app.get('/v1/public-key', {
    schema: {
      tags: ['registry'],
      summary: 'Ed25519 public key (SPKI PEM) that verifies every patch signature',
      response: { 200: { type: 'object', properties: { algorithm: { type: 'string' }, publicKey: { type: 'string' } } } },
    },
  }, async () => ({ algorithm: 'ed25519', publicKey: ctx.keys.publicKeyPem }));
}
