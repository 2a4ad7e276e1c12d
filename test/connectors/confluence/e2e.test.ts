// Confluence end to end through the HTTP API, against the Confluence fake (test/connectors/confluence/fake): the
// hosted catalog's ids and names, the credential check (GET /wiki/rest/api/user/current with Basic
// email:api_token), v2 lists paged by the cursor of `_links.next`, v1 lists paged by its `start` (past pages
// shorter than asked), gets, a page written and read back, an attachment over 10 MB streamed through the site's
// download link (relative to `_links.base`) to the media host without credentials, Confluence's refusals and
// 429, and the Context Store: Ready, searched, and refreshed (pages newest change first until the stored ones,
// the audit log from its newest record).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import {
  type ConnectorApi,
  closeAll,
  connectorApi,
  createConnector,
  startSyncing,
  startWithFake,
} from '../../helpers/connector-api.ts';
import type { Harness } from '../../helpers/harness.ts';
import { hostedConnector } from '../../helpers/hosted-catalog.ts';
import { waitFor } from '../../helpers/wait.ts';
import { assertError } from '../../http/assertions.ts';
import { MISSING_ID } from './cases.ts';
import { fileBytes } from './fake/dataset.ts';
import {
  CONFLUENCE_FAKE_API_TOKEN,
  CONFLUENCE_FAKE_EMAIL,
  CONFLUENCE_FAKE_MEMBER_EMAIL,
  CONFLUENCE_FAKE_MEMBER_TOKEN,
  type ConfluenceFake,
  type RecordedRequest,
  startConfluenceFake,
} from './fake/index.ts';

const CONFLUENCE_ID = 'cf40a7f8-71f8-45ce-a7fa-fca053e4028c';
const CREDENTIALS = {
  email: CONFLUENCE_FAKE_EMAIL,
  api_token: CONFLUENCE_FAKE_API_TOKEN,
  subdomain: 'ces-fake',
};
const basic = (email: string, token: string) =>
  `Basic ${Buffer.from(`${email}:${token}`).toString('base64')}`;
/** More than 10 MB, so the download is streamed in many chunks. */
const LARGE = 10 * 1024 * 1024 + 123_457;

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON records
type Json = Record<string, any>;
type Params = Record<string, unknown>;

const route = (r: RecordedRequest) => `${r.method} ${r.path.split('?')[0]}`;
const query = (r: RecordedRequest) => new URL(r.path, 'http://x').searchParams;

const createConfluence = (h: Harness, token: string, credentials: Params) =>
  createConnector(h, token, { definition_id: CONFLUENCE_ID, name: 'wiki', credentials });

test("the definition is the hosted catalog's Confluence: its id, every entity-action and param name, its indexed entities", () => {
  const hosted = hostedConnector('confluence');
  const def = DefinitionRegistry.default().bySlug('confluence');
  assert.equal(def?.id, hosted.definition_id);
  for (const [entity, actions] of Object.entries(hosted.entities)) {
    const declared = def?.entities.find((e) => e.name === entity);
    assert.ok(declared, `entity ${entity}`);
    for (const [action, { params }] of Object.entries(actions)) {
      const spec = declared.actions[action as keyof typeof declared.actions];
      assert.ok(spec, `${entity}.${action}`);
      const accepted = new Set(['cursor']);
      for (const [name, p] of Object.entries(spec.params ?? {}))
        for (const n of [name, ...(p.aliases ?? [])]) accepted.add(n);
      for (const p of params) assert.ok(accepted.has(p), `${entity}.${action} accepts ${p}`);
    }
  }
  assert.deepEqual(
    def?.entities
      .filter((e) => e.context_store)
      .map((e) => e.name)
      .sort(),
    [...hosted.context_store_entities].sort(),
  );
});

