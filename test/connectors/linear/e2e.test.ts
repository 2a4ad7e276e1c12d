// Linear end to end through the HTTP API, against the Linear fake (CES_UPSTREAM_OVERRIDES={"linear": fake.url}
// points both https://api.linear.app/graphql and the token endpoint https://api.linear.app/oauth/token at it):
// the three credential options and their checks, Relay paging followed through the hosted catalog's `after`,
// reads and writes read back, Linear's error answers (HTTP 400 with errors[].extensions.code) mapped through
// errors.rules, and the Context Store filled from every indexed entity and refreshed by updatedAt.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  assertNoSecretInUrls,
  type ConnectorApi,
  closeAll,
  connectorApi,
  createConnector,
  startSyncing,
  startWithFake,
} from '../../helpers/connector-api.ts';
import type { Harness } from '../../helpers/harness.ts';
import { assertError } from '../../http/assertions.ts';
import {
  LINEAR_FAKE_API_KEY,
  LINEAR_FAKE_CLIENT_ID,
  LINEAR_FAKE_CLIENT_SECRET,
  LINEAR_TOKEN_PATH,
  type LinearFake,
  type RecordedRequest,
  startLinearFake,
} from './fake/index.ts';

const LINEAR_ID = '1c5d8316-ed42-4473-8fbc-2626f03f070c';

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON bodies
type Json = Record<string, any>;

const pathOf = (r: RecordedRequest) => new URL(r.path, 'http://fake.invalid').pathname;
const graphqlOf = (r: RecordedRequest) => JSON.parse(r.body) as { query: string; variables: Json };
const formOf = (r: RecordedRequest) => Object.fromEntries(new URLSearchParams(r.body));

/** What every request to the fake must look like: nothing in the URL but the path. */
function assertCleanUrls(fake: LinearFake, secrets: string[]) {
  for (const r of fake.requests) assert.ok(!r.path.includes('?'), `a query string in ${r.path}`);
  assertNoSecretInUrls(fake.requests, secrets);
}

