import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DaemonContext } from '../daemon-context.ts';
import { appQuerySchema } from '../http-schemas.ts';
import { ActivitySeries } from './activity-series.ts';
import { patchExportRoute } from './patch-export-route.ts';

/**
 * The page may load only its own script and style and talk only to its own origin: source, diffs
 * and inputs shown on it come from the apps being repaired, so anything that slips through the
 * page's escaping still cannot run or send data elsewhere.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const asset = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');

const ASSETS = {
  '/dashboard': { type: 'text/html; charset=utf-8', body: asset('dashboard.html') },
  '/dashboard/dashboard.js': { type: 'text/javascript; charset=utf-8', body: asset('dashboard.js') },
  '/dashboard/dashboard.css': { type: 'text/css; charset=utf-8', body: asset('dashboard.css') },
  '/dashboard/favicon.svg': { type: 'image/svg+xml', body: asset('favicon.svg') },
} as const;

const MAX_MINUTES = 120;

function secureHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', DASHBOARD_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store');
}

/**
 * GET /dashboard (static page, no secret in it: the admin token is typed into the page and sent by
 * its fetches), and the two admin routes only the page needs (admin token, like every /v1/admin
 * route): GET /v1/admin/activity, the time series of its chart, and the patch export download.
 */
export function dashboardRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  const series = new ActivitySeries(ctx.redis, ctx.config.prefix);

  for (const [path, { type, body }] of Object.entries(ASSETS)) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) => secureHeaders(reply).type(type).send(body));
  }
  app.get('/dashboard/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard'));

  app.get('/v1/admin/activity', {
    schema: {
      tags: ['admin'],
      summary: 'Failures and patched calls (passed, threw) of an app per time bucket, oldest first',
      querystring: {
        type: 'object',
        additionalProperties: false,
        required: ['app'],
        properties: { ...appQuerySchema.properties, minutes: { type: 'integer', minimum: 1, maximum: MAX_MINUTES } },
      },
    },
  }, async (request) => {
    const { app: appName, minutes = 15 } = request.query as { app: string; minutes?: number };
    return { app: appName, bucketMs: series.bucketMs, buckets: await series.read(appName, minutes) };
  });

  patchExportRoute(app, ctx);
}