describe('Confluence through the HTTP API', () => {
  let fake: ConfluenceFake;
  let h: Harness;
  let token: string;
  let api: ConnectorApi;
  const all = async (entity: string, params: Params) => {
    const pages = await api.pages(entity, 'list', params);
    return { records: pages.flatMap((p): Json[] => p.result), pages: pages.length };
  };

  before(async () => {
    fake = await startConfluenceFake({ v1PageCap: 10, largeAttachmentBytes: LARGE });
    ({ h, token } = await startWithFake('confluence', fake.url, {
      CES_EGRESS_ALLOW: new URL(fake.media.origin).host,
      CES_SYNC_ENABLED: 'false',
    }));
  });
  after(() => closeAll(h, fake));

  test('a wrong API token is INVALID_CREDENTIALS at create, after Confluence answered 401', async () => {
    const res = await createConfluence(h, token, { ...CREDENTIALS, api_token: 'ATATT-not-this-one' });
    assertError(res, 422, 'INVALID_CREDENTIALS');
    const check = fake.requests.at(-1) as RecordedRequest;
    assert.equal(route(check), 'GET /wiki/rest/api/user/current');
    assert.equal(check.response?.status, 401);
    assert.doesNotMatch(res.body, /ATATT-not-this-one/);
  });

  test('create checks email + API token with GET /wiki/rest/api/user/current as Basic auth', async () => {
    const before = fake.requests.length;
    // The hosted catalog's names for the two fields.
    const res = await createConfluence(h, token, {
      username: CONFLUENCE_FAKE_EMAIL,
      password: CONFLUENCE_FAKE_API_TOKEN,
      subdomain: 'ces-fake',
    });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.connector_type, 'confluence');
    assert.equal(res.json.credential_option, 'API Token');
    assert.doesNotMatch(res.body, new RegExp(CONFLUENCE_FAKE_API_TOKEN.slice(0, 20)));
    api = connectorApi(h, token, res.json.id);
    const sent = fake.requests.slice(before);
    assert.deepEqual(sent.map(route), ['GET /wiki/rest/api/user/current']);
    assert.equal(sent[0]?.headers.authorization, basic(CONFLUENCE_FAKE_EMAIL, CONFLUENCE_FAKE_API_TOKEN));
  });

  test("pages.list follows _links.next's cursor to the last page, keeping the client's params", async () => {
    const before = fake.requests.length;
    const { records, pages } = await all('pages', { limit: 25, sort: 'title', 'body-format': 'storage' });
    const expected = fake.data.content.filter(
      (c) => c.kind === 'page' && (c.status === 'current' || c.status === 'archived'),
    );
    assert.equal(records.length, expected.length);
    assert.equal(pages, Math.ceil(expected.length / 25));
    assert.equal(new Set(records.map((p) => p.id)).size, expected.length);
    const titles = records.map((p) => p.title as string);
    assert.deepEqual(
      titles,
      [...titles].sort((a, b) => a.localeCompare(b)),
    );
    assert.match(records[0]?.body.storage.value, /^<p>/);
    const sent = fake.requests.slice(before);
    assert.ok(sent.every((r) => route(r) === 'GET /wiki/api/v2/pages'));
    assert.equal(query(sent[0] as RecordedRequest).get('cursor'), null);
    for (const r of sent) {
      assert.deepEqual(
        [query(r).get('limit'), query(r).get('sort'), query(r).get('body-format')],
        ['25', 'title', 'storage'],
      );
      assert.equal(r.headers.authorization, basic(CONFLUENCE_FAKE_EMAIL, CONFLUENCE_FAKE_API_TOKEN));
    }
    // Each later page asks for the cursor the page before named in _links.next (and in its Link header).
    for (let i = 1; i < sent.length; i++) {
      const answer = JSON.parse(sent[i - 1]?.response?.body ?? '{}') as Json;
      const next = new URL(answer._links.next, 'http://x').searchParams.get('cursor');
      assert.equal(query(sent[i] as RecordedRequest).get('cursor'), next);
    }
    // Filters go as Confluence takes them: ids comma-separated.
    const space = fake.data.spaces[1];
    const inSpace = await all('pages', { 'space-id': [space?.id], status: ['current'] });
    assert.ok(inSpace.records.length > 0);
    assert.ok(inSpace.records.every((p) => p.spaceId === space?.id && p.status === 'current'));
  });

  test('gets: a page with its body, a blog post, a space with its description', async () => {
    const page = fake.data.content.find((c) => c.kind === 'page' && c.parentId !== null);
    const got = await api.exec('pages', 'get', { id: page?.id, 'body-format': 'storage' });
    assert.equal(got.status, 200, got.body);
    assert.deepEqual(
      [got.json.result.title, got.json.result.body.storage.value, got.json.result._links.base],
      [page?.title, page?.storage, `${fake.origin}/wiki`],
    );
    const post = fake.data.content.find((c) => c.kind === 'blogpost');
    const blog = await api.exec('blog_posts', 'get', { id: post?.id });
    assert.equal(blog.json.result.title, post?.title);
    const posts = await all('blog_posts', { limit: 5 });
    assert.equal(posts.records.length, fake.data.content.filter((c) => c.kind === 'blogpost').length);
    const space = fake.data.spaces[0];
    const one = await api.exec('spaces', 'get', { id: space?.id, 'description-format': 'plain' });
    assert.deepEqual(
      [one.json.result.key, one.json.result.description.plain.value],
      [space?.key, space?.description],
    );
    const spaces = await all('spaces', { limit: 3, keys: [space?.key, fake.data.spaces[2]?.key] });
    assert.deepEqual(spaces.records.map((s) => s.key).sort(), [space?.key, fake.data.spaces[2]?.key].sort());
    assert.equal(
      query(fake.requests.at(-1) as RecordedRequest).get('keys'),
      `${space?.key},${fake.data.spaces[2]?.key}`,
    );
  });

  test('a page created through ces reads back as written, under the space homepage', async () => {
    const space = fake.data.spaces[0];
    const created = await api.exec('pages', 'create', {
      spaceId: space?.id,
      title: 'Release checklist',
      body: { representation: 'storage', value: '<p>Tag the build, then announce it.</p>' },
    });
    assert.equal(created.status, 200, created.body);
    const sent = fake.requests.at(-1) as RecordedRequest;
    assert.equal(route(sent), 'POST /wiki/api/v2/pages');
    assert.deepEqual(JSON.parse(sent.body), {
      spaceId: space?.id,
      title: 'Release checklist',
      body: { representation: 'storage', value: '<p>Tag the build, then announce it.</p>' },
    });
    const read = await api.exec('pages', 'get', { id: created.json.result.id, 'body-format': 'storage' });
    assert.deepEqual(
      [read.json.result.title, read.json.result.parentId, read.json.result.body.storage.value],
      ['Release checklist', space?.homepageId, '<p>Tag the build, then announce it.</p>'],
    );
    // The same title twice in a space is Confluence's 400, with its words.
    const again = await api.exec('pages', 'create', { spaceId: space?.id, title: 'Release checklist' });
    assertError(again, 422, 'INVALID_PARAMS');
    assert.match(again.json.message, /already exists/);
  });

  test('v1 lists page by start until _links.next is gone, also past pages shorter than asked', async () => {
    const before = fake.requests.length;
    // The fake answers 10 groups a page whatever limit asks, as Confluence's "fixed system limits" may.
    const groups = await all('groups', { limit: 200 });
    assert.equal(groups.records.length, fake.data.groups.length);
    assert.equal(groups.pages, 3);
    const sent = fake.requests.slice(before);
    assert.deepEqual(
      sent.map((r) => [route(r), query(r).get('start'), query(r).get('limit')]),
      [
        ['GET /wiki/rest/api/group', null, '200'],
        ['GET /wiki/rest/api/group', '10', '200'],
        ['GET /wiki/rest/api/group', '20', '200'],
      ],
    );
    const window = fake.data.audit.slice(5, 40);
    const audit = await all('audit', {
      startDate: String(window.at(-1)?.creationDate),
      endDate: String(window[0]?.creationDate),
    });
    assert.deepEqual(
      audit.records.map((a) => a.creationDate),
      window.map((a) => a.creationDate),
    );
  });

  test('the audit log needs Confluence admin: a member is refused 403 with what to do', async () => {
    const res = await createConfluence(h, token, {
      email: CONFLUENCE_FAKE_MEMBER_EMAIL,
      api_token: CONFLUENCE_FAKE_MEMBER_TOKEN,
      subdomain: 'ces-fake',
    });
    assert.equal(res.status, 200, res.body);
    const member = connectorApi(h, token, res.json.id);
    const refused = await member.exec('audit', 'list', {});
    assertError(refused, 424, 'UPSTREAM_FORBIDDEN');
    assert.match(refused.json.message, /Only Confluence administrators/);
    assert.match(refused.json.message, /Confluence Administrator global permission/);
    assert.equal(refused.json.upstream.body.statusCode, 403);
    assert.equal((await member.exec('groups', 'list', { limit: 5 })).status, 200);
  });

  test('an attachment over 10 MB streams through its download link to the media host, which gets no credentials', async () => {
    const file = fake.data.attachments.find((a) => a.title === 'site-backup.zip');
    assert.ok(file);
    const mark = fake.requests.length;
    const media = fake.media.requests.length;
    const res = await api.exec('attachments', 'download', { id: file.id });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.raw.length, LARGE);
    assert.ok(res.raw.equals(fileBytes('site-backup.zip', LARGE)), 'the exact bytes');
    assert.equal(String(res.headers['content-type']), 'application/zip');
    assert.match(String(res.headers['content-disposition']), /site-backup\.zip/);
    // The metadata, then the downloadLink joined to _links.base (/wiki kept), with the credential.
    const sent = fake.requests.slice(mark);
    assert.deepEqual(sent.map(route), [
      `GET /wiki/api/v2/attachments/${file.id}`,
      `GET /wiki/download/attachments/${file.pageId}/site-backup.zip`,
    ]);
    assert.equal(sent[1]?.headers.authorization, basic(CONFLUENCE_FAKE_EMAIL, CONFLUENCE_FAKE_API_TOKEN));
    assert.equal(query(sent[1] as RecordedRequest).get('api'), 'v2');
    const fetched = fake.media.requests.slice(media);
    assert.equal(fetched.length, 1);
    assert.equal(fetched[0]?.headers.authorization, undefined);

    const small = fake.data.attachments[0];
    const ranged = await api.exec('attachments', 'download', { id: small?.id }, { range: 'bytes=0-9' });
    assert.equal(ranged.status, 206, ranged.body);
    assert.ok(ranged.raw.equals(small?.bytes.subarray(0, 10) as Buffer));
    const meta = await api.exec('attachments', 'get', { id: small?.id });
    assert.equal(meta.json.result.fileSize, small?.bytes.length);
    assertError(await api.exec('attachments', 'download', { id: 'att1' }), 404, 'UPSTREAM_NOT_FOUND');
  });

  test("Confluence's refusals keep its words; a 429 with Retry-After is waited out and retried", async () => {
    const missing = await api.exec('pages', 'get', { id: MISSING_ID });
    assertError(missing, 404, 'UPSTREAM_NOT_FOUND');
    assert.equal(missing.json.upstream.body.errors[0].code, 'NOT_FOUND');
    // ces refuses what Confluence would, without asking it.
    const mark = fake.requests.length;
    assertError(await api.exec('pages', 'get', { id: 'not-a-number' }), 422, 'INVALID_PARAMS');
    assertError(await api.exec('pages', 'list', { limit: 20, sort: 'size' }), 422, 'INVALID_PARAMS');
    assert.equal(fake.requests.length, mark);

    fake.failNext({ status: 429, match: '/wiki/api/v2/spaces', headers: { 'Retry-After': '1' } });
    const limited = await api.exec('spaces', 'list', { limit: 2 });
    assert.equal(limited.status, 200, limited.body);
    assert.deepEqual(
      fake.requests.slice(mark).map((r) => r.response?.status),
      [429, 200],
    );
    assert.deepEqual(fake.unhandled, []);
    assert.deepEqual(fake.media.unhandled, []);
  });
});

