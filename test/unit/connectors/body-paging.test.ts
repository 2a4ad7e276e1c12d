// Body-paged searches (`body_cursor` with `in: body`) and `object` params, on a fictional provider so the
// runtime is tested on declarations rather than on one provider's choices.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { catalogDetail } from '../../../src/connectors/catalog.ts';
import { parseDefinition } from '../../../src/connectors/load.ts';
import type { ConnectorRuntime } from '../../../src/connectors/runtime/executor.ts';
import { nextPage } from '../../../src/connectors/runtime/paginators.ts';
import { parseRecords } from '../../../src/connectors/runtime/payload.ts';
import { cursorBytes, cursorPlaintext, flipBit } from '../../helpers/cursors.ts';
import { domainError } from '../../helpers/domain-error.ts';
import { CURSOR_KEY, json, runtime, startServer } from './helpers.ts';

const YAML = `
id: 5d0c1a52-7c55-4f7e-9a57-0d1e2f3a4b5c
slug: searchy
name: Searchy
icon_url: https://searchy.example/icon.svg
support_level: community
documentation_url: https://searchy.example/docs
base_url: https://api.searchy.example/v1
credential_options:
  - title: Key
    description: Key.
    fields:
      key: { type: string, title: Key, description: The key., secret: true }
    required: [key]
    auth: { type: bearer, token: "{key}" }
check: { method: GET, path: /me }
replication_config: { type: object, properties: {} }
errors:
  expose_body_keys: [errors, requestId]
entities:
  - name: hits
    description: Search hits.
    primary_key: [id]
    actions:
      list:
        description: POST search paged by a cursor in the body.
        params:
          filter:
            type: object
            required: true
            description: What to find.
            properties:
              from: { type: string, format: date-time, description: From. }
              ids: { type: array, items: { type: integer }, description: Ids. }
              kind: { type: string, enum: [a, b], description: Kind. }
              scope: { type: object, description: Free-form. }
              team: { type: string, required: true, description: Team. }
          options: { type: object, description: Free-form options. }
          limit: { type: integer, in: query, description: Page size. }
        request: { method: POST, path: /search }
        record_selector: [hits]
        pagination: { type: body_cursor, cursor_path: [records, cursor], param: cursor, in: body }
`;

const def = parseDefinition(YAML, 'searchy.yaml');
const KEY = { option: 'Key', values: { key: 'searchy-secret-key' } };
const HITS = Array.from({ length: 5 }, (_, i) => ({ id: i + 1 }));

function defWith(patch: (yaml: string) => string): () => unknown {
  return () => parseDefinition(patch(YAML), 'searchy.yaml');
}

describe('nextPage with body_cursor', () => {
  const url = new URL('https://api.searchy.example/v1/search?limit=2');
  const base = { url, headers: {}, records: [1, 2] };

  it('in: body repeats the sent body with the cursor set and keeps the URL', () => {
    const p = {
      type: 'body_cursor' as const,
      cursor_path: ['records', 'cursor'],
      param: 'cursor',
      in: 'body' as const,
    };
    const next = nextPage(p, {
      ...base,
      body: { records: { cursor: 'c2' } },
      requestBody: { filter: { team: 't' }, cursor: 'c1' },
    });
    assert.equal(next?.url.href, url.href);
    assert.deepEqual(next?.body, { filter: { team: 't' }, cursor: 'c2' });
    assert.deepEqual(nextPage(p, { ...base, body: { records: { cursor: 'c2' } } })?.body, { cursor: 'c2' });
    assert.equal(nextPage(p, { ...base, body: { records: {} } }), null);
    assert.equal(nextPage(p, { ...base, body: { records: { cursor: '' } } }), null);
    const more = { ...p, has_more_path: ['more'] };
    assert.equal(nextPage(more, { ...base, body: { more: false, records: { cursor: 'c2' } } }), null);
  });

  it('without in (or in: query) the cursor still goes into the query and there is no body', () => {
    const p = { type: 'body_cursor' as const, cursor_path: ['next'], param: 'after' };
    const next = nextPage(p, { ...base, body: { next: 'x' }, requestBody: { q: 1 } });
    assert.equal(next?.url.search, '?limit=2&after=x');
    assert.equal(next?.body, undefined);
    assert.equal(
      nextPage({ ...p, in: 'query' }, { ...base, body: { next: 'x' } })?.url.search,
      '?limit=2&after=x',
    );
  });
});

