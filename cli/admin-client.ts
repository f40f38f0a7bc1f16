/** Exit codes of the admin commands, the same for every command so a script can branch on them. */
export const EXIT = {
  ok: 0,
  /** The daemon refused or failed the operation (409 conflict, 404 unknown id, 5xx). */
  refused: 1,
  /** Bad usage or configuration: a missing or malformed argument (400), a bad URL, a missing or wrong token. */
  usage: 2,
  /** No daemon answered at the URL. */
  unreachable: 3,
} as const;

/** Base of the admin client's errors: each carries the exit code the CLI ends with. */
export class AdminError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

/** No daemon at the URL (connection refused, DNS, timeout). */
export class DaemonUnreachableError extends AdminError {
  constructor(url: string, cause: string) {
    super(`no suture daemon answers at ${url} (${cause}); start one with \`suture daemon\` or pass --url / SUTURE_URL`, 'SUTURE_UNREACHABLE', EXIT.unreachable);
    this.name = 'DaemonUnreachableError';
  }
}

/** The daemon answered with an error status. */
export class AdminRequestError extends AdminError {
  constructor(
    readonly status: number,
    code: string,
    message: string,
  ) {
    // 400: the arguments were malformed (a bad patch id); 401/403: the token. Both are the caller's to fix.
    super(message, code, status === 400 || status === 401 || status === 403 ? EXIT.usage : EXIT.refused);
    this.name = 'AdminRequestError';
  }
}

export interface AdminClientOptions {
  /** Daemon base URL. @defaultValue SUTURE_URL, else http://127.0.0.1:$SUTURE_PORT (7070) */
  url?: string;
  /** Admin token (Bearer). @defaultValue SUTURE_ADMIN_TOKEN */
  token?: string;
  /** Per-request timeout, ms. @defaultValue 10000 */
  timeoutMs?: number;
  /** Recorded in the daemon's audit log as the actor of decisions. @defaultValue `cli:$USER` */
  actor?: string;
}

/** The daemon on this machine, on the port `suture daemon` listens on (SUTURE_PORT, else 7070). */
export function defaultDaemonUrl(env: NodeJS.ProcessEnv = process.env): string {
  const port = env.SUTURE_PORT?.trim();
  return `http://127.0.0.1:${port && /^[0-9]{1,5}$/.test(port) ? port : '7070'}`;
}

/** HTTP client of the daemon's admin API (`/v1/admin/*`) for the CLI. */
export class AdminClient {
  readonly url: string;
  readonly #token: string | undefined;
  readonly #timeoutMs: number;
  readonly #actor: string;

  constructor(options: AdminClientOptions = {}) {
    const raw = options.url ?? process.env.SUTURE_URL ?? defaultDaemonUrl();
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new AdminError(`--url: not an absolute URL: ${raw}`, 'SUTURE_USAGE', EXIT.usage);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new AdminError(`--url: must be http or https: ${raw}`, 'SUTURE_USAGE', EXIT.usage);
    this.url = parsed.href.replace(/\/+$/, '');
    this.#token = options.token ?? process.env.SUTURE_ADMIN_TOKEN;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#actor = options.actor ?? `cli:${process.env.USER ?? 'unknown'}`;
  }

  get<T>(path: string): Promise<T> {
    return this.#request<T>('GET', path);
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.#request<T>('POST', path, body ?? {});
  }

  /** For routes that need no token (public key). */
  getPublic<T>(path: string): Promise<T> {
    return this.#request<T>('GET', path, undefined, false);
  }

  async #request<T>(method: string, path: string, body?: unknown, admin = true): Promise<T> {
    if (admin && !this.#token) throw new AdminError('no admin token: pass --token or set SUTURE_ADMIN_TOKEN (the daemon\'s adminToken)', 'SUTURE_NO_TOKEN', EXIT.usage);
    let res: Response;
    try {
      res = await fetch(this.url + path, {
        method,
        headers: {
          ...(admin ? { authorization: `Bearer ${this.#token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          'x-suture-actor': this.#actor,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      const e = error as Error & { cause?: { code?: string; message?: string } };
      throw new DaemonUnreachableError(this.url, e.cause?.code ?? e.cause?.message ?? e.message);
    }
    const text = await res.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: reported below by status */
    }
    if (!res.ok) {
      const j = (json ?? {}) as { code?: string; message?: string };
      const hint = res.status === 401 ? ' (check --token / SUTURE_ADMIN_TOKEN)' : '';
      throw new AdminRequestError(res.status, j.code ?? `HTTP_${res.status}`, `${method} ${path}: ${res.status} ${j.message ?? res.statusText}${hint}`);
    }
    if (json === undefined && text) throw new AdminRequestError(res.status, 'SUTURE_NOT_JSON', `${method} ${path}: the answer is not JSON; is ${this.url} a suture daemon?`);
    return json as T;
  }
}
