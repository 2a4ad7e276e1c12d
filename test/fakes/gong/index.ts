// A wire-faithful fake of the Gong API v2 (https://api.gong.io/v2) on a real node:http server, following
// Gong's public API reference (https://help.gong.io/apidocs; see wire.ts and routes.ts for the pages).
// Dispatch order for every request:
//   1. fault injected with failNext (matching path prefix)        → the fault
//   2. no or unknown credentials (Basic access key, Bearer token)  → 401 {requestId, errors: ["Access denied"]}
//   3. over the configured per-second limit (off by default)       → 429 + Retry-After
//   4. a route of routes.ts over the seeded dataset                → its answer
//   5. anything else                                               → 404, recorded in `unhandled`
// Dataset (dataset.ts): 3 workspaces, `users` users (default 230) plus 2 avatars, `calls` calls (default 250)
// scheduled every 5 hours from 2024-01-01T08:00:00Z, each with two parties and a transcript. Lists page by
// `pageSize` records (Gong: 100).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Dataset } from './dataset.ts';
import { createRoutes, type RouteRequest } from './routes.ts';
import { CursorCodec, errorBody, MESSAGES, parseAuth, RateLimiter, send } from './wire.ts';

export interface RecordedRequest {
  method: string;
  /** path + query as received, e.g. `/v2/users?cursor=...` */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface GongFault {
  status: number;
  headers?: Record<string, string>;
  /** object → JSON, string → raw; default: Gong's error body for the status */
  body?: unknown;
  /** default 1 */
  times?: number;
  /** optional path prefix the fault applies to, e.g. `/v2/calls` */
  match?: string;
}

export interface GongFakeOptions {
  /** the accepted access key pair (Basic auth), default GONG_FAKE_ACCESS_KEY / GONG_FAKE_ACCESS_KEY_SECRET */
  accessKey?: string;
  accessKeySecret?: string;
  /** accepted OAuth bearer tokens, default none */
  oauthTokens?: string[];
  /** records per page, default 100 as Gong */
  pageSize?: number;
  /** seeded users (besides 2 avatars), default 230 */
  users?: number;
  /** seeded calls, default 250 */
  calls?: number;
  /** enforce Gong's per-second request limit (Gong: 3); default off so tests don't trip over it */
  rateLimitPerSecond?: number;
}

export interface GongFake {
  /** the API root, like https://api.gong.io/v2, e.g. http://127.0.0.1:54321/v2 */
  url: string;
  /** every request received, in order */
  requests: RecordedRequest[];
  /** requests no route matched (answered 404 AND recorded here so tests can fail on them) */
  unhandled: RecordedRequest[];
  /** fault injection: the next matching request(s) get this response instead */
  failNext(fault: GongFault): void;
  /** append `count` generated calls (dated after the existing ones) */
  seedCalls(count: number): void;
  /** the seeded data, for assertions */
  data: Dataset;
  close(): Promise<void>;
}

export const GONG_FAKE_ACCESS_KEY = 'CESFAKEACCESSKEY0001';
export const GONG_FAKE_ACCESS_KEY_SECRET = 'eyJhbGciOiJIUzI1NiJ9.eyJjZXMiOiJmYWtlIn0.ces-fake-secret-0001';

export async function startGongFake(opts: GongFakeOptions = {}): Promise<GongFake> {
  const creds = {
    accessKey: opts.accessKey ?? GONG_FAKE_ACCESS_KEY,
    accessKeySecret: opts.accessKeySecret ?? GONG_FAKE_ACCESS_KEY_SECRET,
    oauthTokens: new Set(opts.oauthTokens ?? []),
  };
  const requests: RecordedRequest[] = [];
  const unhandled: RecordedRequest[] = [];
  const faults: Array<GongFault & { times: number }> = [];
  const limiter = new RateLimiter(opts.rateLimitPerSecond);
  const data = new Dataset({ users: opts.users ?? 230, avatars: 2, calls: opts.calls ?? 250 });
  const routes = createRoutes(data, new CursorCodec(), opts.pageSize ?? 100);

  const takeFault = (path: string): GongFault | undefined => {
    const index = faults.findIndex((f) => f.match === undefined || path.startsWith(f.match));
    const fault = faults[index];
    if (fault === undefined) return undefined;
    fault.times -= 1;
    if (fault.times <= 0) faults.splice(index, 1);
    return fault;
  };

  const handle = (
    recorded: RecordedRequest,
  ): { status: number; headers?: Record<string, string>; body: unknown } => {
    const fault = takeFault(recorded.path);
    if (fault !== undefined) {
      return {
        status: fault.status,
        headers: Object.fromEntries(
          Object.entries(fault.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
        ),
        body: fault.body ?? errorBody(defaultMessage(fault.status)),
      };
    }
    const auth = parseAuth(recorded.headers, creds);
    if (auth.kind === 'none' || auth.kind === 'bad')
      return { status: 401, body: errorBody(MESSAGES.accessDenied) };
    const wait = limiter.take();
    if (wait !== undefined) {
      return { status: 429, headers: { 'retry-after': String(wait) }, body: errorBody(MESSAGES.rateLimited) };
    }
    const url = new URL(recorded.path, 'http://fake.invalid');
    const req: RouteRequest = {
      method: recorded.method,
      pathname: url.pathname,
      query: url.searchParams,
      body: recorded.method === 'POST' ? parseBody(recorded.body) : undefined,
    };
    const result = routes(req);
    if (result !== undefined) return result;
    unhandled.push(recorded);
    return { status: 404, body: errorBody(MESSAGES.notFound) };
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
      requests.push(recorded);
      try {
        const out = handle(recorded);
        send(res, out.status, out.headers ?? {}, out.body);
      } catch (error) {
        // A bug in the fake must surface in the test, not as a hung request.
        unhandled.push(recorded);
        send(res, 500, { 'content-type': 'text/plain' }, String(error));
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v2`,
    requests,
    unhandled,
    data,
    failNext(fault) {
      faults.push({ ...fault, times: fault.times ?? 1 });
    },
    seedCalls(count) {
      data.seedCalls(count);
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets from clients would otherwise hold close() open.
        server.closeAllConnections();
      });
    },
  };
}

function parseBody(raw: string): Record<string, unknown> | 'invalid' | undefined {
  if (raw === '') return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : 'invalid';
  } catch {
    return 'invalid';
  }
}

function defaultMessage(status: number): string {
  if (status === 401) return MESSAGES.accessDenied;
  if (status === 404) return MESSAGES.notFound;
  if (status === 429) return MESSAGES.rateLimited;
  if (status >= 500) return 'Failed to complete the operation due to an unexpected error';
  return MESSAGES.malformed;
}
