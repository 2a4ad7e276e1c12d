// Jira through the HTTP API against the Jira fake: create (the credential check is GET /myself with Basic
// email:api_token), issues listed (a JQL composed from updated_since) and searched across pages (nextPageToken
// in the POST body), offset-paged comments and bare-array users, writes read back (with entity properties),
// field errors quoted in the message, an attachment streamed from the media host without credentials, rate
// limits (Retry-After, else X-RateLimit-Reset), the site name's checks, and the Context Store reaching Ready,
// searchable, and refreshed incrementally by `updated >= "<newest stored, a day back>"`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STATUS_BY_CODE } from '../../../src/http/errors.ts';
import {
  type ConnectorApi,
  closeAll,
  connectorApi,
  createConnector,
  startSyncing,
  startWithFake,
} from '../../helpers/connector-api.ts';
import { type Harness, startHarness } from '../../helpers/harness.ts';
import { waitFor } from '../../helpers/wait.ts';
import { assertError } from '../../http/assertions.ts';
import { JIRA_FAKE_API_TOKEN, JIRA_FAKE_EMAIL, type JiraFake, startJiraFake } from './fake/index.ts';

const JIRA_ID = '68e63de2-bb83-4c7e-93fa-a8a9051e3993';
const BASIC = `Basic ${Buffer.from(`${JIRA_FAKE_EMAIL}:${JIRA_FAKE_API_TOKEN}`).toString('base64')}`;
const CREDENTIALS = { email: JIRA_FAKE_EMAIL, api_token: JIRA_FAKE_API_TOKEN, subdomain: 'ces-fake' };

