// Format v2 on a fictional provider ("Widgetly"), each option declared and then watched on the wire of a real
// local server: several auth placements per option, raw and prefixed header keys, API-version header params
// with defaults, body templates (nested JSON and bracketed forms), object params in a query, the keyset,
// header-cursor, cursor-in-next-URL and total-bounded paging styles, the client_credentials grant with a token
// response value that becomes the base URL, and two-step downloads with a declared file host.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { parseDefinition } from '../../../src/connectors/load.ts';
import { formPairs } from '../../../src/connectors/runtime/body.ts';
import { credentialOrigins, fileUrl } from '../../../src/connectors/runtime/download-steps.ts';
import type { ConnectorRuntime } from '../../../src/connectors/runtime/executor.ts';
import {
  RefreshRejectedError,
  refreshSettings,
  tokenResponse,
} from '../../../src/connectors/runtime/oauth2.ts';
import { nextPage, type PageContext } from '../../../src/connectors/runtime/paginators.ts';
import { parseRecords } from '../../../src/connectors/runtime/payload.ts';
import type { Pagination } from '../../../src/connectors/schema.ts';
import { cursorPlaintext } from '../../helpers/cursors.ts';
import { CURSOR_KEY, json, loadErrors, runtime, type SeenRequest, startServer } from './helpers.ts';

const YAML = `
id: 7c3f1e0a-2b4d-4c6e-8f10-a1b2c3d4e5f6
slug: widgetly
name: Widgetly
icon_url: https://widgetly.example/icon.svg
support_level: community
documentation_url: https://widgetly.example/docs
base_url: "{instance_url}/v2"
base_url_variables:
  instance_url:
    description: The account's API host, from the token response.
    credential_field: instance_url
    default: https://api.widgetly.example
    pattern: "^https?://[a-z0-9.:-]+$"
  login_url:
    description: The login host (a sandbox has another).
    default: https://login.widgetly.example
    pattern: "^https?://[a-z0-9.:-]+$"
headers: { X-Widgetly-Client: ces }
credential_options:
  - title: Key
    description: A key sent twice, as the provider requires.
    fields:
      api_key: { type: string, title: Key, description: The key., secret: true }
      account: { type: string, title: Account, description: The account id. }
    required: [api_key, account]
    auth:
      - { type: header, name: Authorization, value: "Widgetly-Key {api_key}" }
      - { type: header, name: X-Account, value: "{account}" }
      - { type: query, name: sig, value: "{api_key}" }
  - title: Raw
    description: The key alone in Authorization.
    fields:
      raw_key: { type: string, title: Key, description: The key., secret: true }
    required: [raw_key]
    auth: { type: header, name: Authorization, value: "{raw_key}" }
  - title: App
    description: A client id and secret; ces obtains access tokens itself.
    fields:
      client_id: { type: string, title: Client id, description: Id. }
      client_secret: { type: string, title: Client secret, description: Secret., secret: true }
      access_token: { type: string, title: Access token, description: Obtained by ces., secret: true }
      instance_url: { type: string, title: Instance URL, description: Set by the token response. }
    required: [client_id, client_secret]
    auth: { type: bearer, token: "{access_token}" }
    refresh:
      token_url: "{login_url}/oauth/token"
      grant_type: client_credentials
      scope: "read write"
      response: { values: { instance_url: instance_url } }
check: { method: GET, path: /me }
replication_config: { type: object, properties: { login_url: { type: string } } }
entities:
  - name: widgets
    description: Widgets.
    primary_key: [id]
    actions:
      list:
        description: Keyset paging.
        params:
          version: { type: string, in: header, api_name: Widgetly-Version, default: "2024-01", send_default: true, description: API version. }
          created: { type: object, description: Time bounds., properties: { gte: { type: integer, description: From. }, lt: { type: integer, description: To. } } }
          limit: { type: integer, description: Size. }
        request: { method: GET, path: /widgets }
        record_selector: [data]
        pagination: { type: keyset, param: starting_after, has_more_path: [has_more] }
      create:
        description: Form body with brackets.
        params:
          name: { type: string, required: true, description: Name. }
          metadata: { type: object, description: Metadata. }
          tags: { type: array, items: { type: string }, description: Tags. }
        request: { method: POST, path: /widgets, body_format: form }
      api_search:
        description: A search whose body nests the params.
        params:
          email: { type: string, pattern: "^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+$", description: Email equals. }
          since: { type: string, description: Modified since. }
          limit: { type: integer, api_name: page_size, description: Size. }
        request:
          method: POST
          path: /widgets/search
          idempotent: true
          body:
            filterGroups:
              - filters:
                  - { propertyName: email, operator: EQ, value: "{email}" }
                  - { propertyName: modified, operator: GTE, value: "{since}" }
            sorts: [{ propertyName: modified, direction: ASCENDING }]
            label: "search for {email}"
        record_selector: [results]
        pagination: { type: body_cursor, cursor_path: [paging, next, after], param: after, in: body }
      download:
        description: A file behind two JSON steps, on a file host that needs the key.
        params:
          id: { type: string, required: true, description: Widget. }
          format: { type: string, enum: [pdf, csv], required: true, description: Export format. }
        request: { method: GET, path: "/widgets/{id}/export" }
        download:
          file_url: [links, status]
          follow: { file_url: [result, url], filename: [result, name] }
          credentials_to: ["https://files.widgetly.example"]
  - name: events
    description: A cursor in a header.
    primary_key: [id]
    actions:
      list:
        description: Events.
        request: { method: GET, path: /events }
        pagination: { type: header_cursor, header: X-Next-Cursor, param: cursor_token }
        page_size_param: false
`;

