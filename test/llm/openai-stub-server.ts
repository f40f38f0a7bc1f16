import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the stub received it. */
export interface ReceivedRequest {
  index: number;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
  receivedAt: number;
}

export type StubHandler = (request: ReceivedRequest, res: ServerResponse) => void | Promise<void>;

/**
 * A local OpenAI-compatible HTTP server on 127.0.0.1 (port 0) for tests: the real openai client
 * talks to it over real HTTP. It records every request and how many were in flight at once.
 */
export class OpenAiStubServer {
  readonly requests: ReceivedRequest[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Requests whose client went away before the stub answered. */
  closedEarly = 0;
  readonly #server = createServer((req, res) => void this.#handle(req, res));
  readonly #open = new Set<ServerResponse>();

  constructor(readonly handler: StubHandler) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  async stop(): Promise<void> {
    for (const res of this.#open) res.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const request: ReceivedRequest = {
      index: this.requests.length,
      path: req.url ?? '',
      headers: req.headers,
      body: text ? JSON.parse(text) : undefined,
      receivedAt: Date.now(),
    };
    this.requests.push(request);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.#open.add(res);
    res.on('close', () => {
      this.inFlight--;
      this.#open.delete(res);
      if (!res.writableFinished) this.closedEarly++;
    });
    await this.handler(request, res);
  }
}

/** A chat completion body whose message content is `content`. */
export function completion(content: string, usage = { prompt_tokens: 100, completion_tokens: 20 }, model = 'stub-model'): string {
  return JSON.stringify({
    id: 'chatcmpl-stub',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  });
}

export function sendJson(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Drains an async iterable, recording when each item arrived. */
export async function collect<T>(items: AsyncIterable<T>): Promise<{ items: T[]; at: number[] }> {
  const out: T[] = [];
  const at: number[] = [];
  for await (const item of items) {
    out.push(item);
    at.push(Date.now());
  }
  return { items: out, at };
}
