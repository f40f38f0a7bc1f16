/**
 * Minimal JSON-over-HTTP calls to the daemon with the app token and a timeout. Network errors
 * and timeouts reject; callers (queues, sync, fix waiter) turn them into retries and events.
 */
export interface DaemonResponse {
  status: number;
  etag: string | null;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  body: unknown;
}

export class DaemonHttp {
  readonly #base: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;

  constructor(base: string, token: string | undefined, timeoutMs: number) {
    this.#base = base;
    this.#headers = token ? { authorization: `Bearer ${token}` } : {};
    this.#timeoutMs = timeoutMs;
  }

  url(path: string): string {
    return this.#base + path;
  }

  authHeaders(): Record<string, string> {
    return { ...this.#headers };
  }

  async request(
    method: 'GET' | 'POST',
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<DaemonResponse> {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? this.#timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    const headers: Record<string, string> = { ...this.#headers, ...options.headers };
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const res = await fetch(this.url(path), { method, headers, body, signal });
    const text = await res.text();
    let parsed: unknown;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    return { status: res.status, etag: res.headers.get('etag'), body: parsed };
  }
}

/** Statuses where sending the same thing again later may succeed. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}
