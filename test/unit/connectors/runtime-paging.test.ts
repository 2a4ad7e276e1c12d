import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ConnectorRuntime, ExecuteOutput } from '../../../src/connectors/runtime/executor.ts';
import { parseRecords } from '../../../src/connectors/runtime/payload.ts';
import type { ConnectorDefinition } from '../../../src/connectors/schema.ts';
import { DomainError } from '../../../src/errors.ts';
import { cursorPlaintext } from '../../helpers/cursors.ts';
import { ACME_CONFIG, ACME_KEY, acme, CURSOR_KEY, json, runtime, startServer } from './helpers.ts';

type Server = Awaited<ReturnType<typeof startServer>>;

const ITEMS = Array.from({ length: 5 }, (_, i) => ({ id: i + 1 }));

/** Serves 5 records over every paging style the format declares. */
function handler(url: string) {
  return (req: { url: string }, res: import('node:http').ServerResponse) => {
    const u = new URL(req.url, url);
    const p = u.searchParams;
    if (u.pathname === '/folders/broken/things') {
      // Well-formed around its list, not within it.
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"total": 5, "things": [{"id": 1}, {"id": 2,}]}');
    }
    if (u.pathname.startsWith('/folders/')) {
      if (u.pathname.endsWith('/things')) {
        const page = Number(p.get('page') ?? 1);
        const next = page < 3 ? `<${url}/folders/x/things?page=${page + 1}&size=2>; rel="next"` : undefined;
        return json(
          res,
          200,
          { total: 5, things: ITEMS.slice((page - 1) * 2, page * 2) },
          next ? { link: next } : {},
        );
      }
      return json(res, 200, { id: 7, path: u.pathname });
    }
    if (u.pathname === '/pages') {
      const page = Number(p.get('page') ?? 1);
      const size = Number(p.get('per_page') ?? 2);
      return json(res, 200, ITEMS.slice((page - 1) * size, page * size));
    }
    if (u.pathname === '/offsets') {
      const offset = Number(p.get('offset') ?? 0);
      return json(res, 200, ITEMS.slice(offset, offset + 2));
    }
    if (u.pathname === '/cursors') {
      const at = Number(p.get('after') ?? 0);
      const more = at + 2 < ITEMS.length;
      return json(res, 200, {
        data: ITEMS.slice(at, at + 2),
        meta: { has_more: more, next: more ? String(at + 2) : null },
      });
    }
    if (u.pathname === '/links') {
      const at = Number(p.get('at') ?? 0);
      const next = at + 2 < ITEMS.length ? `/links?at=${at + 2}` : null;
      return json(res, 200, { items: ITEMS.slice(at, at + 2), next_page: next });
    }
    json(res, 404, { message: 'no route' });
  };
}

