// The plumbing every provider fake shares: a node:http server on 127.0.0.1:0 that records each request (with its
// body) before handing it to the fake's router, turns a bug in the fake into a visible 500 plus an `unhandled`
// entry instead of a hung request, and closes without waiting on clients' keep-alive sockets.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RecordingServer {
  origin: string;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  /** Idempotent, so a test may close early (to release a hung request) and again in its teardown. */
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest) => void;

export interface RecordingServerOptions {
  /** Answer every request this much later, like a provider across the internet (benchmarks); default 0. */
  responseDelayMs?: number;
}

export async function startRecordingServer(
  handle: Handler,
  log: { requests: RecordedRequest[]; unhandled: RecordedRequest[] } = { requests: [], unhandled: [] },
  opts: RecordingServerOptions = {},
): Promise<RecordingServer> {
  const delayMs = opts.responseDelayMs ?? 0;
  const dispatch = (req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest) => {
    try {
      handle(req, res, recorded);
    } catch (error) {
      // A bug in the fake must surface in the test, not as a hung request.
      log.unhandled.push(recorded);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    }
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: (req.method ?? 'GET').toUpperCase(),
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      log.requests.push(recorded);
      if (delayMs > 0) setTimeout(dispatch, delayMs, req, res, recorded);
      else dispatch(req, res, recorded);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests: log.requests,
    unhandled: log.unhandled,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets from clients (undici) and hung requests would otherwise hold close() open.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/**
 * Writes a response: a JSON-encoded object, or a string/Buffer as it is. content-length is always computed
 * here, never copied from a recording or a fault's headers.
 */
export function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: unknown,
): void {
  let payload: string | Buffer;
  if (body === undefined) payload = '';
  else if (typeof body === 'string' || Buffer.isBuffer(body)) payload = body;
  else payload = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(payload)) });
  res.end(payload);
}
