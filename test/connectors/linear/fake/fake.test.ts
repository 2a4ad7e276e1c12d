// The Linear fake itself, spoken to with plain fetch: what it answers is what the connector tests rely on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SuiteFake } from '../../suite/types.ts';
import {
  LINEAR_FAKE_API_KEY,
  LINEAR_FAKE_CLIENT_ID,
  LINEAR_FAKE_CLIENT_SECRET,
  LINEAR_TOKEN_PATH,
  type LinearFake,
  startLinearFake,
} from './index.ts';

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON bodies
type Json = Record<string, any>;

async function gql(
  fake: LinearFake,
  query: string,
  variables: Record<string, unknown> = {},
  authorization: string | null = LINEAR_FAKE_API_KEY,
  extra: Record<string, string> = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...extra };
  if (authorization !== null) headers.authorization = authorization;
  const res = await fetch(`${fake.url}/graphql`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Json };
}

async function token(fake: LinearFake, form: Record<string, string>, basic?: string) {
  const res = await fetch(`${fake.origin}${LINEAR_TOKEN_PATH}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(basic === undefined ? {} : { authorization: `Basic ${basic}` }),
    },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

const ISSUES = `query Issues($first: Int, $after: String, $filter: IssueFilter) {
  issues(first: $first, after: $after, filter: $filter, orderBy: updatedAt) {
    nodes { id identifier title updatedAt state { name } team { key } }
    pageInfo { hasNextPage endCursor }
  }
}`;

describe('Linear fake', () => {
  let fake: LinearFake;

  before(async () => {
    fake = await startLinearFake({ oauthTokens: ['static-oauth-token'] });
    const suiteFake: SuiteFake = fake;
    assert.ok(suiteFake.requests);
  });
  after(async () => {
    await fake.close();
    assert.deepEqual(
      fake.unhandled.map((r) => `${r.method} ${r.path}`),
      ['GET /api/v1/issues', 'POST /graphql'],
      'only the deliberate misses are unhandled',
    );
  });

  it('refuses missing, wrong, or Bearer-wrapped API keys with AUTHENTICATION_ERROR; accepts the raw key', async () => {
    for (const auth of [null, 'lin_api_wrong', `Bearer ${LINEAR_FAKE_API_KEY}`, 'Bearer nope']) {
      const res = await gql(fake, '{ viewer { id } }', {}, auth);
      assert.equal(res.status, 401, String(auth));
      assert.equal(res.json.errors[0].message, 'Authentication required, not authenticated');
      assert.equal(res.json.errors[0].extensions.code, 'AUTHENTICATION_ERROR');
      assert.equal(res.json.errors[0].extensions.type, 'authentication error');
    }
    const ok = await gql(fake, '{ viewer { id isMe } }');
    assert.equal(ok.status, 200);
    assert.equal(ok.json.data.viewer.id, fake.data.viewer.id);
    assert.equal((await gql(fake, '{ viewer { id } }', {}, 'Bearer static-oauth-token')).status, 200);
  });

  it('pages issues with first/after until hasNextPage is false, newest updatedAt first', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    let last = Number.POSITIVE_INFINITY;
    do {
      const res = await gql(fake, ISSUES, { first: 25, after });
      assert.equal(res.status, 200);
      const conn = res.json.data.issues;
      for (const n of conn.nodes) {
        assert.ok(Date.parse(n.updatedAt) <= last);
        last = Date.parse(n.updatedAt);
        seen.push(n.id);
      }
      after = conn.pageInfo.hasNextPage ? conn.pageInfo.endCursor : null;
      pages++;
    } while (after !== null);
    assert.equal(pages, 4);
    assert.equal(new Set(seen).size, fake.data.issues.length);
  });

  it('defaults to 50 records, refuses more than 250, and filters by updatedAt for incremental sync', async () => {
    const all = await gql(fake, '{ issues { nodes { id } } }');
    assert.equal(all.json.data.issues.nodes.length, 50);
    const tooMany = await gql(fake, '{ issues(first: 251) { nodes { id } } }');
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.json.errors[0].extensions.code, 'INPUT_ERROR');
    const since = '2024-09-01T00:00:00.000Z';
    const res = await gql(fake, ISSUES, { first: 250, filter: { updatedAt: { gte: since } } });
    const expected = fake.data.issues.filter((i) => i.updatedAt >= Date.parse(since)).length;
    assert.ok(expected > 0 && expected < fake.data.issues.length);
    assert.equal(res.json.data.issues.nodes.length, expected);
  });

  it('gets an issue by id or identifier, and lists its comments by issue filter', async () => {
    const seeded = fake.data.issues[5]!;
    const identifier = fake.data.identifier(seeded);
    for (const id of [seeded.id, identifier]) {
      const res = await gql(fake, 'query($id: String!) { issue(id: $id) { id identifier title } }', { id });
      assert.deepEqual(res.json.data.issue, { id: seeded.id, identifier, title: seeded.title });
    }
    const comments = await gql(
      fake,
      'query($f: CommentFilter) { comments(first: 10, filter: $f) { nodes { body issue { id } } } }',
      { f: { issue: { id: { eq: seeded.id } } } },
    );
    assert.equal(comments.json.data.comments.nodes.length, 5 % 4);
    assert.ok(comments.json.data.comments.nodes.every((c: Json) => c.issue.id === seeded.id));
  });

  it('answers a missing entity with 400 "Entity not found" and a schema violation with GRAPHQL_VALIDATION_FAILED', async () => {
    const missing = await gql(fake, '{ issue(id: "ENG-9999") { id } }');
    assert.equal(missing.status, 400);
    assert.equal(missing.json.data, null);
    assert.deepEqual(missing.json.errors[0].path, ['issue']);
    assert.equal(missing.json.errors[0].message, 'Entity not found: Issue');
    assert.equal(missing.json.errors[0].extensions.code, 'INPUT_ERROR');
    const invalid = await gql(fake, '{ issue(id: "ENG-1") { nope } }');
    assert.equal(invalid.status, 400);
    assert.equal(invalid.json.errors[0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
    assert.match(invalid.json.errors[0].message, /Cannot query field "nope" on type "Issue"/);
  });

  it('creates and updates an issue, visible to later reads and to an updatedAt filter', async () => {
    const team = fake.data.teams[1]!;
    const created = await gql(
      fake,
      'mutation($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id identifier title priority state { type } } } }',
      { input: { teamId: team.id, title: 'Fake-created issue', priority: 2 } },
      LINEAR_FAKE_API_KEY,
      { 'x-apollo-operation-name': 'IssueCreate' },
    );
    assert.equal(created.status, 200);
    const issue = created.json.data.issueCreate.issue;
    assert.equal(created.json.data.issueCreate.success, true);
    assert.match(issue.identifier, /^DES-\d+$/);
    assert.deepEqual([issue.priority, issue.state.type], [2, 'unstarted']);
    assert.equal(fake.operationNames().at(-1), 'IssueCreate');
    const updated = await gql(
      fake,
      'mutation($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { success issue { title } } }',
      { id: issue.identifier, input: { title: 'Renamed' } },
    );
    assert.equal(updated.json.data.issueUpdate.issue.title, 'Renamed');
    const read = await gql(fake, ISSUES, {
      first: 250,
      filter: { updatedAt: { gt: '2025-01-01T00:00:00Z' } },
    });
    assert.deepEqual(
      read.json.data.issues.nodes.map((n: Json) => [n.id, n.title]),
      [[issue.id, 'Renamed']],
    );
  });

  it('creates a comment and a project, and refuses a reference to a missing team', async () => {
    const issue = fake.data.issues[0]!;
    const comment = await gql(
      fake,
      'mutation($input: CommentCreateInput!) { commentCreate(input: $input) { success comment { id body user { id } } } }',
      { input: { issueId: issue.id, body: 'Hello from the fake' } },
    );
    const id = comment.json.data.commentCreate.comment.id;
    const got = await gql(fake, 'query($id: String!) { comment(id: $id) { body issue { id } } }', { id });
    assert.deepEqual(got.json.data.comment, { body: 'Hello from the fake', issue: { id: issue.id } });
    const project = await gql(
      fake,
      'mutation($input: ProjectCreateInput!) { projectCreate(input: $input) { success project { id name teams { nodes { key } } } } }',
      { input: { name: 'Fake project', teamIds: [fake.data.teams[2]!.id] } },
    );
    assert.deepEqual(project.json.data.projectCreate.project.teams.nodes, [{ key: 'OPS' }]);
    const bad = await gql(
      fake,
      'mutation($input: ProjectCreateInput!) { projectCreate(input: $input) { success } }',
      { input: { name: 'Orphan', teamIds: ['00000000-0000-4000-8000-000000000000'] } },
    );
    assert.equal(bad.status, 400);
    assert.equal(bad.json.errors[0].message, 'Entity not found: Team');
  });

  it('pages teams, users and workflow states across at least two pages', async () => {
    for (const [field, size] of [
      ['teams', 2],
      ['users', 20],
      ['workflowStates', 10],
    ] as const) {
      const first = await gql(
        fake,
        `{ ${field}(first: ${size}) { nodes { id } pageInfo { hasNextPage endCursor } } }`,
      );
      assert.equal(first.json.data[field].pageInfo.hasNextPage, true, field);
      const second = await gql(
        fake,
        `query($after: String) { ${field}(first: ${size}, after: $after) { nodes { id } } }`,
        { after: first.json.data[field].pageInfo.endCursor },
      );
      assert.ok(second.json.data[field].nodes.length > 0, field);
    }
  });

  it('blocks a simple (CSRF-prone) request without x-apollo-operation-name, and accepts it with one', async () => {
    const send = (headers: Record<string, string>) =>
      fetch(`${fake.url}/graphql`, {
        method: 'POST',
        headers: { authorization: LINEAR_FAKE_API_KEY, 'content-type': 'text/plain', ...headers },
        body: JSON.stringify({ query: '{ viewer { id } }' }),
      });
    const blocked = await send({});
    assert.equal(blocked.status, 400);
    assert.equal(((await blocked.json()) as Json).errors[0].extensions.code, 'BAD_REQUEST');
    assert.equal((await send({ 'x-apollo-operation-name': 'Viewer' })).status, 200);
  });

  it('answers failNext faults with Linear error bodies, and unknown paths with 404 recorded as unhandled', async () => {
    fake.failNext({ status: 500, match: '/graphql' });
    const res = await gql(fake, '{ viewer { id } }');
    assert.equal(res.status, 500);
    assert.equal(res.json.errors[0].extensions.code, 'INTERNAL_SERVER_ERROR');
    const miss = await fetch(`${fake.origin}/api/v1/issues`);
    assert.equal(miss.status, 404);
    await miss.body?.cancel();
    const notImplemented = await gql(fake, '{ cycles { nodes { id } } }');
    assert.equal(notImplemented.json.errors[0].extensions.code, 'FAKE_NOT_IMPLEMENTED');
  });

  it('issues, rotates and expires OAuth tokens; refuses a used refresh token with invalid_grant', async () => {
    const grant = fake.oauth.grant();
    const refreshed = await token(fake, {
      grant_type: 'refresh_token',
      refresh_token: grant.refresh_token,
      client_id: LINEAR_FAKE_CLIENT_ID,
      client_secret: LINEAR_FAKE_CLIENT_SECRET,
    });
    assert.equal(refreshed.status, 200);
    assert.equal(refreshed.json.token_type, 'Bearer');
    assert.equal(refreshed.json.expires_in, 86_399);
    assert.notEqual(refreshed.json.refresh_token, grant.refresh_token);
    const reused = await token(fake, {
      grant_type: 'refresh_token',
      refresh_token: grant.refresh_token,
      client_id: LINEAR_FAKE_CLIENT_ID,
      client_secret: LINEAR_FAKE_CLIENT_SECRET,
    });
    assert.deepEqual([reused.status, reused.json.error], [400, 'invalid_grant']);
    const bearer = `Bearer ${refreshed.json.access_token}`;
    assert.equal((await gql(fake, '{ viewer { id } }', {}, bearer)).status, 200);

    const basic = Buffer.from(`${LINEAR_FAKE_CLIENT_ID}:${LINEAR_FAKE_CLIENT_SECRET}`).toString('base64');
    const app = await token(fake, { grant_type: 'client_credentials', scope: 'read,write' }, basic);
    assert.equal(app.status, 200);
    assert.equal(app.json.refresh_token, undefined);
    const viewer = await gql(fake, '{ viewer { id app } }', {}, `Bearer ${app.json.access_token}`);
    assert.deepEqual(viewer.json.data.viewer, { id: fake.data.appUser.id, app: true });
    const wrong = await token(fake, { grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' });
    assert.deepEqual([wrong.status, wrong.json.error], [401, 'invalid_client']);

    fake.oauth.expireAccessTokens();
    assert.equal((await gql(fake, '{ viewer { id } }', {}, bearer)).status, 401);
    assert.equal(fake.oauth.log.length, 2);
  });
});

describe('Linear fake rate limit', () => {
  it('answers RATELIMITED with the X-RateLimit-Requests-* headers once the per-second budget is spent', async () => {
    const fake = await startLinearFake({ rateLimitPerSecond: 2 });
    try {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await gql(fake, '{ viewer { id } }'));
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 400],
      );
      const limited = answers[2]!;
      assert.equal(limited.json.errors[0].extensions.code, 'RATELIMITED');
      assert.equal(limited.headers.get('x-ratelimit-requests-limit'), '2');
      assert.equal(limited.headers.get('x-ratelimit-requests-remaining'), '0');
      assert.ok(Number(limited.headers.get('x-ratelimit-requests-reset')) > Date.now() - 1000);
      assert.ok(answers[0]!.headers.get('x-complexity') !== null);
    } finally {
      await fake.close();
    }
  });
});
