// A generic fault-injecting upstream: a real node:http server on 127.0.0.1:0 that answers each request with
// the next scripted behaviour, recording what it was sent. It follows no provider's API; it exists to show
// what the runtime does when an upstream misbehaves at the HTTP or TCP level.
//
// An unscripted request gets a 500 and is recorded in `unexpected`; tests assert that list stays empty.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  /** A JSON answer, optionally after `delayMs`. */
  | { kind: 'json'; status?: number; body: unknown; headers?: Record<string, string>; delayMs?: number }
  /** Bytes sent as they are (invalid JSON, HTML error pages). */
  | { kind: 'raw'; status?: number; body: string; headers?: Record<string, string> }
  /** Reads the request and never answers. */
  | { kind: 'hang' }
  /** TCP RST before any response byte. */
  | { kind: 'reset' }
  /** Status line, headers and half the body, then TCP RST. */
  | { kind: 'reset_mid_body' }
  /** `Content-Length` larger than the bytes sent, then a clean close (FIN). */
  | { kind: 'truncate' };

export interface FaultyRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FaultyServer {
  url: string;
  requests: FaultyRequest[];
  unexpected: FaultyRequest[];
  /** Most requests ever in progress at once (answered or not). */
  maxInFlight: number;
  /** Queue behaviours for the next requests, in order; `times` repeats one. */
  script(fault: Fault, times?: number): void;
  /** Forget requests and remaining script between tests. */
  reset(): void;
  close(): Promise<void>;
}

const PARTIAL = '{"items": [{"id": 1}, {"id": 2}, {"id": 3}, {"id"';

export async function startFaultyServer(): Promise<FaultyServer> {
  const queue: Fault[] = [];
  let inFlight = 0;
  const state: FaultyServer = {
    url: '',
    requests: [],
    unexpected: [],
    maxInFlight: 0,
    script(fault, times = 1) {
      for (let i = 0; i < times; i++) queue.push(fault);
    },
    reset() {
      queue.length = 0;
      state.requests.length = 0;
      state.unexpected.length = 0;
      state.maxInFlight = 0;
    },
    close: async () => {},
  };

  const server = createServer((req, res) => {
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      state.requests.push(seen);
      const fault = queue.shift();
      if (!fault) {
        state.unexpected.push(seen);
        res.writeHead(500, { 'content-type': 'text/plain' }).end('no scripted response');
        return;
      }
      act(fault, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return state;
}

function act(fault: Fault, res: ServerResponse): void {
  const socket = res.socket as Socket;
  switch (fault.kind) {
    case 'json': {
      const send = () =>
        res
          .writeHead(fault.status ?? 200, { 'content-type': 'application/json', ...fault.headers })
          .end(JSON.stringify(fault.body));
      if (fault.delayMs) setTimeout(send, fault.delayMs);
      else send();
      return;
    }
    case 'raw':
      res.writeHead(fault.status ?? 200, { 'content-type': 'application/json', ...fault.headers });
      res.end(fault.body);
      return;
    case 'hang':
      return;
    case 'reset':
      socket.resetAndDestroy();
      return;
    case 'reset_mid_body':
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(PARTIAL.length * 2),
      });
      // Reset only once the partial body is on the wire, so the client really sees headers and then a reset.
      res.write(PARTIAL, () => setTimeout(() => socket.resetAndDestroy(), 10));
      return;
    case 'truncate':
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(PARTIAL.length * 2),
      });
      res.write(PARTIAL, () => setTimeout(() => socket.end(), 10));
      return;
  }
}
