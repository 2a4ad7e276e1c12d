// Notion end to end through the HTTP API, against the Notion fake (test/connectors/notion/fake): the credential
// check, lists paged by Notion's next_cursor (in the query for GET lists, in the body for POST /search), gets,
// writes read back, a hosted file streamed from the storage host, Notion's refusals, the OAuth2.0 refresh at
// /v1/oauth/token, and the Context Store filled and searched.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type ConnectorApi,
  closeAll,
  connectorApi,
  createConnector,
  startSyncing,
  startWithFake,
} from '../../helpers/connector-api.ts';
import type { Harness } from '../../helpers/harness.ts';
import { assertError } from '../../http/assertions.ts';
import { MISSING_ID } from './cases.ts';
import {
  NOTION_FAKE_CLIENT_ID,
  NOTION_FAKE_CLIENT_SECRET,
  NOTION_FAKE_LEGACY_TOKEN,
  NOTION_FAKE_TOKEN,
  NOTION_TOKEN_PATH,
  type NotionFake,
  type RecordedRequest,
  startNotionFake,
} from './fake/index.ts';

const NOTION_ID = '6e00b415-b02e-4160-bf02-58176a0ae687';
const VERSION = '2025-09-03';

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON records
type Json = Record<string, any>;

const route = (r: RecordedRequest) => `${r.method} ${r.path.split('?')[0]}`;
const query = (r: RecordedRequest) => new URL(r.path, 'http://x').searchParams;
const bearer = (r: RecordedRequest) => String(r.headers.authorization ?? '').replace(/^Bearer /, '');

/** The harness pointed at the fake (API and hosted files), with one application token. */
const start = (fake: NotionFake, env: Record<string, string> = {}) =>
  startWithFake('notion', fake.url, { CES_EGRESS_ALLOW: new URL(fake.media.origin).host, ...env });

/** POST a Notion connector with these credentials. */
const createNotion = (h: Harness, token: string, credentials: Record<string, unknown>) =>
  createConnector(h, token, { definition_id: NOTION_ID, credentials });