const def = parseDefinition(YAML, 'widgetly.yaml');
const KEY: { option: string; values: Record<string, string> } = {
  option: 'Key',
  values: { api_key: 'wk_live_secret', account: 'acc-7' },
};
const W = Array.from({ length: 5 }, (_, i) => ({ id: `w_${i + 1}` }));

describe('format v2 on the wire', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let rt: ConnectorRuntime;
  const exec = (entity: string, action: string, params: Record<string, unknown>, credentials = KEY) =>
    rt.execute({ connectorId: 'c1', definition: def, credentials, config: {}, entity, action, params });

  before(async () => {
    server = await startServer((req, res) => {
      const url = new URL(req.url, 'http://x');
      if (url.pathname === '/v2/widgets' && req.method === 'GET') {
        const after = url.searchParams.get('starting_after');
        const start = after === null ? 0 : W.findIndex((w) => w.id === after) + 1;
        const data = W.slice(start, start + 2);
        return json(res, 200, { data, has_more: start + 2 < W.length });
      }
      if (url.pathname === '/v2/widgets/search') {
        const body = JSON.parse(req.body) as { after?: string };
        const page = Number(body.after ?? 0);
        const next = page < 2 ? { next: { after: String(page + 1) } } : {};
        return json(res, 200, { results: [{ id: `s${page}` }], paging: next });
      }
      if (url.pathname === '/v2/events') {
        const n = Number(url.searchParams.get('cursor_token') ?? 0);
        return json(res, 200, [{ id: n }], n < 2 ? { 'x-next-cursor': String(n + 1) } : {});
      }
      json(res, 200, { id: 'w_new' });
    });
    rt = runtime({ widgetly: `${server.url}/v2` });
  });
  after(async () => {
    await rt.close();
    await server.close();
  });
  const last = (): SeenRequest => server.seen.at(-1) as SeenRequest;

  it('puts one credential in several places, with templates, and keeps the query one out of cursors', async () => {
    const out = await exec('widgets', 'list', { limit: 2, created: { gte: 1700000000 } });
    const req = last();
    assert.equal(req.headers.authorization, 'Widgetly-Key wk_live_secret');
    assert.equal(req.headers['x-account'], 'acc-7');
    assert.equal(req.headers['x-widgetly-client'], 'ces');
    const url = new URL(req.url, 'http://x');
    assert.equal(url.searchParams.get('sig'), 'wk_live_secret');
    // An object param in a query: one bracketed key per member.
    assert.equal(url.searchParams.get('created[gte]'), '1700000000');
    // A header param with a default the provider requires is sent when the client leaves it out.
    assert.equal(req.headers['widgetly-version'], '2024-01');
    const cursor = String(out.connector_metadata.end_cursor);
    assert.match(cursorPlaintext(CURSOR_KEY, cursor), /created%5Bgte%5D=1700000000/);
    assert.ok(!cursorPlaintext(CURSOR_KEY, cursor).includes('wk_live_secret'));
    const chosen = await exec('widgets', 'list', { version: '2025-06', limit: 2 });
    assert.equal(last().headers['widgetly-version'], '2025-06');
    // The next page keeps the client's header param (it is signed into the cursor), not the default.
    await exec('widgets', 'list', { cursor: chosen.connector_metadata.end_cursor });
    assert.equal(last().headers['widgetly-version'], '2025-06');
    assert.equal(last().headers.authorization, 'Widgetly-Key wk_live_secret');
  });

  it('sends a raw key as the whole Authorization header', async () => {
    await exec('events', 'list', {}, { option: 'Raw', values: { raw_key: 'rk_123' } });
    assert.equal(last().headers.authorization, 'rk_123');
  });

  it('pages by keyset: the next page starts after the last record, until has_more is false', async () => {
    const ids: string[] = [];
    let cursor: unknown;
    for (let i = 0; i < 5; i++) {
      const out = await exec('widgets', 'list', cursor === undefined ? { limit: 2 } : { cursor });
      ids.push(...(parseRecords(out.payload) as Array<{ id: string }>).map((w) => w.id));
      cursor = out.connector_metadata.end_cursor;
      if (!out.connector_metadata.has_next_page) break;
    }
    assert.deepEqual(ids, ['w_1', 'w_2', 'w_3', 'w_4', 'w_5']);
    assert.equal(cursor, null);
    assert.match(last().url, /starting_after=w_4/);
  });

  it('form-encodes a body with bracket nesting', async () => {
    await exec('widgets', 'create', { name: 'A b&c', metadata: { plan: 'pro', seats: 3 }, tags: ['x', 'y'] });
    const req = last();
    assert.equal(req.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(req.body, 'name=A+b%26c&metadata[plan]=pro&metadata[seats]=3&tags[0]=x&tags[1]=y');
  });

  it('builds a nested JSON body from a template, dropping what names an absent param, and pages it', async () => {
    const first = await exec('widgets', 'api_search', { email: 'a@b.c', limit: 10 });
    assert.deepEqual(JSON.parse(last().body), {
      filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ', value: 'a@b.c' }] }],
      sorts: [{ propertyName: 'modified', direction: 'ASCENDING' }],
      label: 'search for a@b.c',
      page_size: 10,
    });
    const second = await exec('widgets', 'api_search', { cursor: first.connector_metadata.end_cursor });
    assert.deepEqual(parseRecords(second.payload), [{ id: 's1' }]);
    assert.equal(JSON.parse(last().body).after, '1');
    assert.equal(JSON.parse(last().body).label, 'search for a@b.c');
    await exec('widgets', 'api_search', {});
    assert.deepEqual(JSON.parse(last().body), {
      sorts: [{ propertyName: 'modified', direction: 'ASCENDING' }],
    });
  });

  it('follows a cursor from a response header', async () => {
    const seen: unknown[] = [];
    let out = await exec('events', 'list', {});
    seen.push(...(parseRecords(out.payload) as unknown[]));
    while (out.connector_metadata.has_next_page) {
      out = await exec('events', 'list', { cursor: out.connector_metadata.end_cursor });
      seen.push(...(parseRecords(out.payload) as unknown[]));
    }
    assert.deepEqual(seen, [{ id: 0 }, { id: 1 }, { id: 2 }]);
  });
});

