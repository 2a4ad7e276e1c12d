import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { clientErrorHandler } from '../../src/http/protocol-errors.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';

/**
 * Malformed HTTP over a real socket: inject() bypasses Node's HTTP parser, and these requests never get past it.
 * Each answer is the one error body (`{message, code, request_id, errors}`, the request_id also in X-Request-Id)
 * with its code's status, and the server keeps serving.
 */
interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseResponse(text: string): RawResponse {
  const split = text.indexOf('\r\n\r\n');
  assert.ok(split > 0, `no complete response head in ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(split + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    let out = '';
    for (let rest = body; ; ) {
      const eol = rest.indexOf('\r\n');
      const size = Number.parseInt(rest.slice(0, eol), 16);
      if (!size) break;
      out += rest.slice(eol + 2, eol + 2 + size);
      rest = rest.slice(eol + 2 + size + 2);
    }
    body = out;
  }
  return { status, headers, body };
}

/** Sends `bytes` (ending the writing side when `end`), then reads until the server closes the connection. */
function untilClosed(port: number, bytes: string, end: boolean): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => {
      text += c;
    });
    socket.on('close', () => {
      try {
        resolve(parseResponse(text));
      } catch (err) {
        reject(err);
      }
    });
    if (end) socket.end(bytes);
    else socket.write(bytes);
  });
}

describe('malformed HTTP on a real socket', () => {
  let h: Harness;
  let port: number;
  let token: string;

  before(async () => {
    h = await startHarness();
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    port = (h.app.server.address() as net.AddressInfo).port;
    token = await h.token();
  });
  after(() => h.close());

  /** Writes the bytes, then reads the first response (the server may close the socket or keep it alive). */
  const raw = (bytes: string | Buffer): Promise<RawResponse> =>
    new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let text = '';
      const finish = () => {
        socket.destroy();
        try {
          resolve(parseResponse(text));
        } catch (err) {
          reject(err);
        }
      };
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        text += chunk;
        const split = text.indexOf('\r\n\r\n');
        if (split < 0) return;
        const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, split))?.[1];
        if (length !== undefined && text.length >= split + 4 + Number(length)) finish();
        if (/\r\n0\r\n\r\n$/.test(text)) finish();
      });
      socket.on('end', finish);
      socket.on('error', reject);
      socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
    });

  const expectErrorBody = (res: RawResponse, status: number, code: string) => {
    const where = `${res.status} ${JSON.stringify(res.headers)} ${res.body}`;
    assert.equal(res.status, status, where);
    assert.match(res.headers['content-type'] ?? '', /^application\/json/, where);
    const body = JSON.parse(res.body);
    assert.deepEqual(Object.keys(body).sort(), ['code', 'errors', 'message', 'request_id'], where);
    assert.equal(body.code, code, where);
    assert.ok(body.message.length > 0, where);
    assert.deepEqual(body.errors, [], where);
    assert.match(body.request_id, /^req_/, where);
    assert.equal(res.headers['x-request-id'], body.request_id, where);
    return body;
  };

  const stillServing = async () => {
    const res = await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(JSON.parse(res.body), { status: 'ok' });
  };

  const post = (headers: string, body = '{}') =>
    `POST /api/v1/account/applications/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}\r\n${body}`;

  test('a bad Content-Length is 400 BAD_REQUEST', async () => {
    for (const headers of [
      'Content-Length: abc\r\n',
      'Content-Length: -1\r\n',
      'Content-Length: 2\r\nContent-Length: 3\r\n',
      'Content-Length: 2\r\nTransfer-Encoding: chunked\r\n',
    ]) {
      expectErrorBody(await raw(post(headers)), 400, 'BAD_REQUEST');
    }
    await stillServing();
  });

  test('a body shorter than its Content-Length, then end of stream, is 400 BAD_REQUEST', async () => {
    const socketless = await untilClosed(port, post('Content-Length: 100\r\n'), true);
    expectErrorBody(socketless, 400, 'BAD_REQUEST');
  });

  test('a path segment over 200 characters (an id) is 414 URI_TOO_LONG, without echoing it', async () => {
    const id = 'a'.repeat(201);
    const res = await raw(
      `GET /api/v1/integrations/connectors/${id} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`,
    );
    const body = expectErrorBody(res, 414, 'URI_TOO_LONG');
    assert.ok(!body.message.includes(id), body.message);
    // At 200 characters the router lets it through, and validation names the field.
    const at = await h.inject({
      method: 'GET',
      url: `/api/v1/integrations/connectors/${'a'.repeat(200)}`,
      token,
    });
    assert.equal(at.status, 422, at.body);
    assert.equal(at.json.errors[0].field, 'params.id');
  });

  test('a URL over the limit is 414 URI_TOO_LONG, in the request line or past the header limit', async () => {
    expectErrorBody(
      await raw(`GET /healthz?${'q'.repeat(5000)} HTTP/1.1\r\nHost: x\r\n\r\n`),
      414,
      'URI_TOO_LONG',
    );
    expectErrorBody(await raw(`GET /${'p'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`), 414, 'URI_TOO_LONG');
    await stillServing();
  });

  test('an unknown long path is 404 ROUTE_NOT_FOUND echoing only its start', async () => {
    const res = await raw(`GET /${'n'.repeat(3000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    const body = expectErrorBody(res, 404, 'ROUTE_NOT_FOUND');
    assert.ok(body.message.length < 200, body.message);
  });

  test('oversized headers are 431 HEADERS_TOO_LARGE', async () => {
    expectErrorBody(
      await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`),
      431,
      'HEADERS_TOO_LARGE',
    );
    const many = Array.from({ length: 5000 }, (_, i) => `X-Header-${i}: value`).join('\r\n');
    expectErrorBody(
      await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\n${many}\r\n\r\n`),
      431,
      'HEADERS_TOO_LARGE',
    );
    await stillServing();
  });

  test('garbage, a bad method, a bad version, bad header bytes are 400 BAD_REQUEST', async () => {
    for (const bytes of [
      'HELLO\r\n\r\n',
      'G@T /healthz HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /healthz HTTP/9.Z\r\nHost: x\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: v\r\n\r\n',
      'GET /api/v1/workspaces/\u00e9\u00ff HTTP/1.1\r\nHost: x\r\n\r\n',
      'POST /api/v1/account/applications/token HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03]), // a TLS ClientHello
    ]) {
      expectErrorBody(await raw(bytes), 400, 'BAD_REQUEST');
    }
    await stillServing();
  });

  test('a bad percent-encoding in the path is 400 BAD_REQUEST, without echoing the path', async () => {
    const res = await raw(
      `GET /api/v1/integrations/connectors/%zz HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`,
    );
    const body = expectErrorBody(res, 400, 'BAD_REQUEST');
    assert.doesNotMatch(body.message, /%zz/);
  });

  test('HTTP/1.1 without Host is 400 BAD_REQUEST; HTTP/1.0 without it is served', async () => {
    expectErrorBody(await raw('GET /healthz HTTP/1.1\r\n\r\n'), 400, 'BAD_REQUEST');
    const old = await raw('GET /healthz HTTP/1.0\r\n\r\n');
    assert.equal(old.status, 200, old.body);
  });

  test('an Expect other than 100-continue is 417; CONNECT is 405', async () => {
    expectErrorBody(
      await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n'),
      417,
      'EXPECTATION_FAILED',
    );
    expectErrorBody(
      await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
      405,
      'METHOD_NOT_ALLOWED',
    );
    await stillServing();
  });

  test('a request that stalls past the server timeout is answered 408 REQUEST_TIMEOUT', async () => {
    // Node checks its timeouts every 30 s; hand the handler the error Node raises then, on a real socket.
    const server = net.createServer((socket) => {
      const timeout = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
      clientErrorHandler(h.deps.logger)(timeout, socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as net.AddressInfo).port;
      const res = await untilClosed(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n', false);
      expectErrorBody(res, 408, 'REQUEST_TIMEOUT');
    } finally {
      server.close();
    }
  });
});
