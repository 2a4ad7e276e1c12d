// The fake's POST /graphql (graphql.ts): driven by the official client's `octokit.graphql`, and with raw
// requests for what GitHub answers beside the data (auth, schema validation, connection rules, errors).
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { Octokit } from '@octokit/rest';
import { closeChecked } from '../../../helpers/fake-runtime.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN, type GithubFake, startGithubFake } from './index.ts';
import { quiet } from './octokit-helpers.ts';

let fake: GithubFake;

beforeEach(async () => {
  fake = await startGithubFake();
});

afterEach(() => closeChecked(undefined, fake));

interface GraphqlAnswer {
  data?: unknown;
  errors?: Array<{ type?: string; message: string; path?: unknown[] }>;
  message?: string;
}

async function post(body: unknown, token: string | null = GITHUB_FAKE_DEFAULT_TOKEN) {
  const res = await fetch(`${fake.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as GraphqlAnswer };
}

describe('github fake: GraphQL API v4', () => {
  test('answers the official client, paging a connection with first/after', async () => {
    const octokit = new Octokit({ auth: GITHUB_FAKE_DEFAULT_TOKEN, baseUrl: fake.url, log: quiet });
    const query = `query($after: String) { repository(owner: "ces-demo", name: "widgets") {
      discussions(first: 4, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { number } } } }`;
    type Page = {
      repository: {
        discussions: {
          totalCount: number;
          pageInfo: { hasNextPage: boolean; endCursor: string };
          nodes: Array<{ number: number }>;
        };
      };
    };
    const first = await octokit.graphql<Page>(query, {});
    assert.equal(first.repository.discussions.totalCount, 7);
    assert.equal(first.repository.discussions.nodes.length, 4);
    assert.equal(first.repository.discussions.pageInfo.hasNextPage, true);
    const second = await octokit.graphql<Page>(query, {
      after: first.repository.discussions.pageInfo.endCursor,
    });
    assert.equal(second.repository.discussions.nodes.length, 3);
    assert.equal(second.repository.discussions.pageInfo.hasNextPage, false);
    const all = [...first.repository.discussions.nodes, ...second.repository.discussions.nodes].map(
      (n) => n.number,
    );
    assert.deepEqual(all.sort(), [1, 2, 3, 4, 5, 6, 7]);
  });

  test('needs a token: 401 without one, Bad credentials with a wrong one', async () => {
    const anonymous = await post({ query: '{ viewer { login } }' }, null);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.json.message, 'This endpoint requires you to be authenticated.');
    const wrong = await post({ query: '{ viewer { login } }' }, 'ghp_wrong');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.json.message, 'Bad credentials');
    const ok = await post({ query: '{ viewer { login } }' });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.json, { data: { viewer: { login: 'octocat' } } });
    assert.equal(ok.headers.get('x-ratelimit-resource'), 'graphql');
  });

  test("validates against GitHub's schema: an unknown field is an error in a 200 without data", async () => {
    const res = await post({ query: '{ viewer { login favouriteColour } }' });
    assert.equal(res.status, 200);
    assert.equal(res.json.data, undefined);
    assert.match(res.json.errors?.[0]?.message ?? '', /Cannot query field "favouriteColour" on type "User"/);
  });

  test('applies the connection rules and answers missing objects as NOT_FOUND', async () => {
    const missingFirst = await post({ query: '{ viewer { repositories { nodes { name } } } }' });
    assert.equal(missingFirst.json.errors?.[0]?.type, 'MISSING_PAGINATION_BOUNDARIES');
    const countOnly = await post({ query: '{ viewer { repositories { totalCount } } }' });
    assert.deepEqual(countOnly.json, { data: { viewer: { repositories: { totalCount: 2 } } } });
    const tooMany = await post({ query: '{ viewer { repositories(first: 101) { nodes { name } } } }' });
    assert.equal(tooMany.json.errors?.[0]?.type, 'EXCESSIVE_PAGINATION');
    const badCursor = await post({
      query: '{ viewer { repositories(first: 1, after: "nope") { nodes { name } } } }',
    });
    assert.equal(badCursor.json.errors?.[0]?.type, 'INVALID_CURSOR_ARGUMENTS');
    const missing = await post({
      query: '{ organization(login: "ces-demo") { projectV2(number: 42) { title } } }',
    });
    assert.deepEqual(missing.json.data, { organization: { projectV2: null } });
    assert.deepEqual(missing.json.errors?.[0]?.type, 'NOT_FOUND');
    assert.deepEqual(missing.json.errors?.[0]?.path, ['organization', 'projectV2']);
    const broken = await post('{"query": ');
    assert.equal(broken.status, 400);
    assert.equal(broken.json.message, 'Problems parsing JSON');
  });
});