describe('the client_credentials grant, with the API host taken from the token response', () => {
  it('obtains a token with the client id and secret, uses the answered host, and renews after a 401', async () => {
    let issued = 0;
    const server = await startServer((req, res) => {
      if (req.url === '/oauth/token') {
        issued += 1;
        return json(res, 200, { access_token: `tok-${issued}`, expires_in: 3600, instance_url: server.url });
      }
      if (!/^Bearer tok-\d$/.test(req.headers.authorization ?? ''))
        return json(res, 401, { error: 'expired' });
      json(res, 200, [{ id: 1 }]);
    });
    const rt = runtime({}, { egressAllow: [{ kind: 'host', host: '127.0.0.1', port: server.port }] });
    const run = (values: Record<string, string>) =>
      rt.execute({
        connectorId: 'c2',
        definition: def,
        credentials: { option: 'App', values: { client_id: 'cid', client_secret: 'csecret', ...values } },
        config: { login_url: server.url },
        entity: 'events',
        action: 'list',
        params: {},
      });
    try {
      // No token yet: one is obtained first, and the API is called on the host the answer named.
      assert.deepEqual(parseRecords((await run({})).payload), [{ id: 1 }]);
      const [token, call] = server.seen;
      assert.equal(token?.headers.authorization, `Basic ${Buffer.from('cid:csecret').toString('base64')}`);
      assert.equal(token?.headers['content-type'], 'application/x-www-form-urlencoded');
      assert.equal(token?.body, 'grant_type=client_credentials&scope=read+write');
      assert.equal(call?.url, '/v2/events');
      assert.equal(call?.headers.authorization, 'Bearer tok-1');
      // A token the provider no longer takes: a new one, and the call once more.
      assert.deepEqual(
        parseRecords((await run({ access_token: 'revoked', instance_url: server.url })).payload),
        [{ id: 1 }],
      );
      assert.deepEqual(
        server.seen.slice(2).map((r) => [r.url, r.headers.authorization]),
        [
          ['/v2/events', 'Bearer revoked'],
          ['/oauth/token', `Basic ${Buffer.from('cid:csecret').toString('base64')}`],
          ['/v2/events', 'Bearer tok-2'],
        ],
      );
    } finally {
      await rt.close();
      await server.close();
    }
  });
});

