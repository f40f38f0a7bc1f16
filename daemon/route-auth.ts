import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HttpError } from './http-errors.ts';

const digest = (token: string) => createHash('sha256').update(token).digest();

/**
 * Bearer-token checks. Tokens are compared through their SHA-256 digests (a map lookup on a
 * digest leaks nothing useful about the token through timing; the admin token uses timingSafeEqual).
 */
export class RouteAuth {
  readonly #appByDigest = new Map<string, string>();
  readonly #admin: Buffer | undefined;

  constructor(appTokens: Record<string, string>, adminToken: string | undefined) {
    for (const [app, token] of Object.entries(appTokens)) this.#appByDigest.set(digest(token).toString('hex'), app);
    this.#admin = adminToken ? digest(adminToken) : undefined;
  }

  #bearer(request: FastifyRequest): string {
    const header = request.headers.authorization;
    if (!header) throw new HttpError('SUTURE_UNAUTHENTICATED', 'missing Authorization: Bearer <token>');
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new HttpError('SUTURE_UNAUTHENTICATED', 'Authorization must be "Bearer <token>"');
    return m[1];
  }

  #isAdmin(token: string): boolean {
    return this.#admin !== undefined && timingSafeEqual(digest(token), this.#admin);
  }

  /** Allows the token of `app` (or the admin token); 401 for no or an unknown token, 403 for another app's token. */
  app(request: FastifyRequest, app: string): void {
    const token = this.#bearer(request);
    if (this.#isAdmin(token)) return;
    const owner = this.#appByDigest.get(digest(token).toString('hex'));
    if (owner === undefined) throw new HttpError('SUTURE_UNAUTHENTICATED', 'unknown token');
    if (owner !== app) throw new HttpError('SUTURE_FORBIDDEN', `this token is not allowed for app "${app}"`);
  }

  /** Allows any known token (app or admin): 401 otherwise. */
  known(request: FastifyRequest): void {
    const token = this.#bearer(request);
    if (this.#isAdmin(token) || this.#appByDigest.has(digest(token).toString('hex'))) return;
    throw new HttpError('SUTURE_UNAUTHENTICATED', 'unknown token');
  }

  /** Allows only the admin token; an app token gets 403. */
  admin(request: FastifyRequest): void {
    const token = this.#bearer(request);
    if (this.#isAdmin(token)) return;
    if (this.#appByDigest.has(digest(token).toString('hex'))) throw new HttpError('SUTURE_FORBIDDEN', 'app tokens cannot use the admin API');
    throw new HttpError('SUTURE_UNAUTHENTICATED', this.#admin ? 'unknown token' : 'the admin API is disabled (no admin token configured)');
  }
}
