// UpstreamHttp reads answers from undici's handler callbacks, not a response stream: these cover the paths of
// that reader the connector suites reach rarely (a redirect with a large body, an answer paused while it
// waits for room in the buffer budget and resumed, a deadline passing before the answer).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { BufferBudget } from '../../../src/connectors/runtime/buffer-budget.ts';
import { UpstreamHttp, type UpstreamRequest } from '../../../src/connectors/runtime/http.ts';
import { DomainError } from '../../../src/errors.ts';

const BIG = Buffer.alloc(3 * 1024 * 1024, 'abcdefghij');

describe('UpstreamHttp', () => {
  let server: http.Server;
  let origin: string;

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/moved-with-body') {
        // A 302 whose body is far above what is worth draining.
        res.writeHead(302, { location: '/target', 'content-length': String(BIG.length) });
        res.end(BIG);
        return;
      }
      if (req.url === '/moved') {
        res.writeHead(301, { location: '/target', 'content-length': '5' });
        res.end('moved');
        return;
      }
      if (req.url === '/target') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '11' });
        res.end('{"ok":true}');
        return;
      }
      if (req.url === '/big') {
        res.writeHead(200, { 'content-length': String(BIG.length) });
        res.end(BIG);
        return;
      }
      if (req.url === '/big-chunked') {
        res.writeHead(200);
        res.write(BIG.subarray(0, 1000));
        res.end(BIG.subarray(1000));
        return;
      }
      if (req.url === '/hang') return; // never answers
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (path: string): UpstreamRequest => ({
    method: 'GET',
    url: new URL(path, origin),
    headers: {},
    guarded: false,
    idempotent: true,
  });

  /** A client reading answers into `budget`, closed after `use`. */
  const withClient = async (
    opts: { budget: BufferBudget; budgetWaitMs: number; timeoutMs?: number },
    use: (client: UpstreamHttp) => Promise<void>,
  ) => {
    const client = new UpstreamHttp({
      timeoutMs: opts.timeoutMs ?? 5000,
      maxResponseBytes: opts.budget.limit,
      budget: opts.budget,
      budgetWaitMs: opts.budgetWaitMs,
    });
    try {
      await use(client);
    } finally {
      await client.close();
    }
  };

  it('follows a same-origin redirect whatever the size of its body, and reads the target', async () => {
    await withClient({ budget: new BufferBudget(8 << 20), budgetWaitMs: 1000 }, async (client) => {
      for (const path of ['/moved', '/moved-with-body']) {
        const res = await client.send(get(path), 'Fake');
        assert.equal(res.status, 200);
        assert.equal(res.url.pathname, '/target');
        assert.equal(res.body.toString(), '{"ok":true}');
        res.release?.();
      }
    });
  });

  it('keeps the bytes that arrive while an answer waits for room, in order, and gives the room back', async () => {
    const budget = new BufferBudget(4 << 20);
    await withClient({ budget, budgetWaitMs: 5000 }, async (client) => {
      // Most of the budget is held elsewhere: the answer must wait, then read on from where it paused. Without a
      // Content-Length only its first step waits, so all but less than that step is held.
      for (const [path, held] of [
        ['/big', 3 << 20],
        ['/big-chunked', (4 << 20) - (32 << 10)],
      ] as const) {
        const other = budget.reserveNow(held);
        assert.ok(other);
        const pending = client.send(get(path), 'Fake');
        for (let i = 0; i < 400 && budget.waiting === 0; i++) await new Promise((r) => setTimeout(r, 10));
        assert.equal(budget.waiting, 1, `${path}: the answer waits for room`);
        other.release();
        const res = await pending;
        assert.equal(res.status, 200);
        assert.ok(res.body.equals(BIG), `${path}: every byte, in order`);
        res.release?.();
        assert.equal(budget.heldBytes, 0);
      }
    });
  });

  it('asked for parts, keeps a success as the chunks it came in, joined only when `body` is read', async () => {
    const budget = new BufferBudget(8 << 20);
    await withClient({ budget, budgetWaitMs: 1000 }, async (client) => {
      for (const path of ['/big', '/big-chunked']) {
        // With a Content-Length, also while it waits for room: the bytes that came meanwhile are parts too.
        const other = path === '/big' ? budget.reserveNow(6 << 20) : undefined;
        const pending = client.send({ ...get(path), asParts: true }, 'Fake');
        for (let i = 0; other && i < 400 && budget.waiting === 0; i++)
          await new Promise((r) => setTimeout(r, 10));
        if (other) assert.equal(budget.waiting, 1, 'the answer waits for room');
        other?.release();
        const res = await pending;
        const parts = res.parts ?? [];
        assert.ok(parts.length > 1, `${path}: ${parts.length} parts`);
        assert.ok(Buffer.concat(parts).equals(BIG), `${path}: every byte, in order`);
        assert.equal(budget.heldBytes, BIG.length, `${path}: held until released`);
        assert.ok(res.body.equals(BIG));
        assert.deepEqual(res.parts, [res.body], `${path}: joined once`);
        res.release?.();
        assert.equal(budget.heldBytes, 0);
      }
      // Anything but a success is one buffer, for the error rules that read it.
      const missing = await client.send({ ...get('/nowhere'), asParts: true }, 'Fake');
      assert.equal(missing.status, 404);
      assert.equal(missing.parts, undefined);
      missing.release?.();
      const plain = await client.send(get('/big'), 'Fake');
      assert.equal(plain.parts, undefined);
      plain.release?.();
    });
  });

  it('an answer that finds no room in time is SERVER_BUSY, and the connection is not left paused', async () => {
    const budget = new BufferBudget(4 << 20);
    await withClient({ budget, budgetWaitMs: 100 }, async (client) => {
      const other = budget.reserveNow(3 << 20);
      assert.ok(other);
      await assert.rejects(
        client.send(get('/big'), 'Fake'),
        (err: unknown) => err instanceof DomainError && err.code === 'SERVER_BUSY',
      );
      other.release();
      assert.equal(budget.heldBytes, 0);
      const res = await client.send(get('/target'), 'Fake');
      assert.equal(res.body.toString(), '{"ok":true}');
      res.release?.();
    });
  });

  it('a deadline that passes while the answer waits for room fails the call and ends the wait with it', async () => {
    const budget = new BufferBudget(4 << 20);
    await withClient({ budget, budgetWaitMs: 60_000, timeoutMs: 200 }, async (client) => {
      const other = budget.reserveNow(3 << 20);
      assert.ok(other);
      // The wait is capped at the time the call has left, so its own end and the deadline come within a
      // millisecond of each other: either may answer first. Whichever does, nothing may go on waiting.
      await assert.rejects(
        client.send(get('/big'), 'Fake'),
        (err: unknown) =>
          err instanceof DomainError && (err.code === 'UPSTREAM_TIMEOUT' || err.code === 'SERVER_BUSY'),
      );
      assert.equal(budget.waiting, 0, 'the wait for room ends with the call');
      other.release();
      assert.equal(budget.heldBytes, 0);
    });
  });

  it('a deadline that passes before the answer is UPSTREAM_TIMEOUT, holding nothing', async () => {
    const budget = new BufferBudget(1 << 20);
    await withClient({ budget, budgetWaitMs: 100, timeoutMs: 200 }, async (client) => {
      await assert.rejects(
        client.send(get('/hang'), 'Fake'),
        (err: unknown) => err instanceof DomainError && err.code === 'UPSTREAM_TIMEOUT',
      );
      assert.equal(budget.heldBytes, 0);
    });
  });
});