describe('Notion through the HTTP API (Integration Token)', () => {
  let fake: NotionFake;
  let h: Harness;
  let token: string;
  let api: ConnectorApi;

  /** Follows end_cursor to the last page; returns the records and how many pages it took. */
  const all = async (entity: string, params: Record<string, unknown>) => {
    const pages = await api.pages(entity, 'list', params);
    return { records: pages.flatMap((p): Json[] => p.result), pages: pages.length };
  };

  before(async () => {
    fake = await startNotionFake();
    ({ h, token } = await start(fake));
  });
  after(() => closeAll(h, fake));

  test('a token Notion refuses is INVALID_CREDENTIALS at create, after Notion answered 401', async () => {
    const res = await createNotion(h, token, { token: 'ntn_thisIsNotAValidIntegrationToken000000000000' });
    assertError(res, 422, 'INVALID_CREDENTIALS');
    const check = fake.requests.at(-1) as RecordedRequest;
    assert.equal(route(check), 'GET /v1/users/me');
    assert.equal(check.headers.authorization, 'Bearer ntn_thisIsNotAValidIntegrationToken000000000000');
    assert.doesNotMatch(res.body, /thisIsNotAValid/);
  });

  test('create checks the integration token with GET /users/me (Bearer + Notion-Version); both token forms work', async () => {
    const before = fake.requests.length;
    const res = await createNotion(h, token, { token: NOTION_FAKE_TOKEN });
    assert.equal(res.status, 200, res.body);
    api = connectorApi(h, token, res.json.id);
    assert.equal(res.json.connector_type, 'notion');
    assert.equal(res.json.credential_option, 'Integration Token');
    const [check] = fake.requests.slice(before);
    assert.equal(route(check as RecordedRequest), 'GET /v1/users/me');
    assert.equal(check?.path, '/v1/users/me');
    assert.equal(check?.headers.authorization, `Bearer ${NOTION_FAKE_TOKEN}`);
    assert.equal(check?.headers['notion-version'], VERSION);
    // The older secret_ form, under the access_token name the hosted catalog also uses.
    const legacy = await createNotion(h, token, { access_token: NOTION_FAKE_LEGACY_TOKEN });
    assert.equal(legacy.status, 200, legacy.body);
    assert.equal(legacy.json.credential_option, 'Integration Token');
    assert.equal(fake.requests.at(-1)?.headers.authorization, `Bearer ${NOTION_FAKE_LEGACY_TOKEN}`);
  });

  test('users.list follows next_cursor as start_cursor in the query, every page with the version header', async () => {
    const before = fake.requests.length;
    const { records, pages } = await all('users', { page_size: 10 });
    assert.equal(pages, 4);
    assert.equal(records.length, 34);
    assert.equal(new Set(records.map((u) => u.id)).size, 34);
    assert.equal(
      records.find((u) => u.id === fake.data.users[1]?.id)?.person.email,
      fake.data.users[1]?.email,
    );
    const sent = fake.requests.slice(before);
    assert.deepEqual(
      sent.map((r) => query(r).get('page_size')),
      ['10', '10', '10', '10'],
    );
    assert.equal(query(sent[0] as RecordedRequest).get('start_cursor'), null);
    for (const r of sent.slice(1)) assert.match(String(query(r).get('start_cursor')), /^[0-9a-f-]{36}$/);
    for (const r of sent) {
      assert.equal(r.headers['notion-version'], VERSION);
      assert.equal(r.headers.authorization, `Bearer ${NOTION_FAKE_TOKEN}`);
    }
  });

  test('pages.list is POST /search for pages, sorted by last edit; the next page repeats the body with start_cursor', async () => {
    const before = fake.requests.length;
    const first = await api.exec('pages', 'list', { page_size: 25, sort_direction: 'ascending' });
    assert.equal(first.status, 200, first.body);
    assert.equal(first.json.result.length, 25);
    assert.ok(first.json.result.every((p: Json) => p.object === 'page'));
    // The hosted catalog's start_cursor is ces's cursor.
    const second = await api.exec('pages', 'list', {
      start_cursor: first.json.connector_metadata.end_cursor,
    });
    assert.equal(second.status, 200, second.body);
    const third = await api.exec('pages', 'list', { cursor: second.json.connector_metadata.end_cursor });
    assert.equal(third.json.connector_metadata.has_next_page, false);
    const ids = [...first.json.result, ...second.json.result, ...third.json.result].map((p: Json) => p.id);
    assert.equal(new Set(ids).size, 56);
    const times = [...first.json.result, ...second.json.result].map((p: Json) =>
      Date.parse(p.last_edited_time),
    );
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
    );
    const sent = fake.requests.slice(before);
    assert.deepEqual(sent.map(route), ['POST /v1/search', 'POST /v1/search', 'POST /v1/search']);
    const bodies = sent.map((r) => JSON.parse(r.body));
    assert.deepEqual(bodies[0], {
      filter: { property: 'object', value: 'page' },
      sort: { timestamp: 'last_edited_time', direction: 'ascending' },
      page_size: 25,
    });
    assert.deepEqual(bodies[1], { ...bodies[0], start_cursor: ids[25] });
    assert.deepEqual(bodies[2], { ...bodies[0], start_cursor: ids[50] });
    // A title query; Notion's own default order (descending) is asked for when none is given.
    const found = await api.exec('pages', 'list', { query: 'handbook' });
    assert.deepEqual(
      found.json.result.map((p: Json) => p.id),
      [fake.data.handbookId],
    );
    assert.deepEqual(JSON.parse(fake.requests.at(-1)?.body ?? '{}'), {
      query: 'handbook',
      filter: { property: 'object', value: 'page' },
      sort: { timestamp: 'last_edited_time', direction: 'descending' },
    });
  });

  test('gets: a page, a data source (and data_sources.list), a block and a user', async () => {
    const page = await api.exec('pages', 'get', { page_id: fake.data.handbookId.replace(/-/g, '') });
    assert.equal(page.status, 200, page.body);
    assert.equal(page.json.result.id, fake.data.handbookId);
    assert.equal(page.json.result.properties.title.title[0].plain_text, 'Engineering Handbook');
    const sources = await api.exec('data_sources', 'list', {});
    assert.equal(sources.json.result.length, 8);
    assert.equal(JSON.parse(fake.requests.at(-1)?.body ?? '{}').filter.value, 'data_source');
    const ds = await api.exec('data_sources', 'get', { data_source_id: sources.json.result[0].id });
    assert.equal(ds.json.result.object, 'data_source');
    assert.equal(ds.json.result.properties.Status.type, 'select');
    const blocks = await api.exec('blocks', 'list', { block_id: fake.data.handbookId, page_size: 5 });
    const heading = blocks.json.result[0];
    assert.equal(heading.type, 'heading_2');
    const block = await api.exec('blocks', 'get', { block_id: heading.id });
    // A single object comes with Notion's request_id; a list's records without.
    const { request_id, ...same } = block.json.result;
    assert.equal(typeof request_id, 'string');
    assert.deepEqual(same, heading);
    const user = fake.data.users[2] as Json;
    const got = await api.exec('users', 'get', { user_id: user.id });
    assert.deepEqual([got.json.result.name, got.json.result.person.email], [user.name, user.email]);
  });

  test('a page created with a paragraph reads back with it; a comment joins the page comments', async () => {
    const parent = fake.data.pages.find((p) => p.title === 'Company Wiki') as Json;
    const paragraph = {
      type: 'paragraph',
      paragraph: { rich_text: [{ type: 'text', text: { content: 'Tag the build, then announce it.' } }] },
    };
    const created = await api.exec('pages', 'create', {
      parent: { page_id: parent.id },
      properties: { title: [{ text: { content: 'Release checklist' } }] },
      icon: { type: 'emoji', emoji: '🚀' },
      children: [paragraph],
    });
    assert.equal(created.status, 200, created.body);
    const sent = fake.requests.at(-1) as RecordedRequest;
    assert.equal(route(sent), 'POST /v1/pages');
    assert.deepEqual(JSON.parse(sent.body).children, [paragraph]);
    const pageId = created.json.result.id;
    const read = await api.exec('pages', 'get', { page_id: pageId });
    assert.equal(read.json.result.properties.title.title[0].plain_text, 'Release checklist');
    assert.deepEqual(read.json.result.parent, { type: 'page_id', page_id: parent.id });
    const content = await api.exec('blocks', 'list', { block_id: pageId });
    assert.deepEqual(
      content.json.result.map((b: Json) => [b.type, b.paragraph.rich_text[0].plain_text]),
      [['paragraph', 'Tag the build, then announce it.']],
    );

    const renamed = await api.exec('pages', 'update', {
      page_id: pageId,
      properties: { title: [{ text: { content: 'Release checklist v2' } }] },
    });
    assert.equal(renamed.status, 200, renamed.body);
    assert.equal(route(fake.requests.at(-1) as RecordedRequest), `PATCH /v1/pages/${pageId}`);

    const comment = await api.exec('comments', 'create', {
      parent: { page_id: pageId },
      rich_text: [{ text: { content: 'Looks complete.' } }],
    });
    assert.equal(comment.status, 200, comment.body);
    const reply = await api.exec('comments', 'create', {
      discussion_id: comment.json.result.discussion_id,
      rich_text: [{ text: { content: 'Agreed.' } }],
    });
    assert.equal(reply.status, 200, reply.body);
    const comments = await api.exec('comments', 'list', { block_id: pageId });
    assert.deepEqual(
      comments.json.result.map((c: Json) => c.rich_text[0].plain_text),
      ['Looks complete.', 'Agreed.'],
    );
    assert.equal(query(fake.requests.at(-1) as RecordedRequest).get('block_id'), pageId);
    // parent and discussion_id are two ways to say where; Notion takes one.
    const both = await api.exec('comments', 'create', {
      parent: { page_id: pageId },
      discussion_id: comment.json.result.discussion_id,
      rich_text: [{ text: { content: 'x' } }],
    });
    assertError(both, 422, 'INVALID_PARAMS');
  });

  test('download streams a hosted file (of a file or an image block) from the storage host, which gets no credentials', async () => {
    const file = [...fake.data.blocks.values()].find((b) => b.type === 'file' && b.file !== undefined);
    assert.ok(file?.file);
    const before = fake.media.requests.length;
    const res = await api.exec('blocks', 'download', { block_id: file.id });
    assert.equal(res.status, 200, res.body);
    assert.ok(res.raw.equals(fake.media.bytesOf(file.file.key)), 'the stored bytes');
    assert.equal(String(res.headers['content-type']), 'text/plain');
    assert.match(String(res.headers['content-disposition']), new RegExp(file.file.name));
    assert.equal(route(fake.requests.at(-1) as RecordedRequest), `GET /v1/blocks/${file.id}`);
    const fetched = fake.media.requests.slice(before);
    assert.equal(fetched.length, 1);
    assert.equal(fetched[0]?.headers.authorization, undefined);
    const ranged = await api.exec('blocks', 'download', { block_id: file.id }, { range: 'bytes=0-5' });
    assert.equal(ranged.status, 206, ranged.body);
    assert.equal(ranged.raw.toString('latin1'), 'notes\n');
    // An image block keeps its file under `image`: the definition's second path finds it.
    const image = [...fake.data.blocks.values()].find((b) => b.type === 'image' && b.file !== undefined);
    assert.ok(image?.file);
    const picture = await api.exec('blocks', 'download', { block_id: image.id });
    assert.equal(picture.status, 200, picture.body);
    assert.ok(picture.raw.equals(fake.media.bytesOf(image.file.key)), 'the image bytes');
    // A block without a hosted file has none to give.
    const text = [...fake.data.blocks.values()].find((b) => b.type === 'paragraph');
    assertError(await api.exec('blocks', 'download', { block_id: text?.id }), 404, 'UPSTREAM_NOT_FOUND');
  });

  test("Notion's refusals keep its code and message; a 429 with Retry-After is waited out and retried", async () => {
    const missing = await api.exec('pages', 'get', { page_id: MISSING_ID });
    assertError(missing, 404, 'UPSTREAM_NOT_FOUND');
    assert.equal(missing.json.upstream.status, 404);
    assert.deepEqual(Object.keys(missing.json.upstream.body).sort(), ['code', 'message', 'request_id']);
    assert.equal(missing.json.upstream.body.code, 'object_not_found');
    assert.match(missing.json.message, /Could not find page with ID/);
    const version = await api.exec('users', 'list', { 'Notion-Version': '2019-01-01' });
    assertError(version, 422, 'INVALID_PARAMS');
    assert.equal(version.json.upstream.body.code, 'missing_version');
    // ces refuses a malformed id itself, without asking Notion.
    const mark = fake.requests.length;
    assertError(await api.exec('users', 'get', { user_id: 'not-an-id' }), 422, 'INVALID_PARAMS');
    assert.equal(fake.requests.length, mark);

    fake.failNext({ status: 429, match: '/v1/users', headers: { 'Retry-After': '1' } });
    const started = Date.now();
    const limited = await api.exec('users', 'get', { user_id: fake.data.users[0]?.id });
    assert.equal(limited.status, 200, limited.body);
    assert.ok(Date.now() - started >= 900, 'waited for Retry-After');
    assert.deepEqual(
      fake.requests.slice(mark).map((r) => r.method),
      ['GET', 'GET'],
    );
  });

  test('no credential is ever sent in a URL, and every API request is authorised the same way', () => {
    for (const r of fake.apiRequests()) {
      assert.doesNotMatch(r.path, /ntn_|secret_|token/i, r.path);
      assert.match(String(r.headers.authorization), /^Bearer (ntn_|secret_)/);
    }
    assert.deepEqual(fake.unhandled, []);
    assert.deepEqual(fake.media.unhandled, []);
  });
});

