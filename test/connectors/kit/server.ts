// The plumbing every provider fake shares: a node:http server on 127.0.0.1:0 that records each request (with its
// body) before handing it to the fake's router, records the answer the fake gave (so the contract can check it
// against the provider's description), turns a bug in the fake into a visible 500 plus an `unhandled`
// entry instead of a hung request, and closes without waiting on clients' keep-alive sockets.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface RecordedResponse {
  status: number;
  /** As the fake declared it, or '' when it sent none. */
  contentType: string;
  /** The first RESPONSE_BODY_LIMIT bytes of the body (fewer once the server's answer budget is spent), as UTF-8. */
  body: string;
  /** The body was longer than what was kept of it; `body` holds only its start. */
  truncated: boolean;
}

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Set when the fake ends its answer; absent while the request is in flight. */
  response?: RecordedResponse;
}

/**
 * Answers are kept up to this size: enough for every JSON page a fake serves, while a download test streaming
 * hundreds of megabytes through a fake does not hold them in memory.
 */
export const RESPONSE_BODY_LIMIT = 1024 * 1024;

/**
 * What one server keeps of all its answers together: a benchmark's fake serving thousands of pages must not
 * grow by each of them. A test's fake answers a few megabytes at most.
 */
export const ANSWER_BUDGET = 64 * 1024 * 1024;

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
  /** Bytes of answer bodies this server keeps in all (default ANSWER_BUDGET); later answers keep none. */
  answerBudgetBytes?: number;
}

export async function startRecordingServer(
  handle: Handler,
  log: { requests: RecordedRequest[]; unhandled: RecordedRequest[] } = { requests: [], unhandled: [] },
  opts: RecordingServerOptions = {},
): Promise<RecordingServer> {
  const delayMs = opts.responseDelayMs ?? 0;
  const budget = { left: opts.answerBudgetBytes ?? ANSWER_BUDGET };
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
      recordResponse(res, recorded, budget);
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
 * here, never copied from a recording or a fault's headers. A stream (a download of any size) is piped with
 * backpressure and the headers as given: its content-length is the caller's (none: chunked).
 */
export function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: unknown,
): void {
  if (body instanceof Readable) {
    res.writeHead(status, headers);
    // A client that goes away mid-download is normal; the stream is dropped with the response.
    pipeline(body, res).catch(() => {});
    return;
  }
  let payload: string | Buffer;
  if (body === undefined) payload = '';
  else if (typeof body === 'string' || Buffer.isBuffer(body)) payload = body;
  else payload = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(payload)) });
  res.end(payload);
}

/**
 * Lets at most `limit` body bytes of this response through, then destroys the socket once they are written
 * (a connection reset mid-answer). Wraps the response's write/end, so it cuts JSON, raw and streamed answers
 * alike; a body shorter than the limit goes out whole and the connection is still cut instead of ended.
 */
export function cutAfter(res: ServerResponse, limit: number): void {
  let sent = 0;
  let cut = false;
  const write = res.write.bind(res) as (chunk: Buffer, cb?: (err?: Error | null) => void) => boolean;
  const destroy = () => res.socket?.destroy();
  const take = (chunk: unknown, encoding: unknown): boolean => {
    if (cut || chunk === undefined || chunk === null || typeof chunk === 'function') return !cut;
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk as Uint8Array);
    const room = limit - sent;
    if (buf.length < room) {
      sent += buf.length;
      return write(buf);
    }
    sent = limit;
    cut = true;
    // Destroyed once written (not merely queued), so the client sees exactly `limit` body bytes.
    write(buf.subarray(0, room), destroy);
    return false;
  };
  res.write = ((chunk: unknown, encoding?: unknown) => take(chunk, encoding)) as typeof res.write;
  res.end = ((chunk?: unknown, encoding?: unknown) => {
    take(chunk, encoding);
    if (!cut) {
      cut = true;
      if (!res.headersSent) res.flushHeaders();
      setImmediate(destroy);
    }
    return res;
  }) as typeof res.end;
}

/** Taps writeHead/write/end so that whatever the fake answers — send(), a pipe, a stream — is recorded. */
function recordResponse(res: ServerResponse, recorded: RecordedRequest, budget: { left: number }): void {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let truncated = false;
  let declaredType: string | undefined;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const room = Math.min(RESPONSE_BODY_LIMIT - keptBytes, budget.left);
    // Past the limit nothing is converted or copied: a download streams through at full speed.
    if (room <= 0) {
      if ((typeof chunk === 'string' ? chunk.length : (chunk as Uint8Array).byteLength) > 0) truncated = true;
      return;
    }
    const view =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(
            (chunk as Uint8Array).buffer,
            (chunk as Uint8Array).byteOffset,
            (chunk as Uint8Array).byteLength,
          );
    if (view.length > room) truncated = true;
    // A copy, so a fake reusing its buffer cannot change what was recorded.
    const part = Buffer.from(view.subarray(0, room));
    kept.push(part);
    keptBytes += part.length;
    budget.left -= part.length;
  };
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    // writeHead(status, [reason], [headers]): headers passed here never reach getHeader().
    const headers = args.find((arg, i) => i > 0 && typeof arg === 'object' && arg !== null);
    declaredType = contentTypeOf(headers) ?? declaredType;
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
  const write = res.write;
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    keep(chunk, rest[0]);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse['write'];
  const end = res.end;
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    keep(args[0], args[1]);
    const out = (end as (...a: unknown[]) => ServerResponse).apply(this, args);
    // Recorded at end() rather than on 'finish', so it is in place before the client can have read the answer.
    const header = res.getHeader('content-type');
    recorded.response ??= {
      status: res.statusCode,
      contentType: declaredType ?? (header === undefined ? '' : String(header)),
      body: Buffer.concat(kept).toString('utf8'),
      truncated,
    };
    return out;
  } as ServerResponse['end'];
}

function contentTypeOf(headers: unknown): string | undefined {
  if (Array.isArray(headers)) {
    // The flat [name, value, name, value] form, or [[name, value], ...].
    const pairs: unknown[][] = Array.isArray(headers[0])
      ? (headers as unknown[][])
      : Array.from({ length: Math.floor(headers.length / 2) }, (_, i) => [
          headers[2 * i],
          headers[2 * i + 1],
        ]);
    const pair = pairs.find((p) => String(p[0]).toLowerCase() === 'content-type');
    return pair === undefined ? undefined : String(pair[1]);
  }
  if (typeof headers !== 'object' || headers === null) return undefined;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'content-type' && value !== undefined) return String(value);
  }
  return undefined;
}
