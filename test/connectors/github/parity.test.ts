// The GitHub entity-actions of the hosted catalog served through REST (branches, tags, contents, milestones,
// organizations, teams, members, stargazers, reviews, review comments, the repository/user/pull request
// searches and the issue, comment and pull request writes), each driven through the HTTP API against the
// GitHub fake: the happy path, lists paged to their last page, and a provider error.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createGithubConnector, type GithubFake, type Harness, startWithGithub } from './harness.ts';

const widgets = { owner: 'ces-demo', repo: 'widgets' };

describe('GitHub catalog parity through the HTTP API', () => {
  let h: Harness;
  let fake: GithubFake;
  let close: () => Promise<unknown>;
  let token: string;
  let connectorId: string;

  const exec = (entity: string, action: string, params: Record<string, unknown>) =>
    h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${connectorId}/execute`,
      token,
      body: { entity, action, params },
    });

  /** A successful execute's result. */
  const ok = async (entity: string, action: string, params: Record<string, unknown>) => {
    const res = await exec(entity, action, params);
    assert.equal(res.status, 200, res.body);
    return res.json.result;
  };

  /** Every page of a list, following end_cursor to the last page; asserts the page sizes. */
  const pages = async (entity: string, action: string, params: Record<string, unknown>, sizes: number[]) => {
    const records: Array<Record<string, unknown>> = [];
    const seen: number[] = [];
    let res = await exec(entity, action, params);
    for (;;) {
      assert.equal(res.status, 200, res.body);
      records.push(...res.json.result);
      seen.push(res.json.result.length);
      const meta = res.json.connector_metadata;
      if (!meta.has_next_page) break;
      res = await exec(entity, action, { cursor: meta.end_cursor });
    }
    assert.deepEqual(seen, sizes);
    return records;
  };

  const fails = async (
    entity: string,
    action: string,
    params: Record<string, unknown>,
    status: number,
    code: string,
  ) => {
    const res = await exec(entity, action, params);
    assert.equal(res.status, status, res.body);
    assert.equal(res.json.code, code, res.body);
    return res.json;
  };

  /** The path (and query) of the fake's last request. */
  const lastPath = () => fake.requests.at(-1)?.path;

  before(async () => {
    ({ h, fake, close } = await startWithGithub());
    // A second repository of ces-demo, so the organization's repository list has two pages of one.
    fake.seedIssues('ces-demo', 'gizmos', 1);
    token = await h.token();
    const res = await createGithubConnector(h, token);
    assert.equal(res.status, 200, res.body);
    connectorId = res.json.id;
  });
  after(async () => {
    await close();
    assert.deepEqual(
      fake.unhandled.map((r) => `${r.method} ${r.path}`),
      [],
    );
  });

  test('the definition lists every REST entity-action of the catalog', async () => {
    const res = await h.inject({
      method: 'GET',
      url: '/api/v1/integrations/definitions/sources/ef69ef6e-aa7f-4af1-a01d-ef775033524e',
      token,
    });
    assert.equal(res.status, 200, res.body);
    for (const name of [
      'branches',
      'directory_content',
      'file_content',
      'milestones',
      'org_repositories',
      'organizations',
      'pr_comments',
      'reviews',
      'stargazers',
      'tags',
      'teams',
    ])
      assert.ok(res.body.includes(`"${name}"`), name);
  });

  test('branches: list by cursor, get one whose name has a slash, and an unknown one is UPSTREAM_NOT_FOUND', async () => {
    const list = await pages('branches', 'list', { ...widgets, per_page: 1 }, [1, 1]);
    assert.deepEqual(
      list.map((b) => b.name),
      ['main', 'release/1.x'],
    );
    assert.equal(fake.requests.at(-2)?.path, '/repos/ces-demo/widgets/branches?per_page=1');
    const branch = await ok('branches', 'get', { ...widgets, branch: 'release/1.x' });
    assert.equal(lastPath(), '/repos/ces-demo/widgets/branches/release%2F1.x');
    assert.equal(branch.name, 'release/1.x');
    assert.equal(branch.commit.sha, (list[1]?.commit as { sha: string }).sha);
    assert.equal(branch.protected, false);
    await fails('branches', 'get', { ...widgets, branch: 'nope' }, 404, 'UPSTREAM_NOT_FOUND');
  });

  test('tags: list by cursor; get reads the git reference refs/tags/{tag}', async () => {
    const list = await pages('tags', 'list', { ...widgets, per_page: 2 }, [2, 1]);
    assert.deepEqual(
      list.map((t) => t.name),
      ['v2.0.0-beta.1', 'v1.1.0', 'v1.0.0'],
    );
    const ref = await ok('tags', 'get', { ...widgets, tag: 'v1.0.0' });
    assert.equal(lastPath(), '/repos/ces-demo/widgets/git/ref/tags/v1.0.0');
    assert.equal(ref.ref, 'refs/tags/v1.0.0');
    assert.equal(ref.object.sha, (list[2]?.commit as { sha: string }).sha);
    await fails('tags', 'get', { ...widgets, tag: 'v9' }, 404, 'UPSTREAM_NOT_FOUND');
  });

  test('directory_content lists the root or a directory at a ref; file_content gets a file in base64', async () => {
    const root = await ok('directory_content', 'list', widgets);
    assert.equal(lastPath(), '/repos/ces-demo/widgets/contents');
    assert.deepEqual(
      root.map((e: { name: string; type: string }) => `${e.type}:${e.name}`),
      ['file:README.md', 'dir:docs', 'dir:src', 'dir:test'],
    );
    const src = await ok('directory_content', 'list', { ...widgets, path: 'src', ref: 'v1.0.0' });
    assert.equal(lastPath(), '/repos/ces-demo/widgets/contents/src?ref=v1.0.0');
    assert.ok(src.every((e: { path: string }) => e.path.startsWith('src/')));
    const file = await ok('file_content', 'get', { ...widgets, path: 'src/widget.ts' });
    assert.equal(lastPath(), '/repos/ces-demo/widgets/contents/src%2Fwidget.ts');
    assert.equal(file.encoding, 'base64');
    assert.match(Buffer.from(file.content, 'base64').toString('utf8'), /^line 1 of src\/widget\.ts\n/);
    await fails('file_content', 'get', { ...widgets, path: 'missing.txt' }, 404, 'UPSTREAM_NOT_FOUND');
    await fails('directory_content', 'list', { ...widgets, path: 'nope' }, 404, 'UPSTREAM_NOT_FOUND');
  });

  test('milestones: list every state by cursor, the catalog name states, get by number', async () => {
    const all = await pages('milestones', 'list', { ...widgets, state: 'all', per_page: 2 }, [2, 1]);
    assert.deepEqual(
      all.map((m) => m.title),
      ['v1.0', 'v1.1', 'v2.0'],
    );
    const closed = await ok('milestones', 'list', { ...widgets, states: 'closed' });
    assert.equal(lastPath(), '/repos/ces-demo/widgets/milestones?state=closed');
    assert.deepEqual(
      closed.map((m: { title: string }) => m.title),
      ['v1.0'],
    );
    const both = await fails(
      'milestones',
      'list',
      { ...widgets, state: 'all', states: 'open' },
      422,
      'INVALID_PARAMS',
    );
    assert.match(both.message, /can't be combined/);
    const m2 = await ok('milestones', 'get', { ...widgets, number: 2 });
    assert.equal(m2.title, 'v1.1');
    await fails('milestones', 'get', { ...widgets, number: 99 }, 404, 'UPSTREAM_NOT_FOUND');
  });

  test('org_repositories, organizations and users (members) by cursor; unknown accounts are UPSTREAM_NOT_FOUND', async () => {
    const repos = await pages(
      'org_repositories',
      'list',
      { org: 'ces-demo', per_page: 1, sort: 'full_name' },
      [1, 1],
    );
    assert.deepEqual(
      repos.map((r) => r.full_name),
      ['ces-demo/gizmos', 'ces-demo/widgets'],
    );
    await fails('org_repositories', 'list', { org: 'no-such-org' }, 404, 'UPSTREAM_NOT_FOUND');

    const org = await ok('organizations', 'get', { org: 'ces-demo' });
    assert.equal(org.login, 'ces-demo');
    const orgs = await pages('organizations', 'list', { username: 'octocat' }, [1]);
    assert.equal(lastPath(), '/users/octocat/orgs');
    assert.deepEqual(
      orgs.map((o) => o.login),
      ['ces-demo'],
    );
    await fails('organizations', 'get', { org: 'octocat' }, 404, 'UPSTREAM_NOT_FOUND');

    const members = await pages('users', 'list', { org: 'ces-demo', per_page: 1 }, [1, 1]);
    assert.deepEqual(
      members.map((u) => u.login),
      ['octocat', 'hubot'],
    );
    await fails('users', 'list', { org: 'no-such-org' }, 404, 'UPSTREAM_NOT_FOUND');
  });

  test('teams: list by cursor, get by slug', async () => {
    const teams = await pages('teams', 'list', { org: 'ces-demo', per_page: 2 }, [2, 1]);
    assert.deepEqual(
      teams.map((t) => t.slug),
      ['maintainers', 'triage', 'security'],
    );
    const team = await ok('teams', 'get', { org: 'ces-demo', team_slug: 'triage' });
    assert.equal(team.members_count, 2);
    assert.equal(team.organization.login, 'ces-demo');
    await fails('teams', 'get', { org: 'ces-demo', team_slug: 'nobody' }, 404, 'UPSTREAM_NOT_FOUND');
  });

  test('reviews, pr_comments and stargazers by cursor; a number that is no pull request is UPSTREAM_NOT_FOUND', async () => {
    const reviews = await pages('reviews', 'list', { ...widgets, number: 5, per_page: 2 }, [2, 1]);
    assert.deepEqual(
      reviews.map((r) => r.state),
      ['CHANGES_REQUESTED', 'COMMENTED', 'APPROVED'],
    );
    await fails('reviews', 'list', { ...widgets, number: 1 }, 404, 'UPSTREAM_NOT_FOUND');

    const comments = await pages('pr_comments', 'list', { ...widgets, number: 5, per_page: 2 }, [2, 1]);
    assert.equal(fake.requests.at(-2)?.path, '/repos/ces-demo/widgets/pulls/5/comments?per_page=2');
    assert.ok(comments.every((c) => c.pull_request_review_id === reviews[0]?.database_id));
    const one = await ok('pr_comments', 'get', { ...widgets, id: comments[1]?.database_id });
    assert.equal(one.body, 'This loop can exit early.');
    await fails('pr_comments', 'list', { ...widgets, number: 1 }, 404, 'UPSTREAM_NOT_FOUND');
    await fails('pr_comments', 'get', { ...widgets, id: 1 }, 404, 'UPSTREAM_NOT_FOUND');

    const stars = await pages('stargazers', 'list', { ...widgets, per_page: 1 }, [1, 1]);
    assert.deepEqual(
      stars.map((u) => u.login),
      ['octocat', 'hubot'],
    );
    await fails('stargazers', 'list', { owner: 'ces-demo', repo: 'nope' }, 404, 'UPSTREAM_NOT_FOUND');
  });

  test('repositories and users api_search page with limit (sent as per_page); a rate limit is UPSTREAM_RATE_LIMITED', async () => {
    const repos = await pages('repositories', 'api_search', { query: 'user:octocat', limit: 1 }, [1, 1]);
    assert.equal(fake.requests.at(-2)?.path, '/search/repositories?q=user%3Aoctocat&per_page=1');
    assert.deepEqual(repos.map((r) => r.full_name).sort(), ['octocat/Hello-World', 'octocat/Spoon-Knife']);
    const found = await exec('repositories', 'api_search', { query: 'widgets' });
    assert.equal(found.json.connector_metadata.total_count, 1);
    assert.equal(found.json.result[0].full_name, 'ces-demo/widgets');

    const users = await pages('users', 'api_search', { query: 'type:user', limit: 1 }, [1, 1]);
    assert.deepEqual(
      users.map((u) => u.login),
      ['hubot', 'octocat'],
    );
    fake.failNext({ status: 403, match: '/search/users', headers: { 'x-ratelimit-remaining': '0' } });
    await fails('users', 'api_search', { query: 'octo' }, 429, 'UPSTREAM_RATE_LIMITED');
    fake.failNext({ status: 403, match: '/search/repositories', headers: { 'x-ratelimit-remaining': '0' } });
    await fails('repositories', 'api_search', { query: 'octo' }, 429, 'UPSTREAM_RATE_LIMITED');
  });

  test('pull_requests api_search: only pull requests, paged to the end; a query without is:pr is refused', async () => {
    const prs = await pages(
      'pull_requests',
      'api_search',
      { query: 'is:pr repo:ces-demo/widgets', per_page: 2 },
      [2, 2, 1],
    );
    assert.ok(prs.every((p) => p.pull_request !== undefined));
    assert.deepEqual(
      prs.map((p) => p.number).sort((a, b) => Number(a) - Number(b)),
      [5, 10, 15, 20, 25],
    );
    const before = fake.requests.length;
    const refused = await fails(
      'pull_requests',
      'api_search',
      { query: 'repo:ces-demo/widgets' },
      422,
      'INVALID_PARAMS',
    );
    assert.match(refused.message, /query/);
    assert.equal(fake.requests.length, before);
  });

  test('issues: create, update and list with the catalog name states; provider 422 and 404', async () => {
    const created = await ok('issues', 'create', {
      ...widgets,
      title: 'Gadget hums',
      body: 'Since 1.1',
      labels: ['bug', 'triage-needed'],
      assignees: ['hubot'],
      milestone: 2,
    });
    const sent = fake.requests.at(-1);
    assert.equal(`${sent?.method} ${sent?.path}`, 'POST /repos/ces-demo/widgets/issues');
    assert.deepEqual(JSON.parse(sent?.body ?? ''), {
      title: 'Gadget hums',
      body: 'Since 1.1',
      assignees: ['hubot'],
      milestone: 2,
      labels: ['bug', 'triage-needed'],
    });
    assert.equal(created.number, 26);
    assert.equal(created.milestone.number, 2);
    assert.deepEqual(created.labels.map((l: { name: string }) => l.name).sort(), ['bug', 'triage-needed']);
    const bad = await fails(
      'issues',
      'create',
      { ...widgets, title: 'x', milestone: 99 },
      422,
      'INVALID_PARAMS',
    );
    assert.ok(JSON.stringify(bad).includes('milestone'), JSON.stringify(bad));

    const updated = await ok('issues', 'update', {
      ...widgets,
      issue_number: 26,
      state: 'closed',
      state_reason: 'not_planned',
    });
    const patch = fake.requests.at(-1);
    assert.equal(`${patch?.method} ${patch?.path}`, 'PATCH /repos/ces-demo/widgets/issues/26');
    assert.deepEqual(JSON.parse(patch?.body ?? ''), { state: 'closed', state_reason: 'not_planned' });
    assert.equal(updated.state, 'closed');
    assert.equal(updated.state_reason, 'not_planned');
    await fails('issues', 'update', { ...widgets, issue_number: 999, title: 'x' }, 404, 'UPSTREAM_NOT_FOUND');

    const closed = await ok('issues', 'list', { ...widgets, states: 'closed', per_page: 100 });
    assert.equal(lastPath(), '/repos/ces-demo/widgets/issues?state=closed&per_page=100');
    assert.ok(closed.some((i: { number: number }) => i.number === 26));
    assert.ok(closed.every((i: { state: string }) => i.state === 'closed'));
  });

  test('comments.create posts to the issue; an unknown issue is UPSTREAM_NOT_FOUND', async () => {
    const comment = await ok('comments', 'create', { ...widgets, issue_number: 2, body: 'Seen it too.' });
    const sent = fake.requests.at(-1);
    assert.equal(`${sent?.method} ${sent?.path}`, 'POST /repos/ces-demo/widgets/issues/2/comments');
    assert.deepEqual(JSON.parse(sent?.body ?? ''), { body: 'Seen it too.' });
    assert.equal(comment.body, 'Seen it too.');
    const listed = await ok('comments', 'list', { ...widgets, number: 2 });
    assert.deepEqual(
      listed.map((c: { database_id: number }) => c.database_id),
      [comment.id],
    );
    await fails(
      'comments',
      'create',
      { ...widgets, issue_number: 999, body: 'x' },
      404,
      'UPSTREAM_NOT_FOUND',
    );
  });

  test('pull_requests.create opens one from a branch; an unknown head is INVALID_PARAMS from GitHub', async () => {
    const pr = await ok('pull_requests', 'create', {
      ...widgets,
      title: 'Backport 1.x',
      head: 'release/1.x',
      base: 'main',
      draft: true,
    });
    const sent = fake.requests.at(-1);
    assert.equal(`${sent?.method} ${sent?.path}`, 'POST /repos/ces-demo/widgets/pulls');
    assert.deepEqual(JSON.parse(sent?.body ?? ''), {
      head: 'release/1.x',
      base: 'main',
      title: 'Backport 1.x',
      draft: true,
    });
    assert.equal(pr.head.ref, 'release/1.x');
    assert.equal(pr.draft, true);
    const got = await ok('pull_requests', 'get', { ...widgets, number: pr.number });
    assert.equal(got.title, 'Backport 1.x');
    const bad = await fails(
      'pull_requests',
      'create',
      { ...widgets, title: 'x', head: 'nope', base: 'main' },
      422,
      'INVALID_PARAMS',
    );
    assert.ok(JSON.stringify(bad).includes('head'), JSON.stringify(bad));
  });

  test('releases.get by tag (another endpoint, chosen by the param) or by id; neither is a 422 naming both', async () => {
    const byId = await ok('releases', 'get', { ...widgets, release_id: 960_000_001 });
    const byTag = await ok('releases', 'get', { ...widgets, tag: byId.tag_name });
    assert.equal(byTag.id, byId.id);
    const sent = fake.requests.at(-1);
    assert.equal(sent?.path, `/repos/ces-demo/widgets/releases/tags/${byId.tag_name}`);
    await fails('releases', 'get', { ...widgets, tag: 'v404' }, 404, 'UPSTREAM_NOT_FOUND');
    const neither = await fails('releases', 'get', widgets, 422, 'INVALID_PARAMS');
    assert.match(neither.message, /give 'release_id', or 'tag'/);
  });

  test("states as the hosted catalog sends it (GraphQL's enum, as a list) becomes REST's one state", async () => {
    const stateSent = () => new URL(fake.requests.at(-1)?.path ?? '', 'http://x').searchParams.get('state');
    await ok('issues', 'list', { ...widgets, states: ['OPEN'] });
    assert.equal(stateSent(), 'open');
    await ok('issues', 'list', { ...widgets, states: ['CLOSED', 'OPEN'] });
    assert.equal(stateSent(), 'all');
    await ok('pull_requests', 'list', { ...widgets, states: 'closed' });
    assert.equal(stateSent(), 'closed');
    const bad = await fails(
      'issues',
      'list',
      { ...widgets, states: ['OPEN', 'closed'] },
      422,
      'INVALID_PARAMS',
    );
    assert.match(bad.message, /'states' takes one of OPEN, CLOSED, \[CLOSED,OPEN\], open, closed, all/);
  });
});