describe('Notion OAuth2.0 through the HTTP API', () => {
  let fake: NotionFake;
  let h: Harness;
  let token: string;
  let api: ConnectorApi;
  const oauth = (values: Record<string, string>) => ({
    client_id: NOTION_FAKE_CLIENT_ID,
    client_secret: NOTION_FAKE_CLIENT_SECRET,
    ...values,
  });
  const clientBasic = `Basic ${Buffer.from(`${NOTION_FAKE_CLIENT_ID}:${NOTION_FAKE_CLIENT_SECRET}`).toString('base64')}`;

  before(async () => {
    fake = await startNotionFake();
    ({ h, token } = await start(fake));
  });
  after(() => closeAll(h, fake));

  test('create with only a refresh token: ces renews it at /v1/oauth/token (Basic, JSON) and checks with the new token', async () => {
    const grant = fake.oauth.grant();
    const res = await createNotion(h, token, oauth({ refresh_token: grant.refresh_token }));
    assert.equal(res.status, 200, res.body);
    api = connectorApi(h, token, res.json.id);
    assert.equal(res.json.credential_option, 'OAuth2.0');
    assert.equal(res.json.credentials_status, 'valid');
    assert.deepEqual(fake.requests.map(route), [`POST ${NOTION_TOKEN_PATH}`, 'GET /v1/users/me']);
    const [tokenReq, check] = fake.requests as [RecordedRequest, RecordedRequest];
    assert.equal(tokenReq.path, NOTION_TOKEN_PATH, 'nothing in the URL');
    assert.equal(tokenReq.headers.authorization, clientBasic);
    assert.match(String(tokenReq.headers['content-type']), /^application\/json/);
    assert.deepEqual(JSON.parse(tokenReq.body), {
      grant_type: 'refresh_token',
      refresh_token: grant.refresh_token,
    });
    assert.equal(bearer(check), fake.oauth.issued.at(-2));
  });

  test('an access token Notion expired (401) is renewed once with the rotated refresh token, and the call retried', async () => {
    const rotated = fake.oauth.issued.at(-1);
    const stale = fake.oauth.issued.at(-2);
    fake.oauth.expireAccessTokens();
    const before = fake.requests.length;
    const res = await api.exec('users', 'list', { page_size: 3 });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.result.length, 3);
    const sent = fake.requests.slice(before);
    assert.deepEqual(sent.map(route), ['GET /v1/users', `POST ${NOTION_TOKEN_PATH}`, 'GET /v1/users']);
    assert.equal(bearer(sent[0] as RecordedRequest), stale);
    assert.equal(JSON.parse((sent[1] as RecordedRequest).body).refresh_token, rotated);
    assert.equal(bearer(sent[2] as RecordedRequest), fake.oauth.issued.at(-2));
  });

  test('a revoked grant marks the connector needs_reauth, and Notion is not called again', async () => {
    fake.oauth.revokeRefreshTokens();
    fake.oauth.expireAccessTokens();
    const refused = await api.exec('users', 'list');
    assertError(refused, 424, 'CONNECTOR_REAUTH_REQUIRED');
    assert.match(refused.json.message, /invalid_grant/);
    const quiet = fake.requests.length;
    assertError(await api.exec('users', 'list'), 424, 'CONNECTOR_REAUTH_REQUIRED');
    assert.equal(fake.requests.length, quiet);
    for (const secret of [...fake.oauth.issued, NOTION_FAKE_CLIENT_SECRET])
      assert.ok(!h.logs().includes(secret), 'no token or client secret in the logs');
  });
});