describe('token endpoints that answer failures with HTTP 200', () => {
  const slackish = parseDefinition(
    YAML.replace(
      '      response: { values: { instance_url: instance_url } }',
      '      response: { values: { instance_url: instance_url }, error: error }\n      reauth_errors: [invalid_refresh_token]',
    ),
    'widgetly.yaml',
  );
  const option = slackish.credential_options[2];
  const settings = refreshSettings(option?.refresh as NonNullable<typeof option>['refresh'] & object);
  const creds = { option: 'App', values: { client_id: 'cid', client_secret: 'cs' } };
  const answer = (body: unknown) => ({
    status: 200,
    headers: {},
    url: new URL('https://login.widgetly.example/oauth/token'),
    body: Buffer.from(JSON.stringify(body)),
  });

  it('reads a declared error member of a 2xx answer, and a declared re-auth code', () => {
    assert.throws(
      () =>
        tokenResponse(slackish, settings, creds, answer({ ok: false, error: 'invalid_refresh_token' }), 0),
      (err: unknown) =>
        err instanceof RefreshRejectedError && /HTTP 200 invalid_refresh_token/.test(err.reason),
    );
    assert.throws(
      () => tokenResponse(slackish, settings, creds, answer({ ok: false, error: 'internal_error' }), 0),
      (err: unknown) =>
        err instanceof Error && !(err instanceof RefreshRejectedError) && /internal_error/.test(err.message),
    );
    // The RFC's own `error` on a 400 still counts when the declared key (HubSpot's `status`) is absent.
    const rfc = { ...answer({ error: 'invalid_grant' }), status: 400 };
    assert.throws(
      () => tokenResponse(slackish, { ...settings, errorKey: 'status' }, creds, rfc, 0),
      (err: unknown) => err instanceof RefreshRejectedError,
    );
    const ok = tokenResponse(slackish, settings, creds, answer({ ok: true, access_token: 'a1' }), 0);
    assert.equal(ok.values.access_token, 'a1');
  });
});

