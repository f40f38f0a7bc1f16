import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FailureReport, RecordedCall, RecordedCasesBatch } from '../../core/wire.ts';

export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  at: number;
}

/** A small local HTTP server standing in for the daemon's transport (not its logic). */
export async function startStubDaemon(handle: (req: StubRequest, res: ServerResponse) => void) {
  const requests: StubRequest[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const r = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, at: Date.now() };
      requests.push(r);
      handle(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export function json(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

/** The recorded calls of a block the stub received (POST /v1/cases), in order. */
export function recordedCallsOf(requests: StubRequest[], blockId: string): RecordedCall[] {
  return requests
    .filter((r) => r.path === '/v1/cases')
    .flatMap((r) => (r.body as RecordedCasesBatch).blocks)
    .filter((b) => b.id === blockId)
    .flatMap((b) => b.calls);
}

/** The failure reports of a block the stub received (POST /v1/failures), in order. */
export function failureReportsOf(requests: StubRequest[], blockId: string): FailureReport[] {
  return requests.filter((r) => r.path === '/v1/failures').map((r) => r.body as FailureReport).filter((r) => r.block.id === blockId);
}