describe('definition checks for body paging and object params', () => {
  it('refuses a body cursor on a GET', () => {
    assert.throws(
      defWith((y) =>
        y
          .replace('method: POST, path: /search', 'method: GET, path: /search')
          .replace(
            /filter:\n {12}type: object\n {12}required: true/,
            'filter:\n            type: object\n            in: body\n            required: true',
          ),
      ),
      /pagination: a GET request has no body to put the cursor in \(in: body\)/,
    );
    assert.throws(
      defWith((y) =>
        y
          .replace('method: POST, path: /search', 'method: DELETE, path: /search')
          .replace(
            'pagination: { type: body_cursor, cursor_path: [records, cursor], param: cursor, in: body }',
            'pagination: { type: first_of, styles: [{ type: next_url, path: [next] }, { type: body_cursor, cursor_path: [c], param: c, in: body }] }',
          ),
      ),
      /pagination: a DELETE request has no body to put the cursor in/,
    );
  });

  it('refuses object params outside the body, properties on non-objects and array members without items', () => {
    assert.throws(
      defWith((y) => y.replace('options: { type: object,', 'options: { type: object, in: query,')),
      /params\/options\/properties: an object param in a query declares its members/,
    );
    assert.throws(
      defWith((y) =>
        y.replace(
          'limit: { type: integer,',
          'limit: { type: integer, properties: { a: { type: string, description: A. } },',
        ),
      ),
      /params\/limit\/properties: only for type object/,
    );
    assert.throws(
      defWith((y) => y.replace('ids: { type: array, items: { type: integer },', 'ids: { type: array,')),
      /params\/filter\/properties\/ids\/items: required for type array/,
    );
    assert.throws(
      defWith((y) => y.replace('enum: [a, b]', 'enum: [a, 2]')),
      /params\/filter\/properties\/kind\/enum\/1: must be of type string/,
    );
  });

  it('shows object members in the catalog', () => {
    const action = catalogDetail(def).entities[0]!.actions.find((a) => a.name === 'list')!;
    const filter = action.params.find((p) => p.name === 'filter')!;
    assert.equal(filter.type, 'object');
    assert.deepEqual(Object.keys(filter.properties ?? {}), ['from', 'ids', 'kind', 'scope', 'team']);
    assert.equal(action.params.find((p) => p.name === 'options')!.properties, undefined);
  });
});