describe('two-step downloads', () => {
  it('reads the file URL from the answer of the first URL, sending the key only where it belongs', async () => {
    const storage = await startServer((req, res) => {
      if (req.url === '/job/9')
        return json(res, 200, { result: { url: `${api.url}/v2/files/9.pdf`, name: 'w.pdf' } });
      res.writeHead(404).end();
    });
    const api = await startServer((req, res) => {
      if (req.url.startsWith('/v2/widgets/w_1/export'))
        return json(res, 200, { links: { status: `${storage.url}/job/9` } });
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end('%PDF-1.7');
    });
    const rt = runtime(
      { widgetly: `${api.url}/v2` },
      { egressAllow: [{ kind: 'host', host: '127.0.0.1', port: storage.port }] },
    );
    try {
      const file = await rt.download({
        connectorId: 'c3',
        definition: def,
        credentials: KEY,
        config: {},
        entity: 'widgets',
        action: 'download',
        params: { id: 'w_1', format: 'pdf' },
      });
      const chunks: Buffer[] = [];
      for await (const chunk of file.body) chunks.push(chunk as Buffer);
      assert.equal(Buffer.concat(chunks).toString(), '%PDF-1.7');
      assert.match(String(file.headers['content-disposition']), /w\.pdf/);
      const [meta, file2] = api.seen;
      assert.equal(new URL(meta?.url ?? '', 'http://x').searchParams.get('format'), 'pdf');
      assert.equal(meta?.headers.authorization, 'Widgetly-Key wk_live_secret');
      assert.equal(file2?.headers.authorization, 'Widgetly-Key wk_live_secret');
      // The job host is neither the API nor a declared file host: no key there, in a header or the query.
      assert.equal(storage.seen[0]?.headers.authorization, undefined);
      assert.equal(storage.seen[0]?.url, '/job/9');
    } finally {
      await rt.close();
      await api.close();
      await storage.close();
    }
  });

  it('takes the first of several file URL paths that holds a value', () => {
    const base = {
      href: 'https://api.widgetly.example/v2',
      origin: 'https://api.widgetly.example',
      guarded: true,
    };
    const paths = {
      file_url: [
        ['file', 'file', 'url'],
        ['image', 'file', 'url'],
      ],
    };
    const image = { type: 'image', image: { file: { url: 'https://files.example/i.png' } } };
    assert.equal(fileUrl('W', 'blocks.download', base, image, paths).url.href, 'https://files.example/i.png');
    assert.throws(() => fileUrl('W', 'blocks.download', base, { type: 'divider' }, paths), /has no file/);
  });

  it('sends the credential to the declared file hosts, which an override folds into its own origin', () => {
    const base = {
      href: 'https://api.widgetly.example/v2',
      origin: 'https://api.widgetly.example',
      guarded: true,
    };
    assert.deepEqual(credentialOrigins(base, ['https://files.widgetly.example'], false), [
      'https://api.widgetly.example',
      'https://files.widgetly.example',
    ]);
    assert.deepEqual(credentialOrigins(base, undefined, false), ['https://api.widgetly.example']);
    assert.deepEqual(credentialOrigins(base, ['https://files.widgetly.example'], true), [
      'https://api.widgetly.example',
    ]);
  });
});

describe('more paging styles (next page only)', () => {
  const url = new URL('https://api.example/items?limit=2');
  const ctx = (over: Partial<PageContext>): PageContext => ({
    url,
    headers: {},
    body: {},
    records: [1, 2],
    ...over,
  });
  const next = (p: Pagination, c: Partial<PageContext>) => nextPage(p, ctx(c))?.url.search ?? null;

  it('next_url with cursor_param takes only the cursor of the provider URL', () => {
    const p: Pagination = { type: 'next_url', path: ['next'], cursor_param: 'page_token' };
    assert.equal(
      next(p, { body: { next: 'https://api.example/other?page_token=t2&limit=50' } }),
      '?limit=2&page_token=t2',
    );
    assert.equal(next(p, { body: { next: 'https://api.example/other?limit=50' } }), null);
    assert.equal(next(p, { body: { next: null } }), null);
  });

  it('offset stops at total_path or last_page_path; page_number at total_pages_path', () => {
    const offset: Pagination = {
      type: 'offset',
      offset_param: 'startAt',
      limit_param: 'limit',
      total_path: ['total'],
    };
    assert.equal(next(offset, { body: { total: 5 } }), '?limit=2&startAt=2');
    assert.equal(next(offset, { body: { total: 2 } }), null);
    const isLast: Pagination = {
      type: 'offset',
      offset_param: 'startAt',
      limit_param: 'limit',
      last_page_path: ['isLast'],
    };
    assert.equal(next(isLast, { body: { isLast: true } }), null);
    assert.equal(next(isLast, { body: { isLast: false } }), '?limit=2&startAt=2');
    const pages: Pagination = { type: 'page_number', param: 'page', total_pages_path: ['total_pages'] };
    assert.equal(next(pages, { body: { total_pages: 2 } }), '?limit=2&page=2');
    assert.equal(
      nextPage(pages, ctx({ url: new URL('https://api.example/items?page=2'), body: { total_pages: 2 } })),
      null,
    );
  });

  it('keyset reads a nested record key, may go in the body, and ends on an empty page', () => {
    const p: Pagination = { type: 'keyset', param: 'after_id', record_key: ['meta', 'key'], in: 'body' };
    const found = nextPage(
      p,
      ctx({ records: [{ meta: { key: 7 } }, { meta: { key: 9 } }], requestBody: { q: 1 } }),
    );
    assert.deepEqual(found?.body, { q: 1, after_id: '9' });
    assert.equal(nextPage(p, ctx({ records: [] })), null);
  });
});