describe('Confluence in the Context Store', () => {
  let fake: ConfluenceFake;
  let h: Harness;
  let api: ConnectorApi;
  const search = (entity: string, filter: unknown) => api.search(entity, { query: { filter }, limit: 1000 });
  const listed = (path: string) => fake.requests.filter((r) => route(r) === `GET ${path}`);

  before(async () => {
    // More pages than one page of 250 holds, so a refresh that stops early is told from one that reads all.
    fake = await startConfluenceFake({ v1PageCap: 100, pages: 300 });
    ({ h, api } = await startSyncing('confluence', fake.url, {
      definition_id: CONFLUENCE_ID,
      name: 'wiki',
      credentials: CREDENTIALS,
    }));
  });
  after(() => closeAll(h, fake));

  test("every indexed entity reaches Ready with the site's counts", async () => {
    const pages = fake.data.content.filter(
      (c) => c.kind === 'page' && ['current', 'archived'].includes(c.status),
    );
    const counts: Record<string, number> = {
      pages: pages.length,
      blog_posts: fake.data.content.filter((c) => c.kind === 'blogpost').length,
      spaces: fake.data.spaces.length,
      groups: fake.data.groups.length,
      audit: fake.data.audit.length,
    };
    for (const [entity, count] of Object.entries(counts)) {
      const state = await api.waitReady(entity, count);
      assert.equal(state.last_error, null, entity);
    }
    // The backfill read pages newest change first with their bodies, 250 a page, then the next by its cursor.
    const [first, second] = listed('/wiki/api/v2/pages') as [RecordedRequest, RecordedRequest];
    assert.notEqual(query(second).get('cursor'), null);
    assert.deepEqual(
      [query(first).get('sort'), query(first).get('limit'), query(first).get('body-format')],
      ['-modified-date', '250', 'storage'],
    );
    // The audit log in pages of 100 (asked for 1000), with no bound on the first sync.
    const audit = listed('/wiki/rest/api/audit');
    assert.deepEqual(
      audit.slice(0, 3).map((r) => [query(r).get('start'), query(r).get('startDate')]),
      [
        [null, null],
        ['100', null],
        ['200', null],
      ],
    );
  });

  test('search finds pages by title and body words, spaces by key, groups by name, audit records by category', async () => {
    const page = fake.data.content.find((c) => c.kind === 'page' && c.title === 'Runbook 8');
    assert.ok(page);
    const byTitle = await search('pages', { eq: { title: 'Runbook 8' } });
    assert.equal(byTitle.status, 200, byTitle.body);
    assert.deepEqual(
      byTitle.json.result.map((p: Json) => p.id),
      [page.id],
    );
    const space = fake.data.space(page.spaceId);
    const words = await search('pages', {
      fuzzy: { 'body.storage.value': `runbook 8 written for the ${space?.name}` },
    });
    assert.ok(
      words.json.result.some((p: Json) => p.id === page.id),
      words.body,
    );
    const spaces = await search('spaces', { eq: { key: space?.key } });
    assert.deepEqual(
      spaces.json.result.map((s: Json) => s.id),
      [space?.id],
    );
    const groups = await search('groups', { like: { name: 'confluence-%' } });
    assert.deepEqual(groups.json.result.map((g: Json) => g.name).sort(), [
      'confluence-administrators',
      'confluence-users',
    ]);
    const apps = await search('audit', { eq: { category: 'Apps' } });
    assert.equal(apps.json.result.length, fake.data.audit.filter((a) => a.category === 'Apps').length);
  });

  test('a refresh reads pages newest first until the stored ones, and the audit log from its newest record', async () => {
    const newestAudit = Math.max(...fake.data.audit.map((a) => a.creationDate));
    const mark = fake.requests.length;
    const created = await api.exec('pages', 'create', {
      spaceId: fake.data.spaces[0]?.id,
      title: 'Written after Ready',
      body: { representation: 'storage', value: '<p>Fresh notes.</p>' },
    });
    assert.equal(created.status, 200, created.body);
    fake.data.audit.unshift({
      creationDate: newestAudit + 60_000,
      summary: 'Space permission added',
      description: 'Written after Ready.',
      category: 'Permissions',
      authorId: fake.me.accountId,
      remoteAddress: '198.51.100.7',
      object: { name: 'ENG', objectType: 'space' },
      changed: [],
    });
    const found = await waitFor(
      'the new page indexed',
      async () => {
        const res = await search('pages', { eq: { title: 'Written after Ready' } });
        return res.json.result?.length === 1 ? res : undefined;
      },
      30_000,
    );
    assert.equal(found.json.result[0].id, created.json.result.id);
    await waitFor(
      'the new audit record indexed',
      async () => {
        const res = await search('audit', { eq: { summary: 'Space permission added' } });
        return res.json.result?.length === 1 ? res : undefined;
      },
      30_000,
    );
    // Refreshes read one page of pages (the stored ones were older), never following a cursor...
    const refreshes = fake.requests.slice(mark).filter((r) => route(r) === 'GET /wiki/api/v2/pages');
    assert.ok(refreshes.length > 0);
    assert.ok(
      refreshes.every((r) => query(r).get('cursor') === null && query(r).get('sort') === '-modified-date'),
    );
    // ...and the audit log from the newest record stored.
    const bounds = fake.requests
      .slice(mark)
      .filter((r) => route(r) === 'GET /wiki/rest/api/audit')
      .map((r) => query(r).get('startDate'));
    assert.ok(bounds.includes(String(newestAudit)), bounds.join());
    const state = await api.state('audit');
    assert.equal(state?.entity_count, fake.data.audit.length);
    assert.deepEqual(fake.unhandled, []);
  });
});