const doc = (text: string) => ({
  type: 'doc',
  version: 1,
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

type Params = Record<string, unknown>;

/** POST a Jira connector with these credentials (and other members of the body). */
const createJira = (h: Harness, token: string, credentials: Params, extra: Params = {}) =>
  createConnector(h, token, { definition_id: JIRA_ID, name: 'jira', credentials, ...extra });

describe('Jira through the HTTP API', () => {
  let h: Harness;
  let fake: JiraFake;
  let token: string;
  let api: ConnectorApi;
  const create = (credentials: Params) => createJira(h, token, credentials);
  /** The records of every page of a collection; later pages pass the end_cursor under `cursorName`. */
  const walk = async (entity: string, action: string, params: Params, cursorName = 'cursor') => {
    const bodies = await api.pages(entity, action, params, cursorName);
    return { pages: bodies.map((b) => b.result as Array<Record<string, unknown>>), last: bodies.at(-1) };
  };
  const apiRequests = (prefix: string) =>
    fake.requests.filter((r) => r.path.startsWith(`/rest/api/3${prefix}`));

  before(async () => {
    fake = await startJiraFake();
    ({ h, token } = await startWithFake('jira', fake.url, {
      // Attachment content lives on the media host, a loopback address here: allowed by host and port only.
      CES_EGRESS_ALLOW: new URL(fake.media.origin).host,
      CES_SYNC_ENABLED: 'false',
    }));
  });
  after(() => closeAll(h, fake));

  test('create checks the credentials with GET /myself as Basic email:api_token and never returns them', async () => {
    const res = await create(CREDENTIALS);
    assert.equal(res.status, 200, res.body);
    api = connectorApi(h, token, res.json.id);
    assert.equal(res.json.connector_type, 'jira');
    assert.equal(res.json.credential_option, 'API Token');
    assert.ok(!res.body.includes(JIRA_FAKE_API_TOKEN));
    assert.deepEqual(
      fake.requests.map((r) => [r.method, r.path, r.headers.authorization]),
      [['GET', '/rest/api/3/myself', BASIC]],
    );
    // The hosted catalog's names for the two fields are accepted too.
    const hosted = await create({
      username: JIRA_FAKE_EMAIL,
      password: JIRA_FAKE_API_TOKEN,
      subdomain: 'ces-fake',
    });
    assert.equal(hosted.status, 200, hosted.body);
    assert.equal(fake.requests.at(-1)?.headers.authorization, BASIC);
  });

  test('a wrong API token is refused at create with INVALID_CREDENTIALS after Jira answers 401', async () => {
    const before = fake.requests.length;
    const res = await create({ ...CREDENTIALS, api_token: 'ATATT-not-the-token' });
    assertError(res, STATUS_BY_CODE.INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
    assert.ok(!res.body.includes('ATATT-not-the-token'));
    const sent = fake.requests.slice(before);
    assert.deepEqual(
      sent.map((r) => r.path),
      ['/rest/api/3/myself'],
    );
  });

  test('issues.list posts a JQL bounded by updated_since (every issue by default) and pages by nextPageToken', async () => {
    const mark = fake.requests.length;
    const { pages } = await walk('issues', 'list', { maxResults: 25 }, 'nextPageToken');
    assert.deepEqual(
      pages.map((p) => p.length),
      [25, 25, 14],
    );
    const issues = pages.flat() as Array<{ key: string; fields: Record<string, unknown> }>;
    assert.equal(new Set(issues.map((i) => i.key)).size, fake.data.issues.length);
    // Least recently updated first, with navigable fields (the enhanced search alone would answer ids only).
    const updated = issues.map((i) => Date.parse(String(i.fields.updated)));
    assert.deepEqual(
      updated,
      [...updated].sort((a, b) => a - b),
    );
    assert.equal(typeof issues[0]?.fields.summary, 'string');
    assert.ok(!('comment' in (issues[0]?.fields ?? {})), 'comment is not a navigable field');
    const sent = fake.requests.slice(mark);
    assert.deepEqual([...new Set(sent.map((r) => `${r.method} ${r.path}`))], ['POST /rest/api/3/search/jql']);
    const bodies = sent.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    assert.deepEqual(bodies[0], {
      jql: 'updated >= "1970-01-01 00:00" ORDER BY updated ASC',
      fields: ['*navigable'],
      maxResults: 25,
    });
    for (const body of bodies.slice(1)) {
      const { nextPageToken, ...rest } = body;
      assert.deepEqual(rest, bodies[0]);
      assert.equal(typeof nextPageToken, 'string');
    }
    // Credentials travel only in the Authorization header, never in a URL or body.
    for (const r of sent) {
      assert.equal(r.headers.authorization, BASIC);
      assert.ok(!`${r.path}${r.body}`.includes(JIRA_FAKE_API_TOKEN));
    }

    // A bound: only the issues updated since then.
    const mark2 = fake.requests.length;
    const since = await walk('issues', 'list', { updated_since: '2024-01-20 00:00', maxResults: 100 });
    assert.equal(
      since.pages.flat().length,
      fake.data.issues.filter((i) => i.updated >= Date.UTC(2024, 0, 20)).length,
    );
    assert.equal(
      JSON.parse(fake.requests[mark2]?.body ?? '{}').jql,
      'updated >= "2024-01-20 00:00" ORDER BY updated ASC',
    );
    // A value that is not a JQL date never reaches Jira (it could not rewrite the query either).
    const mark3 = fake.requests.length;
    const injected = await api.exec('issues', 'list', { updated_since: '2024-01-20" OR project = OPS' });
    assertError(injected, 422, 'INVALID_PARAMS');
    assert.equal(fake.requests.length, mark3);
  });

  test('issues.api_search sends the JQL in the query and adds nextPageToken for the next pages', async () => {
    const mark = fake.requests.length;
    const jql = 'project = OPS AND updated >= "2024-01-20 00:00" ORDER BY updated ASC';
    const { pages } = await walk('issues', 'api_search', {
      jql,
      maxResults: 4,
      fields: ['summary', 'updated'],
    });
    const expected = fake.data.issues.filter(
      (i) => i.key.startsWith('OPS-') && i.updated >= Date.UTC(2024, 0, 20),
    ).length;
    assert.ok(pages.length >= 2);
    assert.equal(pages.flat().length, expected);
    const sent = fake.requests.slice(mark).map((r) => new URL(r.path, 'http://x'));
    assert.ok(sent.every((u) => u.pathname === '/rest/api/3/search/jql'));
    const first = Object.fromEntries(sent[0]?.searchParams ?? []);
    assert.deepEqual(first, { jql, fields: 'summary,updated', maxResults: '4' });
    for (const url of sent.slice(1)) {
      const { nextPageToken, ...rest } = Object.fromEntries(url.searchParams);
      assert.deepEqual(rest, first);
      assert.equal(typeof nextPageToken, 'string');
    }
    const strict = await walk('issues', 'api_search', { jql, maxResults: 50, failFast: true });
    assert.equal(strict.pages.flat().length, expected);
    assert.equal(new URL(fake.requests.at(-1)?.path ?? '', 'http://x').searchParams.get('failFast'), 'true');
    // A JQL Jira refuses comes back as INVALID_PARAMS with Jira's own message.
    const bad = await api.exec('issues', 'api_search', { jql: 'frobnicate = 3' });
    assertError(bad, 422, 'INVALID_PARAMS');
    assert.deepEqual(bad.json.upstream.body.errorMessages, [
      "Field 'frobnicate' does not exist or you do not have permission to view it.",
    ]);
    assert.match(bad.json.message, /: Field 'frobnicate' does not exist or you do not have permission/);
  });

  test('a 400 with only field errors quotes them as field: text in the message', async () => {
    const res = await api.exec('issues', 'create', {
      fields: { project: { key: 'ENG' }, issuetype: { name: 'Task' } },
    });
    assertError(res, 422, 'INVALID_PARAMS');
    assert.deepEqual(res.json.upstream.body, {
      errorMessages: [],
      errors: { summary: 'You must specify a summary of the issue.' },
    });
    assert.match(res.json.message, /\(HTTP 400\): summary: You must specify a summary of the issue\./);
  });

  test('issues.get answers the issue; an unknown key is UPSTREAM_NOT_FOUND with Jira’s message', async () => {
    const res = await api.exec('issues', 'get', { issueIdOrKey: 'ENG-1', fields: ['summary', 'subtasks'] });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.result.key, 'ENG-1');
    assert.equal(res.json.result.fields.subtasks.length, 2);
    const missing = await api.exec('issues', 'get', { issueIdOrKey: 'NOPE-9' });
    assertError(missing, 404, 'UPSTREAM_NOT_FOUND');
    assert.match(missing.json.message, /Issue does not exist/);
  });

  test('an issue and a comment created through ces read back as written', async () => {
    const created = await api.exec('issues', 'create', {
      fields: {
        project: { key: 'OPS' },
        issuetype: { name: 'Bug' },
        summary: 'Printer on fire',
        description: doc('Smoke from tray 2.'),
      },
      properties: [{ key: 'support', value: { tier: 2 } }],
    });
    assert.equal(created.status, 200, created.body);
    const key = created.json.result.key as string;
    assert.match(key, /^OPS-\d+$/);
    // Entity properties (arrays of objects) travel as Jira's `properties` list, as given.
    assert.deepEqual(JSON.parse(fake.requests.at(-1)?.body ?? '').properties, [
      { key: 'support', value: { tier: 2 } },
    ]);
    const edited = await api.exec('issues', 'update', {
      issueIdOrKey: key,
      fields: { summary: 'Printer still on fire' },
      properties: [{ key: 'support', value: { tier: 1 } }],
      returnIssue: true,
    });
    assert.equal(edited.status, 200, edited.body);
    assert.equal(edited.json.result.fields.summary, 'Printer still on fire');
    const put = fake.requests.at(-1);
    assert.equal(put?.method, 'PUT');
    assert.equal(put?.path, `/rest/api/3/issue/${key}?returnIssue=true`);
    assert.deepEqual(JSON.parse(put?.body ?? ''), {
      fields: { summary: 'Printer still on fire' },
      properties: [{ key: 'support', value: { tier: 1 } }],
    });

    const comment = await api.exec('issue_comments', 'create', {
      issueIdOrKey: key,
      body: doc('On it.'),
      properties: [{ key: 'sentiment', value: 'calm' }],
    });
    assert.equal(comment.status, 200, comment.body);
    assert.deepEqual(JSON.parse(fake.requests.at(-1)?.body ?? ''), {
      body: doc('On it.'),
      properties: [{ key: 'sentiment', value: 'calm' }],
    });
    const worklog = await api.exec('issue_worklogs', 'create', {
      issueIdOrKey: key,
      timeSpent: '1h',
      properties: [{ key: 'billing', value: { billable: true } }],
    });
    assert.equal(worklog.status, 200, worklog.body);
    assert.deepEqual(JSON.parse(fake.requests.at(-1)?.body ?? '').properties, [
      { key: 'billing', value: { billable: true } },
    ]);
    // A property that is not an object is refused before Jira is asked.
    const mark = fake.requests.length;
    const notObject = await api.exec('issue_comments', 'create', {
      issueIdOrKey: key,
      body: doc('x'),
      properties: ['sentiment=calm'],
    });
    assertError(notObject, 422, 'INVALID_PARAMS');
    assert.equal(fake.requests.length, mark);
    const got = await api.exec('issue_comments', 'get', {
      issueIdOrKey: key,
      commentId: comment.json.result.id,
      expand: 'renderedBody',
    });
    assert.equal(got.status, 200, got.body);
    assert.equal(got.json.result.renderedBody, '<p>On it.</p>');
    const read = await api.exec('issues', 'get', {
      issueIdOrKey: key,
      fields: ['summary', 'issuetype', 'comment'],
    });
    assert.equal(read.json.result.fields.issuetype.name, 'Bug');
    assert.equal(read.json.result.fields.comment.total, 1);

    // Jira answers the delete with 204 and no body: ces answers success without a record.
    const deleted = await api.exec('issues', 'delete', { issueIdOrKey: key });
    assert.equal(deleted.status, 200, deleted.body);
    assert.equal(deleted.json.result, null);
    assertError(await api.exec('issues', 'get', { issueIdOrKey: key }), 404, 'UPSTREAM_NOT_FOUND');
  });

  test('comments page by startAt/maxResults up to total; users (bare arrays) end on a short page', async () => {
    const mark = fake.requests.length;
    const { pages, last } = await walk('issue_comments', 'list', { issueIdOrKey: 'ENG-1', maxResults: 5 });
    assert.deepEqual(
      pages.map((p) => p.length),
      [5, 5, 2],
    );
    assert.equal(last.connector_metadata.total, 12);
    assert.deepEqual(
      fake.requests.slice(mark).map((r) => new URL(r.path, 'http://x').searchParams.get('startAt')),
      [null, '5', '10'],
    );
    const users = await walk('users', 'list', { maxResults: 20 });
    assert.deepEqual(
      users.pages.map((p) => p.length),
      [20, fake.data.users.length - 20],
    );
  });

  test('an attachment streams from the media host the 303 points to, without the credentials', async () => {
    const a = fake.data.attachments[0];
    assert.ok(a);
    const meta = await api.exec('issue_attachments', 'get', { id: a.id });
    assert.equal(meta.json.result.filename, a.filename);
    const res = await api.exec('issue_attachments', 'download', { id: a.id });
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(res.raw, a.bytes);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    assert.equal(fake.requests.at(-1)?.path, `/rest/api/3/attachment/content/${a.id}`);
    assert.equal(fake.requests.at(-1)?.headers.authorization, BASIC);
    assert.ok(fake.media.requests.length > 0);
    for (const r of fake.media.requests) assert.equal(r.headers.authorization, undefined);
  });

  test('a 429 with a short Retry-After is waited out; a long one is passed to the client', async () => {
    fake.failNext({ status: 429, match: '/rest/api/3/project/search', headers: { 'Retry-After': '1' } });
    const mark = apiRequests('/project/search').length;
    const ok = await api.exec('projects', 'list', {});
    assert.equal(ok.status, 200, ok.body);
    assert.equal(apiRequests('/project/search').length - mark, 2);
    fake.failNext({
      status: 429,
      match: '/rest/api/3/project/search',
      headers: { 'Retry-After': '120', 'X-RateLimit-Reset': '2030-01-01T00:00Z' },
    });
    const limited = await api.exec('projects', 'list', {});
    assertError(limited, 429, 'UPSTREAM_RATE_LIMITED');
    assert.equal(limited.headers['retry-after'], '120');
    assert.deepEqual(limited.json.upstream.body.errorMessages, ['Rate limit exceeded.']);
    // Without Retry-After, X-RateLimit-Reset (an ISO 8601 instant, to the minute) says when.
    const reset = new Date(Date.now() + 5 * 60_000);
    fake.failNext({
      status: 429,
      match: '/rest/api/3/project/search',
      headers: { 'X-RateLimit-Reset': `${reset.toISOString().slice(0, 16)}Z` },
    });
    const mark2 = apiRequests('/project/search').length;
    const byReset = await api.exec('projects', 'list', {});
    assertError(byReset, 429, 'UPSTREAM_RATE_LIMITED');
    const wait = Number(byReset.headers['retry-after']);
    assert.ok(wait > 240 && wait <= 300, `retry-after ${wait}`);
    assert.match(byReset.json.message, new RegExp(`Retry after ${wait} s`));
    assert.equal(apiRequests('/project/search').length - mark2, 1, 'a wait that long is the client’s');
  });
});

describe('Jira site name checks (no upstream override)', () => {
  let h: Harness;
  let token: string;
  before(async () => {
    h = await startHarness({ CES_SYNC_ENABLED: 'false' });
    token = await h.token();
  });
  after(() => h.close());

  const create = (credentials: Params, extra: Params = {}) => createJira(h, token, credentials, extra);

  test('the site is required and must be one DNS label, so no value moves requests off atlassian.net', async () => {
    const { subdomain: _, ...withoutSite } = CREDENTIALS;
    const missing = await create(withoutSite);
    assertError(missing, STATUS_BY_CODE.VALIDATION_ERROR, 'VALIDATION_ERROR');
    assert.match(missing.json.message, /credentials\.subdomain or replication_config\.subdomain/);
    for (const bad of ['evil.com/x', 'acme.evil.com', 'a@b']) {
      const res = await create({ ...CREDENTIALS, subdomain: bad });
      assertError(res, STATUS_BY_CODE.VALIDATION_ERROR, 'VALIDATION_ERROR');
      assert.ok(!res.body.includes(bad), 'the value is not echoed');
      const viaConfig = await create(withoutSite, { replication_config: { subdomain: bad } });
      assert.equal(viaConfig.status, 422, viaConfig.body);
    }
  });
});

describe('Jira in the Context Store', () => {
  let h: Harness;
  let fake: JiraFake;
  let api: ConnectorApi;
  const search = (entity: string, filter: unknown, extra: Params = {}) =>
    api.search(entity, { query: { filter }, limit: 1000, ...extra });
  /** The bodies of the issue syncs' searches (the comment and worklog wildcards list issues without expand). */
  const issueSyncs = () =>
    fake.requests
      .filter((r) => r.method === 'POST' && r.path === '/rest/api/3/search/jql')
      .map((r) => JSON.parse(r.body) as Record<string, unknown>)
      .filter((b) => b.expand === 'renderedFields');

  before(async () => {
    fake = await startJiraFake({ issues: 24, users: 12, customFields: 10 });
    // Comments and worklogs of every issue ("*", expanded through issues.list).
    ({ h, api } = await startSyncing('jira', fake.url, {
      definition_id: JIRA_ID,
      name: 'jira',
      credentials: CREDENTIALS,
      replication_config: { issues: ['*'] },
    }));
  });
  after(() => closeAll(h, fake));

  test('every indexed entity reaches Ready with the provider’s counts', async () => {
    const counts: Record<string, number> = {
      issues: fake.data.issues.length,
      issue_comments: fake.data.comments.length,
      issue_worklogs: fake.data.worklogs.length,
      issue_fields: fake.data.fields.length,
      projects: fake.data.projects.length,
      users: fake.data.users.length,
    };
    for (const [entity, count] of Object.entries(counts)) {
      const state = await api.waitReady(entity);
      assert.equal(state.entity_count, count, entity);
      assert.equal(state.last_error, null);
    }
    // The backfill asked for every issue (the default bound) with rendered fields, 100 per page.
    assert.deepEqual(issueSyncs()[0], {
      jql: 'updated >= "1970-01-01 00:00" ORDER BY updated ASC',
      fields: ['*navigable'],
      expand: 'renderedFields',
      maxResults: 100,
    });
    assert.deepEqual(fake.unhandled, []);
  });

  test('search finds issues, comments, worklogs, users and projects by their fields', async () => {
    const target = fake.data.issues[4];
    assert.ok(target);
    const bySummary = await search('issues', { eq: { 'fields.summary': target.summary } });
    assert.equal(bySummary.status, 200, bySummary.body);
    assert.deepEqual(
      bySummary.json.result.map((r: { key: string }) => r.key),
      [target.key],
    );
    const words = await search('issues', {
      fuzzy: { 'renderedFields.description': 'seeded issue number 5' },
    });
    assert.ok(
      words.json.result.some((r: { key: string }) => r.key === target.key),
      words.body,
    );
    const ops = await search('issues', { eq: { 'fields.project.key': 'OPS' } });
    assert.equal(ops.json.result.length, fake.data.issues.filter((i) => i.key.startsWith('OPS-')).length);

    const comment = await search('issue_comments', { like: { renderedBody: '%on ENG-1.</p>' } });
    const onEng1 = fake.data.comments.filter((c) => c.issueId === fake.data.issues[0]?.id).length;
    assert.equal(comment.json.result.length, onEng1, comment.body);

    const worklogs = await search('issue_worklogs', { eq: { issueId: fake.data.issues[0]?.id } });
    assert.equal(worklogs.json.result.length, 7);

    const me = await search('users', { eq: { emailAddress: JIRA_FAKE_EMAIL } });
    assert.deepEqual(
      me.json.result.map((u: { accountId: string }) => u.accountId),
      [fake.me.accountId],
    );
    const project = await search('projects', { fuzzy: { description: 'support requests' } });
    assert.deepEqual(
      project.json.result.map((p: { key: string }) => p.key),
      ['OPS'],
    );
    const custom = await search('issue_fields', { eq: { custom: true } });
    assert.equal(custom.json.result.length, 10);
  });

  test('a refresh asks for issues updated since the newest stored, a day back, and indexes an edit', async () => {
    const jqlDate = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
    const newestSeeded = Math.max(...fake.data.issues.map((i) => i.updated));
    const target = fake.data.issues[7];
    assert.ok(target);
    const edited = await api.exec('issues', 'update', {
      issueIdOrKey: target.key,
      fields: { summary: 'Edited after Ready' },
    });
    assert.equal(edited.status, 200, edited.body);
    const found = await waitFor(
      'the edited issue indexed',
      async () => {
        const res = await search('issues', { eq: { 'fields.summary': 'Edited after Ready' } });
        return res.json.result?.length === 1 ? res : undefined;
      },
      30_000,
    );
    assert.equal(found.json.result[0].key, target.key);
    const state = await api.state('issues');
    assert.equal(state?.entity_count, fake.data.issues.length, 'upserted by key, not added');
    // Refreshes carried the bound in the JQL: the newest fields.updated stored, less the day of lookback,
    // to the minute; after the edit was seen, the bound moved up to it.
    const jqls = issueSyncs().map((b) => b.jql);
    assert.ok(
      jqls.includes(`updated >= "${jqlDate(newestSeeded - 86_400_000)}" ORDER BY updated ASC`),
      jqls.join('\n'),
    );
    await waitFor(
      'a refresh bounded by the edit',
      async () => {
        const editedAt = fake.data.issues[7]?.updated ?? 0;
        const bound = `updated >= "${jqlDate(editedAt - 86_400_000)}" ORDER BY updated ASC`;
        return issueSyncs().some((b) => b.jql === bound) ? true : undefined;
      },
      30_000,
    );
    assert.deepEqual(fake.unhandled, []);
  });
});
