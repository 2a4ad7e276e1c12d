// The floor of ces's stack: the least a server built on ces's parts does for one execute. A fastify 5 POST route
// (JSON body parsed and checked against a small schema) sends one request upstream with undici 7 through a
// keep-alive pool, reads the status line, headers and answer from undici's handler callbacks into a buffer (as
// ces's upstream client does, no response stream) and writes it back inside the execute envelope, as ces does for
// a list it relays unparsed. No authentication, no store, no definition, no paging: what ces spends above this is
// ces's own work; what this spends above the bare proxy (bench/passthrough.ts) is the cost of the stack.
//
// UPSTREAM is the full URL to fetch on every call and UPSTREAM_HEADERS a JSON object of headers to send with it.
import http from 'node:http';
import Fastify from 'fastify';
import { Agent } from 'undici';

const upstream = new URL(process.env.UPSTREAM ?? '');
const headers = JSON.parse(process.env.UPSTREAM_HEADERS ?? '{}') as Record<string, string>;
const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 128 });

/** The answer's chunks, read straight from the dispatch handler. */
function fetchChunks(): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    dispatcher.dispatch(
      { origin: upstream.origin, path: `${upstream.pathname}${upstream.search}`, method: 'GET', headers },
      {
        // Its presence tells undici this handler takes the controller API (onResponse*).
        onRequestStart: () => {},
        // A relay has to look at the status line and headers (undici parses the headers for this callback
        // only: without it the floor skipped work no real relay can skip).
        onResponseStart: (_c, status, responseHeaders) => {
          if (status >= 300 || responseHeaders['content-type'] === undefined)
            reject(new Error(`unexpected upstream answer: HTTP ${status}`));
        },
        onResponseData: (_c, chunk) => {
          chunks.push(chunk);
        },
        onResponseEnd: () => resolve(chunks),
        onResponseError: (_c, err) => reject(err),
      },
    );
  });
}

/**
 * FLOOR_CLIENT=node-http: the same answer read with Node's own HTTP client (http.request through a keep-alive
 * agent, its native parser) instead of undici, to tell how much of the floor is the upstream client.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
function fetchChunksNodeHttp(): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: `${upstream.pathname}${upstream.search}`,
        headers,
        agent,
      },
      (res) => {
        if ((res.statusCode ?? 0) >= 300 || res.headers['content-type'] === undefined)
          reject(new Error(`unexpected upstream answer: HTTP ${res.statusCode}`));
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(chunks));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
const fetchAnswer = process.env.FLOOR_CLIENT === 'node-http' ? fetchChunksNodeHttp : fetchChunks;

const app = Fastify({ logger: false });
app.post(
  '/execute',
  {
    schema: {
      body: {
        type: 'object',
        required: ['entity', 'action'],
        properties: {
          entity: { type: 'string', maxLength: 100 },
          action: { type: 'string', minLength: 1, maxLength: 50 },
          params: { type: 'object' },
        },
      },
    },
  },
  async (_request, reply) => {
    const started = Date.now();
    const chunks = await fetchAnswer();
    const head = Buffer.from('{"status":"success","result":');
    const tail = Buffer.from(
      `,"connector_metadata":${JSON.stringify({ has_next_page: false, end_cursor: null })},"execution_metadata":${JSON.stringify({ execution_time_ms: Date.now() - started })}}`,
    );
    reply.type('application/json; charset=utf-8');
    return reply.send(Buffer.concat([head, ...chunks, tail]));
  },
);

app.listen({ port: 0, host: '127.0.0.1' }).then(() => {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