describe('bracketed form pairs', () => {
  it('nests objects and arrays and writes null as an empty value', () => {
    assert.deepEqual(formPairs({ a: { b: [{ c: 1 }, true] }, d: null, e: 'x' }), [
      ['a[b][0][c]', '1'],
      ['a[b][1]', 'true'],
      ['d', ''],
      ['e', 'x'],
    ]);
  });
});

describe('format v2 load-time checks', () => {
  // biome-ignore lint/suspicious/noExplicitAny: the document is edited into invalid shapes on purpose
  const errorsWith = (change: (doc: any) => void) => {
    const doc = parse(YAML);
    change(doc);
    return loadErrors(doc, 'widgetly.yaml');
  };

  it('names the placement at fault in a list of them', () => {
    assert.deepEqual(
      errorsWith((d) => {
        d.credential_options[0].auth[1].value = '{nope}';
        d.credential_options[0].auth[2] = { type: 'header', name: 'x-account', value: '{account}' };
      }),
      [
        'widgetly.yaml: /credential_options/0/auth/1/value: placeholder {nope} is not a declared field',
        'widgetly.yaml: /credential_options/0/auth/2: a second placement of header x-account',
      ],
    );
    assert.deepEqual(
      errorsWith((d) => {
        d.credential_options[1].auth.name = 'Bad Header';
      }),
      ['widgetly.yaml: /credential_options/1/auth/name: not an HTTP header name'],
    );
  });

  it('refuses a free-text param written into template text (it could rewrite a query language)', () => {
    assert.deepEqual(
      errorsWith((d) => {
        delete d.entities[0].actions.api_search.params.email.pattern;
      }),
      [
        'widgetly.yaml: /entities/0/actions/api_search/params/email: the body template writes it into text, so it needs a pattern, enum or format',
      ],
    );
  });

  it('checks body templates against the params and the method', () => {
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const search = (d: any) => d.entities[0].actions.api_search;
    assert.deepEqual(
      errorsWith((d) => {
        search(d).request.body.extra = '{missing}';
        search(d).params.since.in = 'query';
      }),
      [
        'widgetly.yaml: /entities/0/actions/api_search/params/since/in: the body template places it, so it must be a body param',
        'widgetly.yaml: /entities/0/actions/api_search/request/body: placeholder {missing} is not a declared param',
      ].sort(),
    );
    assert.deepEqual(
      errorsWith((d) => {
        d.entities[0].actions.list.request.body_format = 'form';
        search(d).params.label = { type: 'string', description: 'Label.' };
      }),
      [
        'widgetly.yaml: /entities/0/actions/list/request/body_format: a GET request has no body',
        "widgetly.yaml: /entities/0/actions/api_search/params/label: the body template already has a member 'label'",
      ],
    );
  });

  it('checks object params in a query, download follow, and token response values', () => {
    assert.deepEqual(
      errorsWith((d) => {
        d.entities[0].actions.list.params.created.properties.gte.type = 'object';
        delete d.entities[0].actions.download.download.file_url;
        d.credential_options[2].refresh.response.values = { client_secret: 'x', nope: 'instance_url' };
      }),
      [
        "widgetly.yaml: /credential_options/2/refresh/response/values/client_secret: 'client_secret' is secret; a token response value may not be",
        "widgetly.yaml: /credential_options/2/refresh/response/values/client_secret: 'client_secret' already holds a token value",
        "widgetly.yaml: /credential_options/2/refresh/response/values/nope: 'nope' is not a declared field of the option",
        "widgetly.yaml: /entities/0/actions/list/params/created/properties/gte/type: a query object's members are scalars",
        'widgetly.yaml: /entities/0/actions/download/download/follow: only after file_url (it reads the answer of that URL)',
      ],
    );
  });
});