describe('Linear through the HTTP API', () => {
  let h: Harness;
  let fake: LinearFake;
  let token: string;
  let api: ConnectorApi;

  const create = (credentials: Record<string, unknown>, name: string) =>
    createConnector(h, token, { definition_id: LINEAR_ID, name, credentials });

  before(async () => {
    fake = await startLinearFake();
    ({ h, token } = await startWithFake('linear', fake.url, { CES_SYNC_ENABLED: 'false' }));
  });
  after(async () => {
    await closeAll(h, fake);
    assert.deepEqual(
      fake.unhandled.map((r) => `${r.method} ${r.path}`),
      [],
      'requests the fake does not serve',
    );
  });

  test('an API key is checked with viewer { id }, sent as the raw Authorization header', async () => {
    const res = await create({ api_key: LINEAR_FAKE_API_KEY }, 'linear key');
    assert.equal(res.status, 200, res.body);
    api = connectorApi(h, token, res.json.id);
    assert.equal(res.json.connector_type, 'linear');
    assert.equal(res.json.credential_option, 'API Key');
    assert.equal(res.json.credentials_status, 'valid');
    assert.deepEqual(
      fake.requests.map((r) => `${r.method} ${r.path}`),
      ['POST /graphql'],
    );
    const check = fake.requests[0]!;
    assert.equal(check.headers.authorization, LINEAR_FAKE_API_KEY, 'no Bearer in front of an API key');
    assert.match(String(check.headers['content-type']), /^application\/json/);
    assert.deepEqual(graphqlOf(check), { query: 'query { viewer { id } }', variables: {} });
    assert.ok(!res.body.includes(LINEAR_FAKE_API_KEY));
  });

  test('a wrong API key is refused at create with INVALID_CREDENTIALS after Linear said AUTHENTICATION_ERROR', async () => {
    const before = fake.requests.length;
    const wrong = 'lin_api_not0the0right0key0000000000000000000000000';
    const res = await create({ api_key: wrong }, 'linear wrong key');
    assertError(res, 422, 'INVALID_CREDENTIALS');
    assert.ok(!res.body.includes(wrong));
    const sent = fake.requests.slice(before);
    assert.equal(sent.length, 1, 'an authentication failure is not retried');
    assert.equal(sent[0]!.headers.authorization, wrong);
  });

  test('issues.list pages by Relay cursor, the next page asked for under the catalog name `after`', async () => {
    const before = fake.requests.length;
    const pages = await api.pages('issues', 'list', { first: 40 }, 'after');
    const ids: string[] = pages.flatMap((p) => p.result.map((i: Json) => i.id));
    assert.equal(pages.length, 3);
    assert.equal(new Set(ids).size, fake.data.issues.length);
    // The records are Linear's issue nodes, relations included.
    const sent = fake.requests.slice(before);
    assert.ok(sent.every((r) => pathOf(r) === '/graphql' && r.method === 'POST'));
    const variables = sent.map((r) => graphqlOf(r).variables);
    assert.deepEqual(variables[0], { first: 40 });
    // Each next page: the same operation with `after` set to the last page's endCursor (Linear's cursor is
    // the last node's id in the fake).
    assert.deepEqual(variables[1], { first: 40, after: ids[39] });
    assert.deepEqual(variables[2], { first: 40, after: ids[79] });
    assert.ok(sent.every((r) => graphqlOf(r).query.startsWith('query Issues(')));
    assertCleanUrls(fake, [LINEAR_FAKE_API_KEY]);
  });

  test('issues.get by identifier answers the issue node; x-apollo-operation-name goes out as a header', async () => {
    const seeded = fake.data.issues[10]!;
    const identifier = fake.data.identifier(seeded);
    const res = await api.exec('issues', 'get', { id: identifier, 'x-apollo-operation-name': 'CesIssue' });
    assert.equal(res.status, 200, res.body);
    const issue = res.json.result;
    assert.equal(issue.id, seeded.id);
    assert.equal(issue.identifier, identifier);
    assert.equal(issue.title, seeded.title);
    assert.equal(issue.team.key, identifier.split('-')[0]);
    assert.equal(typeof issue.state.name, 'string');
    assert.deepEqual(issue.labels, { nodes: [] });
    assert.equal(fake.operationNames().at(-1), 'CesIssue');
    assert.deepEqual(graphqlOf(fake.requests.at(-1)!).variables, { id: identifier });
  });

  test('issues.create and issues.update send Linear input objects; the writes read back', async () => {
    const team = fake.data.teams[2]!;
    const created = await api.exec('issues', 'create', {
      input: { teamId: team.id, title: 'Printer on fire', description: 'Smoke from tray 2', priority: 1 },
    });
    assert.equal(created.status, 200, created.body);
    const issue = created.json.result;
    assert.match(issue.identifier, /^OPS-\d+$/);
    assert.deepEqual([issue.title, issue.priority, issue.state.type], ['Printer on fire', 1, 'unstarted']);
    const sent = graphqlOf(fake.requests.at(-1)!);
    assert.ok(sent.query.startsWith('mutation IssueCreate('));
    assert.deepEqual(sent.variables, {
      input: { teamId: team.id, title: 'Printer on fire', description: 'Smoke from tray 2', priority: 1 },
    });

    const done = fake.data.statesOf(team.id).find((s) => s.type === 'completed')!;
    const updated = await api.exec('issues', 'update', {
      id: issue.identifier,
      input: { title: 'Printer fire out', stateId: done.id },
    });
    assert.equal(updated.status, 200, updated.body);
    assert.equal(updated.json.result.title, 'Printer fire out');

    const read = await api.exec('issues', 'get', { id: issue.id });
    assert.equal(read.status, 200, read.body);
    assert.deepEqual(
      [read.json.result.title, read.json.result.state.name, typeof read.json.result.completedAt],
      ['Printer fire out', 'Done', 'string'],
    );
  });

  test('comments: list one issue’s comments by issueId, add one, and edit it', async () => {
    const issue = fake.data.issues[7]!;
    const seeded = fake.data.comments.filter((c) => c.issueId === issue.id).map((c) => c.id);
    assert.ok(seeded.length > 0);
    const listed = await api.exec('comments', 'list', { issueId: issue.id });
    assert.equal(listed.status, 200, listed.body);
    assert.deepEqual(listed.json.result.map((c: Json) => c.id).sort(), [...seeded].sort());
    assert.ok(listed.json.result.every((c: Json) => c.issue.id === issue.id));

    const created = await api.exec('comments', 'create', {
      input: { issueId: issue.id, body: 'Same here.' },
    });
    assert.equal(created.status, 200, created.body);
    const comment = created.json.result;
    assert.equal(comment.body, 'Same here.');
    assert.equal(comment.user.id, fake.data.viewer.id);

    const edited = await api.exec('comments', 'update', {
      id: comment.id,
      input: { body: 'Same here, twice.' },
    });
    assert.equal(edited.status, 200, edited.body);
    const again = await api.exec('comments', 'list', { issueId: issue.id });
    assert.equal(again.json.result.length, seeded.length + 1);
    const got = await api.exec('comments', 'get', { id: comment.id });
    assert.equal(got.json.result.body, 'Same here, twice.');
    assert.equal(typeof got.json.result.editedAt, 'string');
  });

  test('projects: create one for two teams, update it, read it back by slug id', async () => {
    const eng = fake.data.teams[0]!;
    const des = fake.data.teams[1]!;
    const created = await api.exec('projects', 'create', {
      input: { name: 'Q3 onboarding', teamIds: [eng.id, des.id], targetDate: '2025-09-30' },
    });
    assert.equal(created.status, 200, created.body);
    const project = created.json.result;
    assert.deepEqual(project.teams.nodes.map((t: Json) => t.key).sort(), ['DES', 'ENG']);
    const updated = await api.exec('projects', 'update', {
      id: project.id,
      input: { description: 'Fewer steps.' },
    });
    assert.equal(updated.status, 200, updated.body);
    const read = await api.exec('projects', 'get', { id: project.slugId });
    assert.equal(read.status, 200, read.body);
    assert.deepEqual(
      [read.json.result.id, read.json.result.name, read.json.result.description, read.json.result.targetDate],
      [project.id, 'Q3 onboarding', 'Fewer steps.', '2025-09-30'],
    );
  });

  test('Linear refusals: Entity not found is UPSTREAM_NOT_FOUND, a bad input or filter INVALID_PARAMS', async () => {
    const missing = await api.exec('issues', 'get', { id: 'ENG-9999' });
    assertError(missing, 404, 'UPSTREAM_NOT_FOUND');
    assert.equal(missing.json.upstream.status, 400);
    assert.equal(missing.json.upstream.body.errors[0].message, 'Entity not found: Issue');
    assert.match(missing.json.message, /Entity not found: Issue/);

    const team = fake.data.teams[0]!;
    const empty = await api.exec('issues', 'create', { input: { teamId: team.id, title: '' } });
    assertError(empty, 422, 'INVALID_PARAMS');
    assert.equal(empty.json.upstream.body.errors[0].extensions.code, 'INPUT_ERROR');

    const badSince = await api.exec('users', 'list', { updatedSince: 'whenever' });
    assertError(badSince, 422, 'INVALID_PARAMS');

    // ces refuses what the definition declares impossible before Linear is asked.
    const before = fake.requests.length;
    const tooMany = await api.exec('teams', 'list', { first: 251 });
    assertError(tooMany, 422, 'INVALID_PARAMS');
    assert.equal(fake.requests.length, before);
  });

  test('RATELIMITED (HTTP 400) waits until X-RateLimit-Requests-Reset when it is near, else answers 429', async () => {
    const ratelimited = (resetInMs: number) => ({
      status: 400,
      match: '/graphql',
      headers: {
        'X-RateLimit-Requests-Remaining': '0',
        'X-RateLimit-Requests-Reset': String(Date.now() + resetInMs),
      },
      body: {
        errors: [
          { message: 'Rate limit exceeded', extensions: { type: 'ratelimited', code: 'RATELIMITED' } },
        ],
      },
    });
    const before = fake.requests.length;
    fake.failNext(ratelimited(1200));
    const started = Date.now();
    const waited = await api.exec('teams', 'list', {});
    assert.equal(waited.status, 200, waited.body);
    assert.equal(waited.json.result.length, 3);
    assert.ok(Date.now() - started >= 1000, 'the reset time was waited out');
    assert.equal(fake.requests.length - before, 2);

    fake.failNext(ratelimited(3_600_000));
    const refused = await api.exec('teams', 'list', {});
    assertError(refused, 429, 'UPSTREAM_RATE_LIMITED');
    assert.ok(refused.json.retry_after > 3500 && refused.json.retry_after <= 3600, refused.body);
    assert.equal(refused.headers['retry-after'], String(refused.json.retry_after));
  });

  test('OAuth2.0: a refresh token is redeemed at the token endpoint (form body), then renewed after a 401', async () => {
    const grant = fake.oauth.grant();
    const before = fake.requests.length;
    const res = await create(
      {
        refresh_token: grant.refresh_token,
        client_id: LINEAR_FAKE_CLIENT_ID,
        client_secret: LINEAR_FAKE_CLIENT_SECRET,
      },
      'linear oauth',
    );
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.credential_option, 'OAuth2.0');
    const id = res.json.id as string;
    const [tokenReq, check] = fake.requests.slice(before);
    assert.equal(tokenReq!.path, LINEAR_TOKEN_PATH, 'nothing in the token URL');
    assert.match(String(tokenReq!.headers['content-type']), /^application\/x-www-form-urlencoded/);
    assert.equal(tokenReq!.headers.authorization, undefined, 'client credentials go in the body');
    assert.deepEqual(formOf(tokenReq!), {
      grant_type: 'refresh_token',
      refresh_token: grant.refresh_token,
      client_id: LINEAR_FAKE_CLIENT_ID,
      client_secret: LINEAR_FAKE_CLIENT_SECRET,
    });
    const first = fake.oauth.log.at(-1)!;
    assert.equal(check!.headers.authorization, `Bearer ${first.access_token}`);

    // Linear invalidates the access token: the next call is answered 401, renewed once, and retried.
    fake.oauth.expireAccessTokens();
    const mark = fake.requests.length;
    const viewer = await connectorApi(h, token, id).exec('users', 'get', { id: fake.data.viewer.id });
    assert.equal(viewer.status, 200, viewer.body);
    assert.equal(viewer.json.result.isMe, true);
    const sent = fake.requests.slice(mark);
    assert.deepEqual(sent.map(pathOf), ['/graphql', LINEAR_TOKEN_PATH, '/graphql']);
    // The rotated refresh token from the first answer is the one presented now.
    assert.equal(formOf(sent[1]!).refresh_token, first.refresh_token);
    assert.equal(sent[2]!.headers.authorization, `Bearer ${fake.oauth.log.at(-1)!.access_token}`);
    assertCleanUrls(fake, [first.access_token, first.refresh_token!, LINEAR_FAKE_CLIENT_SECRET]);
    for (const secret of [first.access_token, first.refresh_token!, grant.refresh_token])
      assert.ok(!viewer.body.includes(secret) && !res.body.includes(secret));
  });

  test('OAuth2.0: a refresh token Linear no longer honours is refused at create with INVALID_CREDENTIALS', async () => {
    const grant = fake.oauth.grant();
    fake.oauth.revokeRefreshTokens();
    const res = await create(
      {
        refresh_token: grant.refresh_token,
        client_id: LINEAR_FAKE_CLIENT_ID,
        client_secret: LINEAR_FAKE_CLIENT_SECRET,
      },
      'linear revoked',
    );
    assertError(res, 422, 'INVALID_CREDENTIALS');
  });

  test('OAuth2.0 App: client credentials obtain an app-actor token with scope "read write"', async () => {
    const before = fake.requests.length;
    const res = await create(
      { client_id: LINEAR_FAKE_CLIENT_ID, client_secret: LINEAR_FAKE_CLIENT_SECRET },
      'linear app',
    );
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.credential_option, 'OAuth2.0 App (client credentials)');
    const [tokenReq, check] = fake.requests.slice(before);
    assert.deepEqual(formOf(tokenReq!), {
      grant_type: 'client_credentials',
      scope: 'read write',
      client_id: LINEAR_FAKE_CLIENT_ID,
      client_secret: LINEAR_FAKE_CLIENT_SECRET,
    });
    assert.equal(check!.headers.authorization, `Bearer ${fake.oauth.log.at(-1)!.access_token}`);
    const app = await connectorApi(h, token, res.json.id).exec('users', 'get', { id: fake.data.appUser.id });
    assert.equal(app.status, 200, app.body);
    assert.deepEqual([app.json.result.app, app.json.result.isMe], [true, true]);
  });
});

