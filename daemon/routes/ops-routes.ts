import type { FastifyInstance } from 'fastify';
import type { DaemonContext } from '../daemon-context.ts';

const READY_TIMEOUT_MS = 1000;

/** /healthz (process up), /readyz (Redis answers), /metrics (Prometheus), /openapi.json. */
export function opsRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  const tags = ['operations'];
  app.get('/healthz', { schema: { tags, summary: 'The process is up' } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { tags, summary: 'Redis answers a PING (503 while it does not)' } }, async (_request, reply) => {
    const started = performance.now();
    try {
      await Promise.race([
        ctx.redis.ping(),
        new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer in ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS).unref()),
      ]);
      return { status: 'ready', redis: 'ok', pingMs: Number((performance.now() - started).toFixed(2)) };
    } catch (error) {
      return reply.code(503).send({ status: 'unavailable', redis: (error as Error).message, redisState: ctx.redis.status });
    }
  });

  app.get('/metrics', { schema: { tags, summary: 'Prometheus metrics' } }, async (_request, reply) => {
    reply.type(ctx.metrics.registry.contentType);
    return ctx.metrics.registry.metrics();
  });

  app.get('/openapi.json', { schema: { tags, summary: 'This OpenAPI document' } }, async () => app.swagger());
}
