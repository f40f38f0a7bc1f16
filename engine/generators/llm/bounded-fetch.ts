/**
 * A `fetch` for the OpenAI client that (1) counts HTTP attempts, so retries show in usage,
 * (2) reads the whole body before returning, so the client's per-request timeout, which it
 * clears once headers arrive, also covers a server that stalls mid-body, and (3) caps the body
 * size, since the answer is untrusted.
 */
export interface BoundedFetchCounters {
  attempts: number;
}

/** Largest HTTP response body accepted from the endpoint. @defaultValue 2 MiB */
export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

export function boundedFetch(counters: BoundedFetchCounters, maxBytes = MAX_RESPONSE_BYTES): typeof fetch {
  return async (input, init) => {
    counters.attempts++;
    const response = await fetch(input, init);
    const body = await readCapped(response, maxBytes);
    if (body === undefined) {
      // Not retryable: the same prompt would produce the same oversized answer.
      return new Response(JSON.stringify({ error: { message: `response body exceeds ${maxBytes} bytes` } }), {
        status: 502,
        headers: { 'content-type': 'application/json', 'x-should-retry': 'false' },
      });
    }
    const nullBody = response.status === 204 || response.status === 205 || response.status === 304;
    return new Response(nullBody ? null : body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (response.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