describe('Linear in the Context Store', () => {
  let h: Harness;
  let fake: LinearFake;
  let api: ConnectorApi;

  const ENTITIES = ['issues', 'comments', 'projects', 'teams', 'users', 'workflow_states'];
  /** The variables of each issues list request the sync sent. */
  const issueLists = () =>
    fake.requests
      .filter((r) => pathOf(r) === '/graphql' && graphqlOf(r).query.startsWith('query Issues('))
      .map((r) => graphqlOf(r).variables);

  before(async () => {
    fake = await startLinearFake({ issues: 230 });
    ({ h, api } = await startSyncing('linear', fake.url, {
      definition_id: LINEAR_ID,
      credentials: { api_key: LINEAR_FAKE_API_KEY },
    }));
  });
  after(() => closeAll(h, fake));

  test('every indexed entity is backfilled to Ready, paging by updatedAt, 100 at a time', async () => {
    const expected: Record<string, number> = {
      issues: 230,
      comments: fake.data.comments.length,
      projects: fake.data.projects.length,
      teams: 3,
      // includeDisabled: the two deactivated users too, and the app user.
      users: fake.data.users.length,
      workflow_states: 18,
    };
    for (const entity of ENTITIES) {
      const state = await api.waitReady(entity);
      assert.equal(state.entity_count, expected[entity], entity);
      assert.equal(state.last_error, null);
    }
    const [first, second, third] = issueLists();
    assert.deepEqual(first, { first: 100, orderBy: 'updatedAt' });
    assert.equal(second?.first, 100);
    assert.equal(typeof second?.after, 'string');
    assert.equal(typeof third?.after, 'string');
  });

  test('search finds records by their fields: issues by title words and state, users by email', async () => {
    const target = fake.data.issues[17]!;
    const res = await api.search('issues', {
      query: {
        filter: {
          and: [{ fuzzy: { title: target.title } }, { eq: { identifier: fake.data.identifier(target) } }],
        },
      },
      fields: ['id', 'identifier', 'title', 'state.name'],
    });
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(
      res.json.result.map((r: Json) => r.id),
      [target.id],
    );
    assert.equal(res.json.result[0].state.name, fake.data.state(target.stateId)?.name);

    const person = fake.data.users[3]!;
    const users = await api.search('users', { query: { filter: { eq: { email: person.email } } } });
    assert.equal(users.status, 200, users.body);
    assert.deepEqual(
      users.json.result.map((u: Json) => u.id),
      [person.id],
    );

    const comments = await api.search('comments', {
      query: { filter: { eq: { 'issue.id': fake.data.issues[3]!.id } } },
      limit: 100,
    });
    assert.equal(comments.status, 200, comments.body);
    assert.equal(comments.json.result.length, 3);
  });

  test('a refresh asks only for records changed since the newest updatedAt stored', async () => {
    const newest = Math.max(...fake.data.issues.map((i) => i.updatedAt));
    const before = issueLists().length;
    const team = fake.data.teams[0]!;
    const created = await api.exec('issues', 'create', {
      input: { teamId: team.id, title: 'Indexed later' },
    });
    assert.equal(created.status, 200, created.body);
    await api.waitCount('issues', 231);
    const refreshes = issueLists().slice(before);
    assert.ok(refreshes.length > 0);
    // The bound is sent to the second (the format's iso8601), from the newest seeded issue.
    assert.equal(refreshes[0]?.updatedSince, new Date(newest).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    assert.deepEqual(Object.keys(refreshes[0] ?? {}).sort(), ['first', 'orderBy', 'updatedSince']);
    const found = await api.search('issues', { query: { filter: { eq: { title: 'Indexed later' } } } });
    assert.equal(found.json.result.length, 1);
    assert.equal(found.json.result[0].id, created.json.result.id);
  });
});
