// The recording server keeps each answer beside its request: the contract reads them, so an answer that is not
// recorded (a pipe, a writeHead without setHeader) would be an exchange the contract silently skips.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { RESPONSE_BODY_LIMIT, type RecordingServer, send, startRecordingServer } from './server.ts';

async function withServer(
  handle: Parameters<typeof startRecordingServer>[0],
  run: (s: RecordingServer) => Promise<void>,
  opts?: Parameters<typeof startRecordingServer>[2],
) {
  const server = await startRecordingServer(handle, undefined, opts);
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

describe('recording server', () => {
  it('records the status, content type and body of an answer written with send()', async () => {
    await withServer(
      (_req, res) => send(res, 201, { 'content-type': 'application/json; charset=utf-8' }, { id: 7 }),
      async (server) => {
        const answer = await fetch(`${server.origin}/things?x=1`, { method: 'POST', body: '{"name":"a"}' });
        assert.equal(await answer.text(), '{"id":7}');
        assert.deepEqual(server.requests[0]?.response, {
          status: 201,
          contentType: 'application/json; charset=utf-8',
          body: '{"id":7}',
          truncated: false,
        });
        assert.equal(server.requests[0]?.body, '{"name":"a"}');
      },
    );
  });

  it('records a piped answer and the content type set with setHeader', async () => {
    await withServer(
      (_req, res) => {
        res.statusCode = 404;
        res.setHeader('Content-Type', 'text/plain');
        Readable.from(['not ', 'here']).pipe(res);
      },
      async (server) => {
        await (await fetch(`${server.origin}/x`)).text();
        assert.deepEqual(server.requests[0]?.response, {
          status: 404,
          contentType: 'text/plain',
          body: 'not here',
          truncated: false,
        });
      },
    );
  });

  it('keeps only the start of a large answer and says so', async () => {
    const big = Buffer.alloc(RESPONSE_BODY_LIMIT + 10, 'a');
    await withServer(
      (_req, res) => send(res, 200, { 'content-type': 'application/octet-stream' }, big),
      async (server) => {
        assert.equal((await (await fetch(`${server.origin}/blob`)).arrayBuffer()).byteLength, big.length);
        const response = server.requests[0]?.response;
        assert.equal(response?.truncated, true);
        assert.equal(response?.body.length, RESPONSE_BODY_LIMIT);
      },
    );
  });

  it('stops keeping bodies once the server has kept its answer budget, and says so', async () => {
    await withServer(
      (_req, res) => send(res, 200, { 'content-type': 'text/plain' }, 'abcdef'),
      async (server) => {
        for (let i = 0; i < 3; i++) await (await fetch(`${server.origin}/x`)).text();
        assert.deepEqual(
          server.requests.map((r) => [r.response?.body, r.response?.truncated]),
          [
            ['abcdef', false],
            ['abcd', true],
            ['', true],
          ],
        );
      },
      { answerBudgetBytes: 10 },
    );
  });

  it('records the 500 a throwing fake turns into, and lists the request as unhandled', async () => {
    await withServer(
      () => {
        throw new Error('boom');
      },
      async (server) => {
        assert.equal((await fetch(`${server.origin}/y`)).status, 500);
        assert.equal(server.unhandled.length, 1);
        assert.equal(server.requests[0]?.response?.status, 500);
        assert.equal(server.requests[0]?.response?.body, 'Error: boom');
      },
    );
  });
});
