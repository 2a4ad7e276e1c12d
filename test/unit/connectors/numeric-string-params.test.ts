// `integer` params given as strings of decimal digits (agents send ids as strings): accepted and sent as the
// number in every placement (path, query, header, JSON body, array items, object members), for reads, writes
// and downloads; any other string is still refused before a request is made, naming the param.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseDefinition } from '../../../src/connectors/load.ts';
import type { ConnectorRuntime } from '../../../src/connectors/runtime/executor.ts';
import { resolveAction, validateParams } from '../../../src/connectors/runtime/params.ts';
import { parseRecords } from '../../../src/connectors/runtime/payload.ts';
import type { ConnectorDefinition } from '../../../src/connectors/schema.ts';
import { DomainError } from '../../../src/errors.ts';
import { json, runtime, startServer } from './helpers.ts';

type Server = Awaited<ReturnType<typeof startServer>>;

const NUMBERS_YAML = `
id: 3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f
slug: numbers
name: Numbers
icon_url: https://numbers.example/icon.svg
support_level: community
documentation_url: https://numbers.example/docs
base_url: https://api.numbers.example
credential_options:
  - title: Token
    description: A bearer token.
    fields:
      token: { type: string, title: Token, description: The token., secret: true }
    required: [token]
    auth: { type: bearer, token: "{token}" }
check: { method: GET, path: /me }
replication_config: { type: object, properties: {} }
entities:
  - name: items
    description: Items.
    primary_key: [id]
    actions:
      list:
        description: Items, a page at a time.
        params:
          per_page: { type: integer, minimum: 1, maximum: 100, description: Page size. }
          ids: { type: array, items: { type: integer }, description: Only these ids. }
          status: { type: integer, enum: [1, 2], description: Status code. }
        request: { method: GET, path: /items }
        record_selector: [items]
        pagination: { type: page_number, param: page, size_param: per_page, page_size: 2 }
      get:
        description: One item.
        params:
          item_id: { type: integer, required: true, minimum: 1, description: Item id. }
          revision: { type: integer, minimum: 0, description: A revision. }
          page_hint: { type: integer, in: header, api_name: X-Page-Hint, description: A header. }
        request: { method: GET, path: "/items/{item_id}" }
      create:
        description: New item.
        params:
          count: { type: integer, in: body, description: How many. }
          label: { type: string, in: body, description: A label that stays a string. }
          filter:
            type: object
            in: body
            description: A filter.
            properties:
              owner_id: { type: integer, description: Owner. }
              tag_ids: { type: array, items: { type: integer }, description: Tags. }
              name: { type: string, description: Name. }
        request: { method: POST, path: /items }
  - name: files
    description: Files.
    primary_key: [id]
    actions:
      download:
        description: The file's bytes.
        params:
          file_id: { type: integer, required: true, minimum: 1, description: File id. }
        request: { method: GET, path: "/files/{file_id}/content" }
`;

const TOKEN = { option: 'Token', values: { token: 'numbers-token' } };