describe('Notion in the Context Store', () => {
  let fake: NotionFake;
  let h: Harness;
  let api: ConnectorApi;
  const search = (entity: string, filter: unknown) => api.search(entity, { query: { filter }, limit: 1000 });

  before(async () => {
    fake = await startNotionFake();
    const body = {
      definition_id: NOTION_ID,
      credentials: { token: NOTION_FAKE_TOKEN },
      replication_config: { page_ids: [fake.data.handbookId.replace(/-/g, '')] },
    };
    const env = { CES_EGRESS_ALLOW: new URL(fake.media.origin).host, CES_SYNC_POLL_MS: '20' };
    ({ h, api } = await startSyncing('notion', fake.url, body, env));
  });
  after(() => closeAll(h, fake));

  test('pages, data sources and users are indexed whole and searchable by title and email', async () => {
    await api.waitReady('pages', 56);
    await api.waitReady('data_sources', 8);
    await api.waitReady('users', 34);
    const searches = fake.requests
      .filter((r) => route(r) === 'POST /v1/search')
      .map((r) => JSON.parse(r.body));
    assert.ok(
      searches.some(
        (b) =>
          b.filter.value === 'page' && b.page_size === 100 && b.sort.direction === 'descending' && !b.query,
      ),
    );
    const pages = await search('pages', {
      any: { 'properties.title.title': { eq: { plain_text: 'Engineering Handbook' } } },
    });
    assert.equal(pages.status, 200, pages.body);
    assert.deepEqual(
      pages.json.result.map((p: Json) => p.id),
      [fake.data.handbookId],
    );
    const row = fake.data.pages.find((p) => p.row !== undefined) as Json;
    const rows = await search('pages', {
      any: { 'properties.Name.title': { eq: { plain_text: row.title } } },
    });
    assert.ok(rows.json.result.some((p: Json) => p.id === row.id));
    const person = fake.data.users[4] as Json;
    const users = await search('users', { eq: { 'person.email': person.email } });
    assert.deepEqual(
      users.json.result.map((u: Json) => u.name),
      [person.name],
    );
    const sources = await search('data_sources', { any: { title: { eq: { plain_text: 'Releases' } } } });
    assert.equal(sources.json.result.length, 1);
  });

  test('blocks and comments of the configured page are indexed and searchable by their text', async () => {
    const handbook = fake.data.handbookId;
    await api.waitReady('blocks', 130);
    await api.waitReady('comments', 24);
    const blockLists = fake.requests.filter(
      (r) => route(r) === `GET /v1/blocks/${handbook.replace(/-/g, '')}/children`,
    );
    assert.ok(blockLists.length >= 2, 'the partition was read page by page');
    assert.equal(query(blockLists[0] as RecordedRequest).get('page_size'), '100');
    const item = [...fake.data.blocks.values()].find(
      (b) => b.type === 'paragraph' && JSON.stringify(b.content).includes('item 2:'),
    );
    const blocks = await search('blocks', {
      any: { 'paragraph.rich_text': { like: { plain_text: '%item 2:%' } } },
    });
    assert.equal(blocks.status, 200, blocks.body);
    assert.deepEqual(
      blocks.json.result.map((b: Json) => b.id),
      [item?.id],
    );
    const files = await search('blocks', { eq: { type: 'file' } });
    const hosted = [...fake.data.blocks.values()].filter((b) => b.type === 'file' && b.parentId === handbook);
    assert.deepEqual(files.json.result.map((b: Json) => b.id).sort(), hosted.map((b) => b.id).sort());
    const comments = await search('comments', {
      any: { rich_text: { like: { plain_text: 'handbook remark 7' } } },
    });
    assert.equal(comments.json.result.length, 1);
    assert.equal(comments.json.result[0].parent.page_id, handbook);
  });
});