describe('ConnectorRuntime paging', () => {
  let server: Server;
  let rt: ConnectorRuntime;
  let def: ConnectorDefinition;
  before(async () => {
    let base = '';
    server = await startServer((req, res) => handler(base)(req, res));
    base = server.url;
    rt = runtime({ acme: server.url });
    def = acme();
  });
  after(async () => {
    await rt.close();
    await server.close();
  });

  const exec = (entity: string, action: string, params: Record<string, unknown>, connectorId = 'conn-1') =>
    rt.execute({
      connectorId,
      definition: def,
      credentials: ACME_KEY,
      config: ACME_CONFIG,
      entity,
      action,
      params,
    });

  async function collect(entity: string, params: Record<string, unknown>) {
    const ids: unknown[] = [];
    let out = await exec(entity, 'list', params);
    let pages = 1;
    ids.push(...(parseRecords(out.payload) as Array<{ id: number }>).map((r) => r.id));
    while (out.connector_metadata.has_next_page) {
      assert.equal(typeof out.connector_metadata.end_cursor, 'string');
      out = await exec(entity, 'list', { cursor: out.connector_metadata.end_cursor });
      ids.push(...(parseRecords(out.payload) as Array<{ id: number }>).map((r) => r.id));
      pages++;
    }
    assert.equal(out.connector_metadata.end_cursor, null);
    return { ids, pages };
  }

  it('link_header: walks every page by cursor, with records from the selector and declared meta', async () => {
    const first = await exec('things', 'list', { folder: 'x' });
    assert.deepEqual(parseRecords(first.payload), [{ id: 1 }, { id: 2 }]);
    assert.equal(first.connector_metadata.total, 5);
    assert.deepEqual(await collect('things', { folder: 'x' }), { ids: [1, 2, 3, 4, 5], pages: 3 });
  });

  it('every other style also reaches all records', async () => {
    for (const entity of ['pages', 'offsets', 'cursors', 'links']) {
      assert.deepEqual((await collect(entity, {})).ids, [1, 2, 3, 4, 5], entity);
    }
  });

  describe('records asked for unparsed (the sync stores their bytes)', () => {
    const bytes = (entity: string, params: Record<string, unknown>) =>
      rt.execute({
        connectorId: 'conn-1',
        definition: def,
        credentials: ACME_KEY,
        config: ACME_CONFIG,
        entity,
        action: 'list',
        params,
        unparsedRecords: true,
      });
    /** The list's text of an answer that left it as bytes; undefined for one that parsed it. */
    const listText = (out: ExecuteOutput) =>
      out.payload.kind === 'bytes' ? Buffer.concat(out.payload.parts).toString('utf8') : undefined;

    it("leave the list as the provider's bytes where the runtime reads nothing inside it", async () => {
      const first = await bytes('things', { folder: 'x' });
      assert.equal(listText(first), '[{"id":1},{"id":2}]');
      // What lies around the list is read as ever: meta, the next page.
      assert.equal(first.connector_metadata.total, 5);
      assert.equal(first.connector_metadata.has_next_page, true);
      assert.deepEqual(parseRecords(first.payload), [{ id: 1 }, { id: 2 }]);
      const second = await bytes('things', { cursor: first.connector_metadata.end_cursor });
      assert.equal(listText(second), '[{"id":3},{"id":4}]');
      // Cursors and next URLs in the envelope, as for a whole-body list.
      for (const entity of ['cursors', 'links']) {
        const out = await bytes(entity, {});
        assert.equal(out.connector_metadata.has_next_page, true, entity);
        assert.deepEqual(JSON.parse(listText(out) ?? 'null'), [{ id: 1 }, { id: 2 }], entity);
      }
    });

    it('are parsed where paging counts them or reads the last one', async () => {
      for (const entity of ['pages', 'offsets']) {
        const out = await bytes(entity, {});
        assert.equal(out.payload.kind, 'records', entity);
        assert.deepEqual(parseRecords(out.payload), [{ id: 1 }, { id: 2 }], entity);
        assert.equal(out.connector_metadata.has_next_page, true, entity);
      }
    });

    it('that are not JSON fail whoever reads them, with the error a parsed answer gets', async () => {
      const out = await bytes('things', { folder: 'broken' });
      assert.equal(out.payload.kind, 'bytes');
      const bad = (err: unknown) => err instanceof DomainError && err.code === 'UPSTREAM_BAD_RESPONSE';
      assert.throws(() => parseRecords(out.payload), bad);
      await assert.rejects(exec('things', 'list', { folder: 'broken' }), bad);
    });
  });

  it('sends the definition headers and query-placed auth, but never puts the key into a cursor', async () => {
    server.seen.length = 0;
    const out = await exec('things', 'list', { folder: 'x' });
    const seen = server.seen[0]!;
    assert.equal(new URL(seen.url, server.url).searchParams.get('key'), 'sekret-key-123');
    assert.equal(seen.headers['x-acme-version'], '3');
    assert.equal(seen.headers['user-agent'], 'ces/0.1');
    const cursor = out.connector_metadata.end_cursor!;
    const payload = cursorPlaintext(CURSOR_KEY, cursor);
    assert.match(payload, /\/folders\/x\/things\?page=2/);
    assert.doesNotMatch(payload, /sekret/);
    server.seen.length = 0;
    await exec('things', 'list', { cursor });
    assert.equal(new URL(server.seen[0]!.url, server.url).searchParams.get('key'), 'sekret-key-123');
  });

  it('treats cursor: null as a request for the first page', async () => {
    const out = await exec('things', 'list', { folder: 'x', cursor: null });
    assert.deepEqual(parseRecords(out.payload), [{ id: 1 }, { id: 2 }]);
  });

  it('get returns the object with has_next_page false and no cursor', async () => {
    const out = await exec('things', 'get', { folder: 'a/b', id: 7 });
    assert.ok(out.payload.kind === 'records');
    const { json: provided, value } = out.payload;
    assert.deepEqual(
      { value, connector_metadata: out.connector_metadata },
      {
        value: { id: 7, path: '/folders/a%2Fb/things/7' },
        connector_metadata: { has_next_page: false, end_cursor: null },
      },
    );
    // The records are the whole body here, so the provider's bytes come along for the reply to reuse.
    assert.deepEqual(JSON.parse(String(provided)), value);
  });

  it('POSTs body params as JSON', async () => {
    server.seen.length = 0;
    await exec('things', 'create', { folder: 'f', title: 'New' });
    assert.equal(server.seen[0]!.method, 'POST');
    assert.equal(server.seen[0]!.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(server.seen[0]!.body, '{"title":"New"}');
  });

  it('refuses cursors of another connector or entity and forged ones, before any request', async () => {
    const first = await exec('things', 'list', { folder: 'x' });
    const cursor = first.connector_metadata.end_cursor!;
    server.seen.length = 0;
    const invalid = (err: unknown) => err instanceof DomainError && err.code === 'INVALID_CURSOR';
    await assert.rejects(exec('things', 'list', { cursor }, 'conn-2'), invalid);
    await assert.rejects(exec('pages', 'list', { cursor }), invalid);
    await assert.rejects(exec('things', 'list', { cursor: `${cursor.slice(0, -2)}xx` }), invalid);
    assert.equal(server.seen.length, 0);
  });

  it('refuses a cursor once the base URL moved, and a next link to another host', async () => {
    const first = await exec('things', 'list', { folder: 'x' });
    const moved = runtime({ acme: 'http://127.0.0.1:1' });
    try {
      await assert.rejects(
        moved.execute({
          connectorId: 'conn-1',
          definition: def,
          credentials: ACME_KEY,
          config: ACME_CONFIG,
          entity: 'things',
          action: 'list',
          params: { cursor: first.connector_metadata.end_cursor },
        }),
        (err: unknown) =>
          err instanceof DomainError && err.code === 'INVALID_CURSOR' && /base URL/.test(err.message),
      );
    } finally {
      await moved.close();
    }
    const evil = await startServer((_req, res) =>
      json(res, 200, { things: [{ id: 1 }] }, { link: '<https://evil.example/steal?page=2>; rel="next"' }),
    );
    const rt2 = runtime({ acme: evil.url });
    try {
      await assert.rejects(
        rt2.execute({
          connectorId: 'c',
          definition: def,
          credentials: ACME_KEY,
          config: ACME_CONFIG,
          entity: 'things',
          action: 'list',
          params: { folder: 'x' },
        }),
        (err: unknown) =>
          err instanceof DomainError &&
          err.code === 'UPSTREAM_BAD_RESPONSE' &&
          /another host/.test(err.message),
      );
    } finally {
      await rt2.close();
      await evil.close();
    }
  });
});