describe('integer params given as decimal strings', () => {
  let server: Server;
  let rt: ConnectorRuntime;
  let def: ConnectorDefinition;
  before(async () => {
    server = await startServer((req, res) => {
      if (req.url.startsWith('/files/')) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('file bytes');
        return;
      }
      const page = Number(new URL(req.url, 'http://x').searchParams.get('page') ?? '1');
      const items = page < 3 ? [{ id: page * 2 - 1 }, { id: page * 2 }] : [];
      json(res, 200, req.url.startsWith('/items?') ? { items } : { id: 1 });
    });
    rt = runtime({ numbers: server.url });
    def = parseDefinition(NUMBERS_YAML, 'numbers.yaml');
  });
  after(async () => {
    await rt.close();
    await server.close();
  });

  const input = (entity: string, action: string, params: Record<string, unknown>) => ({
    connectorId: 'c',
    definition: def,
    credentials: TOKEN,
    config: {},
    entity,
    action,
    params,
  });
  const exec = (entity: string, action: string, params: Record<string, unknown>) =>
    rt.execute(input(entity, action, params));
  const validate = (action: string, params: Record<string, unknown>) =>
    validateParams(resolveAction(def, 'items', action), params);

  it('returns the params with the digit strings of integer params as numbers, and nothing else changed', () => {
    assert.deepEqual(validate('get', { item_id: '42', revision: '0', page_hint: 7 }), {
      item_id: 42,
      revision: 0,
      page_hint: 7,
    });
    assert.deepEqual(
      validate('create', {
        count: '3',
        label: '12',
        filter: { owner_id: '9007199254740991', tag_ids: ['1', 2], name: '5' },
      }),
      { count: 3, label: '12', filter: { owner_id: 9007199254740991, tag_ids: [1, 2], name: '5' } },
    );
    assert.deepEqual(validate('list', { ids: ['10', '20'], status: '2', cursor: null }), {
      ids: [10, 20],
      status: 2,
      cursor: null,
    });
  });

  it('refuses every other string with INVALID_PARAMS naming the param', () => {
    const refused = [
      '01',
      '00',
      '-1',
      '+1',
      ' 1',
      '1 ',
      '1.0',
      '1e3',
      '0x10',
      '1_000',
      '',
      '\u0661', // ARABIC-INDIC DIGIT ONE: a digit to Unicode, not a decimal id
      'one',
      '9007199254740992', // beyond Number.MAX_SAFE_INTEGER: it would not survive as a number
    ];
    for (const value of refused) {
      assert.throws(
        () => validate('get', { item_id: '1', revision: value }),
        (err: unknown) => {
          assert.ok(err instanceof DomainError, String(err));
          assert.equal(err.code, 'INVALID_PARAMS');
          assert.deepEqual(
            err.errors?.map((e) => e.field),
            ['params.revision'],
            JSON.stringify(value),
          );
          assert.match(
            err.message,
            /'revision' must be an integer \(a number, or a string of its decimal digits/,
          );
          return true;
        },
        JSON.stringify(value),
      );
    }
  });

  it('checks the converted number against minimum, maximum and enum', () => {
    const refusedFor = (action: string, params: Record<string, unknown>, message: RegExp) =>
      assert.throws(
        () => validate(action, params),
        (err: unknown) =>
          err instanceof DomainError && err.code === 'INVALID_PARAMS' && message.test(err.message),
      );
    refusedFor('get', { item_id: '0' }, /'item_id' must be >= 1/);
    refusedFor('list', { per_page: '101' }, /'per_page' must be <= 100/);
    refusedFor('list', { status: '3' }, /'status' must be one of 1, 2/);
    refusedFor('list', { ids: ['1', '1.5'] }, /'ids\[1\]' must be an integer/);
    refusedFor('create', { filter: { owner_id: 'x' } }, /'filter.owner_id' must be an integer/);
    refusedFor('create', { filter: { tag_ids: ['01'] } }, /'filter.tag_ids\[0\]' must be an integer/);
  });

  it('sends the number in the path, the query string and a header', async () => {
    server.seen.length = 0;
    await exec('items', 'get', { item_id: '17', revision: '4', page_hint: '3' });
    const [seen] = server.seen;
    assert.equal(seen?.url, '/items/17?revision=4');
    assert.equal(seen?.headers['x-page-hint'], '3');
  });

  it('sends JSON numbers in a body, inside arrays and object members too', async () => {
    server.seen.length = 0;
    await exec('items', 'create', {
      count: '3',
      label: '12',
      filter: { owner_id: '77', tag_ids: ['1', '2'], name: '5' },
    });
    const [seen] = server.seen;
    assert.equal(seen?.method, 'POST');
    assert.deepEqual(JSON.parse(seen?.body ?? ''), {
      count: 3,
      label: '12',
      filter: { owner_id: 77, tag_ids: [1, 2], name: '5' },
    });
  });

  it('a list pages to the end with its page size given as a string', async () => {
    server.seen.length = 0;
    const ids: unknown[] = [];
    let params: Record<string, unknown> = { per_page: '2', ids: ['5', '6'] };
    for (;;) {
      const page = await exec('items', 'list', params);
      ids.push(...(parseRecords(page.payload) as Array<{ id: number }>).map((r) => r.id));
      if (!page.connector_metadata.has_next_page) break;
      params = { cursor: page.connector_metadata.end_cursor };
    }
    assert.deepEqual(ids, [1, 2, 3, 4]);
    assert.deepEqual(
      server.seen.map((r) => r.url),
      [
        '/items?per_page=2&ids=5%2C6',
        '/items?per_page=2&ids=5%2C6&page=2',
        '/items?per_page=2&ids=5%2C6&page=3',
      ],
    );
  });

  it('a download takes its id as a string', async () => {
    server.seen.length = 0;
    const file = await rt.download(input('files', 'download', { file_id: '8' }));
    const chunks: Buffer[] = [];
    for await (const chunk of file.body) chunks.push(chunk as Buffer);
    assert.equal(Buffer.concat(chunks).toString(), 'file bytes');
    assert.deepEqual(
      server.seen.map((r) => r.url),
      ['/files/8/content'],
    );
  });

  it('makes no request for a refused value', async () => {
    server.seen.length = 0;
    await assert.rejects(
      exec('items', 'get', { item_id: '1x' }),
      (err: unknown) => err instanceof DomainError && err.code === 'INVALID_PARAMS',
    );
    await assert.rejects(
      rt.download(input('files', 'download', { file_id: '08' })),
      (err: unknown) => err instanceof DomainError && err.code === 'INVALID_PARAMS',
    );
    assert.equal(server.seen.length, 0);
  });
});
