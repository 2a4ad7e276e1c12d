// The Notion fake itself, spoken to with plain fetch: what it answers is what the connector tests rely on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  NOTION_FAKE_CLIENT_ID,
  NOTION_FAKE_CLIENT_SECRET,
  NOTION_FAKE_LEGACY_TOKEN,
  NOTION_FAKE_TOKEN,
  NOTION_TOKEN_PATH,
  type NotionFake,
  startNotionFake,
} from './index.ts';

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON bodies
type Json = Record<string, any>;

const V2025 = '2025-09-03';
const V2022 = '2022-06-28';

describe('Notion fake', () => {
  let fake: NotionFake;
  let clock = Date.now();

  before(async () => {
    fake = await startNotionFake({ now: () => clock });
  });
  after(() => fake.close());

  const call = async (
    method: string,
    path: string,
    body?: unknown,
    opts: { token?: string | null; version?: string | null } = {},
  ) => {
    const headers: Record<string, string> = {};
    const token = opts.token === undefined ? NOTION_FAKE_TOKEN : opts.token;
    const version = opts.version === undefined ? V2025 : opts.version;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (version !== null) headers['notion-version'] = version;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${fake.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Json };
  };

  /** Follows next_cursor to the end; GET lists take it in the query, POST lists in the body. */
  const collect = async (method: 'GET' | 'POST', path: string, body: Json = {}, pageSize = 25) => {
    const all: Json[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const res: { status: number; json: Json } =
        method === 'GET'
          ? await call('GET', `${path}${sep}page_size=${pageSize}${cursor ? `&start_cursor=${cursor}` : ''}`)
          : await call('POST', path, {
              ...body,
              page_size: pageSize,
              ...(cursor ? { start_cursor: cursor } : {}),
            });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      assert.equal(res.json.object, 'list');
      assert.equal(res.json.has_more, res.json.next_cursor !== null);
      all.push(...res.json.results);
      cursor = res.json.next_cursor;
      pages++;
    } while (cursor !== null);
    return { all, pages };
  };

  it('refuses a missing or unknown token with 401 unauthorized, and accepts both token forms', async () => {
    for (const token of [null, 'ntn_nope', 'secret_nope']) {
      const res = await call('GET', '/users/me', undefined, { token });
      assert.equal(res.status, 401);
      assert.deepEqual(
        { ...res.json, request_id: typeof res.json.request_id },
        {
          object: 'error',
          status: 401,
          code: 'unauthorized',
          message: 'API token is invalid.',
          request_id: 'string',
        },
      );
    }
    for (const token of [NOTION_FAKE_TOKEN, NOTION_FAKE_LEGACY_TOKEN]) {
      const me = await call('GET', '/users/me', undefined, { token });
      assert.equal(me.status, 200);
      assert.equal(me.json.type, 'bot');
      assert.equal(me.json.bot.workspace_name, 'Acme Fake Workspace');
    }
  });

  it('requires a supported Notion-Version header (400 missing_version)', async () => {
    const missing = await call('GET', '/users', undefined, { version: null });
    assert.equal(missing.status, 400);
    assert.equal(missing.json.code, 'missing_version');
    assert.equal(
      (await call('GET', '/users', undefined, { version: '2019-01-01' })).json.code,
      'missing_version',
    );
    assert.equal((await call('GET', '/users', undefined, { version: V2022 })).status, 200);
  });

  it('pages users by start_cursor/page_size across every page, and validates both', async () => {
    const { all, pages } = await collect('GET', '/users', {}, 10);
    assert.equal(all.length, 34);
    assert.equal(pages, 4);
    assert.equal(new Set(all.map((u) => u.id)).size, 34);
    assert.equal(all.filter((u) => u.type === 'bot').length, 4);
    const first = await call('GET', '/users?page_size=10');
    assert.equal(first.json.type, 'user');
    assert.deepEqual(first.json.user, {});
    assert.equal((await call('GET', '/users?page_size=101')).json.code, 'validation_error');
    assert.equal((await call('GET', '/users?start_cursor=not-a-cursor')).json.code, 'validation_error');
  });

  it('gets a user by dashed or undashed id; 404 object_not_found and 400 for a malformed id', async () => {
    const person = fake.data.users[1] as Json;
    const res = await call('GET', `/users/${person.id.replace(/-/g, '')}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json.person, { email: person.email });
    const missing = await call('GET', '/users/00000000-0000-4000-8000-000000000000');
    assert.equal(missing.status, 404);
    assert.equal(missing.json.code, 'object_not_found');
    assert.match(
      missing.json.message,
      /^Could not find user with ID: 00000000-0000-4000-8000-000000000000\./,
    );
    assert.equal((await call('GET', '/users/xyz')).json.code, 'validation_error');
  });

  it('searches pages newest-edited first across pages; filters data sources (2025-09-03) or databases (2022-06-28)', async () => {
    const { all, pages } = await collect('POST', '/search', {
      filter: { property: 'object', value: 'page' },
    });
    assert.equal(all.length, 56);
    assert.equal(pages, 3);
    const times = all.map((p) => Date.parse(p.last_edited_time));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
    const asc = await call('POST', '/search', {
      sort: { timestamp: 'last_edited_time', direction: 'ascending' },
    });
    assert.equal(asc.json.type, 'page_or_data_source');
    assert.ok(
      Date.parse(asc.json.results[0].last_edited_time) <= Date.parse(asc.json.results[1].last_edited_time),
    );
    const sources = await call('POST', '/search', { filter: { property: 'object', value: 'data_source' } });
    assert.equal(sources.json.results.length, 8);
    assert.ok(
      sources.json.results.every((d: Json) => d.object === 'data_source' && d.parent.type === 'database_id'),
    );
    const dbs = await call(
      'POST',
      '/search',
      { filter: { property: 'object', value: 'database' } },
      { version: V2022 },
    );
    assert.equal(dbs.json.type, 'page_or_database');
    assert.equal(dbs.json.results.length, 7);
    assert.ok(
      dbs.json.results.every((d: Json) => d.object === 'database' && d.properties.Name.type === 'title'),
    );
    const wrong = await call('POST', '/search', { filter: { property: 'object', value: 'database' } });
    assert.equal(wrong.json.code, 'validation_error');
    assert.equal((await call('POST', '/search', '{nope')).json.code, 'invalid_json');
  });

  it('serves data sources on 2025-09-03 only, and queries their pages with a last_edited_time filter', async () => {
    const ds = fake.data.dataSources[0] as Json;
    const got = await call('GET', `/data_sources/${ds.id}`);
    assert.equal(got.json.object, 'data_source');
    assert.equal(got.json.properties.Status.type, 'select');
    const old = await call('GET', `/data_sources/${ds.id}`, undefined, { version: V2022 });
    assert.equal(old.status, 400);
    assert.equal(old.json.code, 'invalid_request_url');
    const all = await call('POST', `/data_sources/${ds.id}/query`, {});
    assert.equal(all.json.results.length, 5);
    const pivot = all.json.results[2].last_edited_time;
    const since = await call('POST', `/data_sources/${ds.id}/query`, {
      filter: { timestamp: 'last_edited_time', last_edited_time: { on_or_after: pivot } },
      sorts: [{ timestamp: 'last_edited_time', direction: 'ascending' }],
    });
    assert.ok(since.json.results.length >= 1 && since.json.results.length < 5);
    assert.ok(since.json.results.every((p: Json) => p.last_edited_time >= pivot));
    assert.deepEqual(since.json.results[0].parent, {
      type: 'data_source_id',
      data_source_id: ds.id,
      database_id: ds.databaseId,
    });
  });

  it('lists 130 blocks under the handbook across pages; hosted files download without auth until they expire', async () => {
    const { all, pages } = await collect('GET', `/blocks/${fake.data.handbookId}/children`, {}, 100);
    assert.equal(all.length, 130);
    assert.equal(pages, 2);
    const toggle = all.find((b) => b.type === 'toggle') as Json;
    assert.equal(toggle.has_children, true);
    assert.equal((await call('GET', `/blocks/${toggle.id}/children`)).json.results.length, 3);
    const pdf = all.find((b) => b.type === 'pdf') as Json;
    assert.equal(pdf.pdf.type, 'file');
    assert.ok(!pdf.pdf.file.url.startsWith(fake.origin));
    const file = await fetch(pdf.pdf.file.url);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'application/pdf');
    assert.equal(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    );
    assert.equal(fake.media.requests.at(-1)?.headers.authorization, undefined);
    const forged = await fetch(
      pdf.pdf.file.url.replace(/X-Amz-Signature=[0-9a-f]{4}/, 'X-Amz-Signature=0000'),
    );
    assert.equal(forged.status, 403);
    assert.match(await forged.text(), /SignatureDoesNotMatch/);
    clock = Date.parse(pdf.pdf.file.expiry_time) + 1000;
    const expired = await fetch(pdf.pdf.file.url);
    clock = Date.now();
    assert.equal(expired.status, 403);
    assert.match(await expired.text(), /Request has expired/);
  });

  it('creates a page in a data source, updates it, and later reads (and search) see it', async () => {
    const ds = fake.data.dataSources[1] as Json;
    clock = Date.parse('2030-01-01T00:00:00Z');
    const created = await call('POST', '/pages', {
      parent: { data_source_id: ds.id },
      properties: { Name: { title: [{ text: { content: 'Fake-made task' } }] }, Done: { checkbox: true } },
      children: [{ paragraph: { rich_text: [{ text: { content: 'first line' } }] } }],
    });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const id = created.json.id;
    const got = await call('GET', `/pages/${id}`);
    assert.equal(got.json.properties.Name.title[0].plain_text, 'Fake-made task');
    assert.equal(got.json.properties.Done.checkbox, true);
    assert.equal(got.json.created_time, '2030-01-01T00:00:00.000Z');
    const body = await call('GET', `/blocks/${id}/children`);
    assert.equal(body.json.results[0].paragraph.rich_text[0].plain_text, 'first line');
    const patched = await call('PATCH', `/pages/${id}`, {
      properties: { Status: { select: { name: 'Done' } } },
    });
    assert.equal(patched.json.properties.Status.select.name, 'Done');
    const bad = await call('PATCH', `/pages/${id}`, { properties: { Nope: { checkbox: true } } });
    assert.equal(bad.json.code, 'validation_error');
    const newest = await call('POST', '/search', { query: 'fake-made', page_size: 1 });
    assert.equal(newest.json.results[0].id, id);
    await call('PATCH', `/pages/${id}`, { in_trash: true });
    assert.equal((await call('POST', '/search', { query: 'fake-made' })).json.results.length, 0);
    clock = Date.now();
  });

  it('appends, updates and deletes blocks', async () => {
    const page = fake.data.pages[2] as Json;
    const appended = await call('PATCH', `/blocks/${page.id}/children`, {
      children: [{ type: 'to_do', to_do: { rich_text: [{ text: { content: 'check me' } }] } }],
    });
    assert.equal(appended.json.results.length, 1);
    const block = appended.json.results[0];
    const updated = await call('PATCH', `/blocks/${block.id}`, { to_do: { checked: true } });
    assert.equal(updated.json.to_do.checked, true);
    const wrongType = await call('PATCH', `/blocks/${block.id}`, { paragraph: { rich_text: [] } });
    assert.equal(wrongType.json.code, 'validation_error');
    const deleted = await call('DELETE', `/blocks/${block.id}`);
    assert.equal(deleted.json.in_trash, true);
    const children = await call('GET', `/blocks/${page.id}/children`);
    assert.ok(!children.json.results.some((b: Json) => b.id === block.id));
  });

  it('lists comments of a page across pages, and a created comment joins them', async () => {
    const { all } = await collect('GET', `/comments?block_id=${fake.data.handbookId}`, {}, 10);
    assert.equal(all.length, 24);
    assert.equal(all[0]?.object, 'comment');
    const made = await call('POST', '/comments', {
      parent: { page_id: fake.data.handbookId },
      rich_text: [{ text: { content: 'Hello from the fake' } }],
    });
    assert.equal(made.status, 200);
    assert.equal(made.json.created_by.id, fake.data.bot.id);
    const again = await collect('GET', `/comments?block_id=${fake.data.handbookId}`, {}, 100);
    assert.equal(again.all.at(-1)?.rich_text[0].plain_text, 'Hello from the fake');
    assert.equal((await call('GET', '/comments')).json.code, 'validation_error');
  });

  it('answers injected faults with Notion error bodies (or the given body) on the matching path only', async () => {
    fake.failNext({ status: 503, match: '/v1/users', headers: { 'Retry-After': '2' } });
    const failed = await call('GET', '/users');
    assert.equal(failed.status, 503);
    assert.equal(failed.headers.get('retry-after'), '2');
    assert.deepEqual([failed.json.object, failed.json.code], ['error', 'service_unavailable']);
    fake.failNext({ status: 403, match: '/v1/pages' });
    assert.equal((await call('GET', '/users')).status, 200);
    const restricted = await call('GET', `/pages/${fake.data.handbookId}`);
    assert.deepEqual([restricted.status, restricted.json.code], [403, 'restricted_resource']);
  });

  it('answers an unknown route with 400 invalid_request_url and records it as unhandled', async () => {
    const before = fake.unhandled.length;
    const res = await call('GET', '/nowhere');
    assert.deepEqual([res.status, res.json.code], [400, 'invalid_request_url']);
    assert.equal(fake.unhandled.length, before + 1);
  });

  it('refreshes OAuth tokens at /v1/oauth/token with rolling refresh tokens', async () => {
    const grant = fake.oauth.grant();
    const basic = `Basic ${Buffer.from(`${NOTION_FAKE_CLIENT_ID}:${NOTION_FAKE_CLIENT_SECRET}`).toString('base64')}`;
    const refresh = (token: string, authorization = basic) =>
      fetch(`${fake.origin}${NOTION_TOKEN_PATH}`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: token }),
      }).then(async (r) => ({ status: r.status, json: (await r.json()) as Json }));
    const ok = await refresh(grant.refresh_token);
    assert.equal(ok.status, 200);
    assert.equal(ok.json.token_type, 'bearer');
    assert.equal(ok.json.bot_id, fake.data.bot.id);
    assert.equal(ok.json.expires_in, 3600);
    assert.notEqual(ok.json.refresh_token, grant.refresh_token);
    assert.equal((await call('GET', '/users/me', undefined, { token: ok.json.access_token })).status, 200);
    const reused = await refresh(grant.refresh_token);
    assert.equal(reused.status, 400);
    assert.equal(reused.json.error, 'invalid_grant');
    const badClient = await refresh(ok.json.refresh_token, `Basic ${Buffer.from('x:y').toString('base64')}`);
    assert.deepEqual([badClient.status, badClient.json.error], [401, 'invalid_client']);
    fake.oauth.expireAccessTokens();
    assert.equal((await call('GET', '/users/me', undefined, { token: ok.json.access_token })).status, 401);
  });

  it('answers 429 rate_limited with Retry-After over the configured limit', async () => {
    const limited = await startNotionFake({ rateLimitPerSecond: 2 });
    try {
      const headers = { authorization: `Bearer ${NOTION_FAKE_TOKEN}`, 'notion-version': V2025 };
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 3; i++) {
        last = await fetch(`${limited.url}/users/me`, { headers });
        statuses.push(last.status);
      }
      assert.deepEqual(statuses, [200, 200, 429]);
      assert.equal(last?.headers.get('retry-after'), '1');
      const body = (await last?.json()) as Json;
      assert.deepEqual([body.object, body.status, body.code], ['error', 429, 'rate_limited']);
    } finally {
      await limited.close();
    }
  });
});
