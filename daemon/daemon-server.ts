import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import swagger from '@fastify/swagger';
import { Ajv } from 'ajv';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { SutureConfig } from '../config/config-settings.ts';
import type { DaemonContext } from './daemon-context.ts';
import { dashboardRoutes } from './dashboard/dashboard-routes.ts';
import { EventBus } from './event-bus.ts';
import { HTTP_ERRORS, HttpError, errorBody, frameworkErrorCode, type HttpErrorCode } from './http-errors.ts';
import { createRepairQueue } from '../service/repair-queue.ts';
import { RepairScheduler } from './repair-scheduler.ts';
import { RouteAuth } from './route-auth.ts';
import { adminRoutes } from './routes/admin-routes.ts';
import { ingestRoutes } from './routes/ingest-routes.ts';
import { opsRoutes } from './routes/ops-routes.ts';
import { registryRoutes } from './routes/registry-routes.ts';
import { createDaemonMetrics } from './service-metrics.ts';
import { loadSigningKeys } from '../service/signing-keys.ts';
import { SnapshotLimitError } from './snapshot-limits.ts';
import { ServiceStore } from '../service/store/service-store.ts';
import { claimFleetKey, connectRedis, createRedis, createServiceLogger } from '../service/service-runtime.ts';

/** How long close() lets requests in flight finish before cutting connections. */
const CLOSE_GRACE_MS = 3000;

export interface Daemon {
  app: FastifyInstance;
  context: DaemonContext;
  /** The URL it listens on, after listen(). */
  url: string;
  listen(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Builds the daemon: Redis connections, BullMQ queue, signing keys, routes. Throws a descriptive
 * error when Redis is unreachable or the signing key differs from the one the fleet uses.
 */
export async function createDaemon(config: SutureConfig, options: { logger?: Logger } = {}): Promise<Daemon> {
  const log = options.logger ?? createServiceLogger(config, 'suture-daemon');
  const redis = createRedis(config.redisUrl);
  // The subscriber keeps an offline queue so it re-subscribes by itself after Redis comes back.
  const subscriber = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: null });
  for (const [name, client] of [['redis', redis], ['subscriber', subscriber]] as const) {
    client.on('error', (error: Error) => log.warn({ client: name, err: error.message }, 'redis connection error'));
  }
  await connectRedis(config.redisUrl, redis, subscriber);
  const store = new ServiceStore(redis, config.prefix);
  const keys = loadSigningKeys({ dataDir: config.dataDir, keyFile: config.signingKeyFile });
  try {
    await claimFleetKey(store, keys, config.prefix);
  } catch (error) {
    await Promise.all([redis.quit(), subscriber.quit()]);
    throw error;
  }
  const queue = createRepairQueue(config);
  queue.on('error', (error: Error) => log.warn({ err: error.message }, 'queue connection error'));
  await queue.waitUntilReady();
  const bus = new EventBus(subscriber, store.keys.events());
  await bus.start();
  const metrics = createDaemonMetrics(queue);
  const scheduler = new RepairScheduler(queue, store, config, () => metrics.jobsQueued.inc());
  const context: DaemonContext = { config, redis, store, queue, scheduler, bus, auth: new RouteAuth(config.appTokens, config.adminToken), metrics, keys, log };

  const app = Fastify({
    loggerInstance: log,
    bodyLimit: config.maxBodyBytes,
    // Clients may hold SSE streams and long polls; the request timeout must not cut those.
    requestTimeout: 0,
    // One access line per request, at debug level (the onResponse hook): fleets poll and report
    // all the time, and info-level logs are for what an operator must see.
    logController: new LogController({ disableRequestLogging: true }),
  }) as unknown as FastifyInstance;
  app.setValidatorCompiler(validatorCompiler());
  await app.register(swagger, {
    openapi: {
      info: { title: 'suture daemon', version: '0.1.0', description: 'Failure ingest, signed patch registry, rollout and approvals' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });

  app.addHook('onRequest', async (request) => {
    const url = request.url;
    if (url.startsWith('/v1/') && !url.startsWith('/v1/admin') && !url.startsWith('/v1/public-key')) context.auth.known(request);
  });
  app.addHook('onResponse', async (request, reply) => {
    metrics.http.observe({ route: request.routeOptions.url ?? 'unmatched', method: request.method, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    request.log.debug({ method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });
  const answer = (reply: FastifyReply, code: HttpErrorCode, message: string) => reply.code(HTTP_ERRORS[code].status).send(errorBody(code, message));
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError || error instanceof SnapshotLimitError) return answer(reply, error.code, error.message);
    if (error.validation) return answer(reply, 'SUTURE_INVALID_REQUEST', error.message);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return answer(reply, frameworkErrorCode(error.statusCode), error.message);
    if (redis.status !== 'ready') {
      request.log.warn({ err: error.message }, 'redis unavailable');
      return answer(reply, 'SUTURE_UNAVAILABLE', 'storage unavailable, retry later');
    }
    request.log.error({ err: error }, 'request failed');
    return answer(reply, 'SUTURE_INTERNAL', 'internal error');
  });
  app.setNotFoundHandler((request, reply) => answer(reply, 'SUTURE_NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`));

  ingestRoutes(app, context);
  registryRoutes(app, context);
  adminRoutes(app, context);
  opsRoutes(app, context);
  dashboardRoutes(app, context);

  const daemon: Daemon = {
    app,
    context,
    url: '',
    async listen() {
      const address = await app.listen({ port: config.port, host: config.host });
      daemon.url = address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
      log.info({ url: daemon.url, prefix: config.prefix }, 'suture daemon listening');
      return daemon.url;
    },
    async close() {
      // Requests in flight get a grace period to finish; then every connection is cut, so a client
      // that keeps a connection busy (a stream reopened mid-shutdown) cannot hold close() open.
      const force = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
      force.unref();
      try {
        await app.close();
      } finally {
        clearTimeout(force);
      }
      await queue.close().catch(() => {});
      redis.disconnect();
      subscriber.disconnect();
    },
  };
  return daemon;
}

/**
 * Bodies are validated as sent (no type coercion: `"args": "x"` is an error, not `["x"]`); query
 * strings and path parameters are text, so there "?wait=500" may validate as an integer.
 */
function validatorCompiler() {
  const options = { allErrors: false, useDefaults: true, removeAdditional: false, strict: false } as const;
  const exact = new Ajv({ ...options, coerceTypes: false });
  const coercing = new Ajv({ ...options, coerceTypes: true });
  const cache = new WeakMap<object, ReturnType<Ajv['compile']>>();
  return ({ schema, httpPart }: { schema: object; httpPart?: string }) => {
    const ajv = httpPart === 'querystring' || httpPart === 'params' ? coercing : exact;
    if (httpPart === 'body' && cache.has(schema)) return cache.get(schema)!;
    const fn = ajv.compile(schema);
    if (httpPart === 'body') cache.set(schema, fn);
    return fn;
  };
}
