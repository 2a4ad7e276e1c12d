import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { parseDefinition } from '../../src/connectors/load.ts';
import { ConnectorRuntime } from '../../src/connectors/runtime/executor.ts';
import { DomainError } from '../../src/errors.ts';

const TOKEN = 'dl_secret_token_0001';
const BLOB = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz'.repeat(100));

const definition = parseDefinition(
  `
id: 6f1d2c3b-0000-4000-8000-00000000d0d0
slug: files-test
name: Files Test
icon_url: https://example.com/icon.svg
support_level: community
documentation_url: https://example.com/docs
base_url: https://files.example.com/api
credential_options:
  - title: Token
    description: A token.
    fields:
      token: { type: string, title: Token, description: The token., secret: true }
    required: [token]
    auth: { type: bearer, token: "{token}" }
check: { method: GET, path: /me }
replication_config: { type: object, properties: {} }
entities:
  - name: archives
    description: Archives served straight from a redirect.
    primary_key: [id]
    actions:
      download:
        description: Download an archive.
        params:
          id: { type: string, required: true, description: Archive id. }
        request: { method: GET, path: "/archives/{id}" }
  - name: attachments
    description: Attachments whose metadata names the file URL.
    primary_key: [id]
    actions:
      get:
        description: Attachment metadata.
        params:
          id: { type: string, required: true, description: Attachment id. }
        request: { method: GET, path: "/attachments/{id}" }
        record_selector: [attachment]
      download:
        description: Download an attachment.
        params:
          id: { type: string, required: true, description: Attachment id. }
        request: { method: GET, path: "/attachments/{id}" }
        download:
          file_url: [attachment, content_url]
          filename: [attachment, file_name]
          content_type: [attachment, content_type]
`,
  'files-test.yaml',
);