describe('a body-paged POST search through the runtime', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let rt: ConnectorRuntime;

  before(async () => {
    server = await startServer((req, res) => {
      if (req.method !== 'POST' || !req.url.startsWith('/search'))
        return json(res, 404, { errors: ['no route'] });
      const body = JSON.parse(req.body) as { cursor?: string; filter?: { team?: string } };
      if (body.filter?.team === 'broken')
        return json(res, 400, { requestId: 'r1', errors: ['team is archived', 'try again'] });
      const at = body.cursor === undefined ? 0 : Number(body.cursor.replace('c', ''));
      const next = at + 2 < HITS.length ? { cursor: `c${at + 2}` } : {};
      json(res, 200, { records: { totalRecords: HITS.length, ...next }, hits: HITS.slice(at, at + 2) });
    });
    rt = runtime({ searchy: server.url });
  });
  after(async () => {
    await rt.close();
    await server.close();
  });

  const exec = (params: Record<string, unknown>) =>
    rt.execute({
      connectorId: 'c1',
      definition: def,
      credentials: KEY,
      config: {},
      entity: 'hits',
      action: 'list',
      params,
    });

  it('pages to the end, each request repeating the first body with the cursor set', async () => {
    server.seen.length = 0;
    const params = { filter: { team: 'red', ids: [1, 2] }, options: { deep: { x: 1 } }, limit: 2 };
    let out = await exec(params);
    const ids = [...(parseRecords(out.payload) as Array<{ id: number }>)];
    while (out.connector_metadata.has_next_page) {
      out = await exec({ cursor: out.connector_metadata.end_cursor });
      ids.push(...(parseRecords(out.payload) as Array<{ id: number }>));
    }
    assert.deepEqual(
      ids.map((r) => r.id),
      [1, 2, 3, 4, 5],
    );
    assert.deepEqual(
      server.seen.map((r) => [r.method, r.url, r.headers['content-type'], JSON.parse(r.body)]),
      [undefined, 'c2', 'c4'].map((cursor) => [
        'POST',
        '/search?limit=2',
        'application/json; charset=utf-8',
        { filter: { team: 'red', ids: [1, 2] }, options: { deep: { x: 1 } }, ...(cursor ? { cursor } : {}) },
      ]),
    );
    assert.equal(
      server.seen.every((r) => r.headers.authorization === 'Bearer searchy-secret-key'),
      true,
    );
  });

  it('seals the body into the cursor: a changed cursor is refused before any request', async () => {
    const first = await exec({ filter: { team: 'red' } });
    const cursor = first.connector_metadata.end_cursor!;
    const decoded = cursorPlaintext(CURSOR_KEY, cursor);
    assert.match(decoded, /\{"filter":\{"team":"red"\},"cursor":"c2"\}/);
    assert.doesNotMatch(decoded, /searchy-secret-key/);
    assert.ok(!cursorBytes(cursor).includes('"team":"red"'), 'the body is not readable in the cursor');
    server.seen.length = 0;
    await assert.rejects(exec({ cursor: flipBit(cursor, 8 * 20) }), domainError('INVALID_CURSOR'));
    assert.equal(server.seen.length, 0);
  });

  it('checks object params and their members before any request', async () => {
    server.seen.length = 0;
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /missing required param 'filter'/],
      [{ filter: 'team=red' }, /'filter' must be an object/],
      [{ filter: [] }, /'filter' must be an object/],
      [{ filter: {} }, /'filter.team' is required/],
      [
        { filter: { team: 'r', tema: 'x' } },
        /'filter' has an unknown member 'tema' \(accepted: from, ids, kind, scope, team\)/,
      ],
      [{ filter: { team: 'r', from: 'yesterday' } }, /'filter.from' must be an ISO 8601 date-time/],
      [{ filter: { team: 'r', ids: [1, 'two'] } }, /'filter.ids\[1\]' must be an integer/],
      [{ filter: { team: 'r', kind: 'c' } }, /'filter.kind' must be one of "a", "b"/],
      [{ filter: { team: 'r', scope: 3 } }, /'filter.scope' must be an object/],
      [{ filter: { team: 'r' }, options: null, limit: 'x' }, /'limit' must be an integer/],
    ];
    for (const [params, message] of cases) {
      await assert.rejects(exec(params), domainError('INVALID_PARAMS', message), JSON.stringify(params));
    }
    assert.equal(server.seen.length, 0);
    const ok = await exec({
      filter: { team: 'r', from: '2024-01-01T00:00:00Z', kind: 'a', scope: { any: [1] } },
    });
    assert.equal((parseRecords(ok.payload) as unknown[]).length, 2);
  });

  it('an upstream list of error strings becomes the message', async () => {
    await assert.rejects(
      exec({ filter: { team: 'broken' } }),
      domainError(
        'INVALID_PARAMS',
        /Searchy rejected the params of hits\.list \(HTTP 400\): team is archived; try again\./,
      ),
    );
  });
});