describe('download action', () => {
  let server: Server;
  let base: string;
  const seen: IncomingMessage[] = [];
  let runtime: ConnectorRuntime;
  let bigSize = 0;

  before(async () => {
    server = createServer((req, res) => {
      seen.push(req);
      const url = new URL(req.url ?? '/', 'http://x');
      const authed = req.headers.authorization === `Bearer ${TOKEN}`;
      if (url.pathname.startsWith('/api/') && !authed) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Bad credentials"}');
        return;
      }
      if (url.pathname === '/api/archives/a1') {
        res.writeHead(302, { location: `${base}/storage/a1.tar.gz` }).end();
      } else if (url.pathname === '/api/archives/empty') {
        res.writeHead(302, { location: '/storage/empty' }).end();
      } else if (url.pathname === '/api/archives/elsewhere') {
        // Another loopback origin: not the operator's override, so the egress policy must refuse the hop.
        res.writeHead(302, { location: 'http://127.0.0.2:9/x' }).end();
      } else if (url.pathname === '/api/archives/big') {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bigSize) });
        const chunk = Buffer.alloc(64 * 1024, 7);
        let sent = 0;
        const pump = () => {
          while (sent < bigSize) {
            const n = Math.min(chunk.length, bigSize - sent);
            sent += n;
            if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n)))
              return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      } else if (url.pathname === '/api/attachments/9') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            attachment: {
              id: 9,
              file_name: 'Résumé final.pdf',
              content_type: 'application/pdf',
              content_url: `${base}/storage/resume?token=abc`,
            },
          }),
        );
      } else if (url.pathname === '/api/attachments/404') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"RecordNotFound"}');
      } else if (url.pathname === '/storage/a1.tar.gz' || url.pathname === '/storage/resume') {
        const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
        if (range) {
          const [from, to] = [Number(range[1]), Number(range[2])];
          res.writeHead(206, {
            'content-type': 'application/x-gzip',
            'content-range': `bytes ${from}-${to}/${BLOB.length}`,
            'accept-ranges': 'bytes',
          });
          res.end(BLOB.subarray(from, to + 1));
          return;
        }
        const disposition = url.pathname.endsWith('.tar.gz')
          ? { 'content-disposition': 'attachment; filename=a1.tar.gz' }
          : {};
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'set-cookie': 'x=1',
          ...disposition,
        });
        res.end(BLOB);
      } else if (url.pathname === '/storage/empty') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end();
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    runtime = new ConnectorRuntime({
      cursorKey: Buffer.alloc(32, 1),
      upstreamOverrides: { 'files-test': `${base}/api` },
      timeoutMs: 5_000,
    });
  });
  after(async () => {
    await runtime.close();
    await new Promise((r) => server.close(r));
  });

  const input = (entity: string, id: string) => ({
    connectorId: 'c1',
    definition,
    credentials: { option: 'Token', values: { token: TOKEN } },
    config: {},
    entity,
    action: 'download',
    params: { id },
  });
  const read = async (body: NodeJS.ReadableStream) => {
    const chunks: Buffer[] = [];
    for await (const c of body) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };

  test('a direct download follows the redirect and streams the file with its disposition', async () => {
    const file = await runtime.download(input('archives', 'a1'));
    assert.equal(file.status, 200);
    assert.equal(file.headers['content-disposition'], 'attachment; filename=a1.tar.gz');
    assert.equal(file.headers['set-cookie'], undefined, 'only allowlisted headers pass');
    assert.deepEqual(await read(file.body), BLOB);
  });

  test('a file_url download reads the metadata, then fetches the file with the declared name and type', async () => {
    seen.length = 0;
    const file = await runtime.download(input('attachments', '9'));
    assert.equal(file.headers['content-type'], 'application/pdf');
    assert.equal(
      file.headers['content-disposition'],
      `attachment; filename="R_sum_ final.pdf"; filename*=UTF-8''${encodeURIComponent('Résumé final.pdf')}`,
    );
    assert.deepEqual(await read(file.body), BLOB);
    assert.deepEqual(
      seen.map((r) => r.url),
      ['/api/attachments/9', '/storage/resume?token=abc'],
    );
  });

  test('Range passes through and a 206 comes back with its Content-Range', async () => {
    const file = await runtime.download(input('archives', 'a1'), 'bytes=10-19');
    assert.equal(file.status, 206);
    assert.equal(file.headers['content-range'], `bytes 10-19/${BLOB.length}`);
    assert.deepEqual(await read(file.body), BLOB.subarray(10, 20));
  });

  test('an unknown id is a 404 and an empty body is an error, never an empty file', async () => {
    await assert.rejects(
      runtime.download(input('attachments', '404')),
      (e) => e instanceof DomainError && e.code === 'UPSTREAM_NOT_FOUND',
    );
    await assert.rejects(
      runtime.download(input('archives', 'empty')),
      (e) => e instanceof DomainError && e.code === 'UPSTREAM_BAD_RESPONSE' && /empty/.test(e.message),
    );
  });

  test('a redirect to an address outside the override is refused by the egress policy', async () => {
    await assert.rejects(
      runtime.download(input('archives', 'elsewhere')),
      (e) => e instanceof DomainError && e.code === 'EGRESS_DENIED',
    );
  });

  test('bad credentials map like any call and never echo the token', async () => {
    const bad = { ...input('archives', 'a1'), credentials: { option: 'Token', values: { token: 'wrong' } } };
    await assert.rejects(runtime.download(bad), (e) => {
      assert.ok(e instanceof DomainError);
      assert.equal(e.code, 'UPSTREAM_AUTH_FAILED');
      assert.ok(!JSON.stringify({ m: e.message, x: e.extra }).includes('wrong'));
      return true;
    });
  });

  test('a large file streams through with flat memory', async () => {
    bigSize = 256 * 1024 * 1024;
    global.gc?.();
    const before = process.memoryUsage().rss;
    const file = await runtime.download(input('archives', 'big'));
    assert.equal(file.headers['content-length'], String(bigSize));
    let total = 0;
    let peak = 0;
    for await (const c of file.body) {
      total += (c as Buffer).length;
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    assert.equal(total, bigSize);
    // 256 MiB went through; holding it would grow RSS by at least that much.
    assert.ok(peak - before < 128 * 1024 * 1024, `RSS grew by ${Math.round((peak - before) / 1048576)} MiB`);
  });
});
