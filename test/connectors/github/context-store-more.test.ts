// The Context Store entities of GitHub beyond those of context-store.test.ts: per-parent lists (comments of
// issues, reviews and review comments of pull requests, items of projects) partitioned by replication_config
// with "*" expanded by listing the parent, the organization-scoped lists (repositories, teams, members,
// projects), an owner's public repositories, a user's organizations and a repository's stargazers. Each is
// synced for real, through the HTTP API, against the GitHub fake until Ready, then searched by a field.
//
// The fake's seed (fake/index.ts, fake/dataset.ts, fake/dataset-graphql.ts): organization ces-demo (members
// octocat and hubot; teams maintainers, triage and the secret security, octocat in each) with the private
// repository widgets (issues 1–25, #5/#10/#15/#20/#25 pull requests; three comments on #1; three reviews and
// three review comments on #5; starred by octocat and hubot) and projects 1 "Widgets roadmap" (5 items), 2 "Bug
// triage" (2 items) and 3 "Release 1.0" (closed, no items); user octocat (the token's user) with the public
// repositories Hello-World and Spoon-Knife.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { entityState } from '../../helpers/context-store.ts';
import { waitFor } from '../../helpers/wait.ts';
import { createGithubConnector, type GithubFake, type Harness, startWithGithub } from './harness.ts';

type Row = Record<string, unknown>;

describe('context store: the rest of GitHub’s entities', () => {
  let h: Harness;
  let fake: GithubFake;
  let close: () => Promise<unknown>;
  let token: string;
  let id: string;

  const execute = (entity: string, action: string, params: Row) =>
    h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token,
      body: { entity, action, params },
    });
  /** The indexed records of `entity` matching `filter` (asserting the search answered 200). */
  const search = async (entity: string, filter: unknown): Promise<Row[]> => {
    const res = await execute(entity, 'search', { query: { filter }, limit: 1000 });
    assert.equal(res.status, 200, res.body);
    return res.json.result as Row[];
  };
  /** Waits until the entity's backfill is done; its state, which must have no error. */
  const ready = async (entity: string) => {
    const state = await waitFor(
      `${entity} to be Ready`,
      async () => {
        const s = await entityState(h, token, id, entity);
        return s?.backfilled_at && s.ready_for_search === true ? s : undefined;
      },
      30_000,
    );
    assert.equal(state.last_error, null, `${entity}: ${String(state.last_error)}`);
    return state;
  };
  const paths = (pattern: RegExp) => fake.requests.map((r) => r.path).filter((p) => pattern.test(p));

  before(async () => {
    ({ h, fake, close } = await startWithGithub(undefined, {
      CES_SYNC_POLL_MS: '20',
      // A refresh every second; no full pass during the test, so every pass after the backfill is incremental.
      CES_SYNC_INTERVAL_SECONDS: '1',
      CES_SYNC_FULL_INTERVAL_SECONDS: '3600',
    }));
    token = await h.token();
    const res = await createGithubConnector(h, token, {
      replication_config: {
        repositories: ['ces-demo/widgets', 'octocat/*'],
        issues: ['ces-demo/widgets/*'],
        pull_requests: ['ces-demo/widgets/*'],
        orgs: ['ces-demo'],
        projects: ['ces-demo/*'],
        member_logins: ['octocat'],
      },
    });
    assert.equal(res.status, 200, res.body);
    id = res.json.id;
    await h.deps.worker.start();
  });
  after(async () => {
    await h.deps.worker.stop();
    await close();
  });

  test('the catalog lists the new entities as searchable, and the unindexable ones as not', async () => {
    const res = await h.inject({
      method: 'GET',
      url: '/api/v1/integrations/definitions/sources/ef69ef6e-aa7f-4af1-a01d-ef775033524e',
      token,
    });
    assert.equal(res.status, 200, res.body);
    const store = (name: string) =>
      res.json.entities.find((e: { name: string }) => e.name === name)?.context_store ?? null;
    for (const name of [
      'comments',
      'organizations',
      'org_repositories',
      'pr_comments',
      'project_items',
      'projects',
      'repositories',
      'reviews',
      'stargazers',
      'teams',
      'users',
    ])
      assert.ok(store(name)?.fields?.length > 0, name);
    for (const name of ['directory_content', 'file_content', 'viewer']) assert.equal(store(name), null, name);
  });

  test('repositories: the public repositories of an owner configured as owner/*', async () => {
    const state = await ready('repositories');
    // octocat/* → Hello-World and Spoon-Knife; ces-demo/widgets names one repository and is not listed.
    assert.equal(state.entity_count, 2);
    const [hello] = await search('repositories', { eq: { full_name: 'octocat/Hello-World' } });
    assert.equal(hello?.name, 'Hello-World');
    assert.equal(hello?.private, false);
    assert.deepEqual(await search('repositories', { eq: { name: 'widgets' } }), []);
    assert.ok(paths(/^\/users\/octocat\/repos\?/).some((p) => p.includes('sort=created&direction=asc')));
  });

  test('comments: every issue of ces-demo/widgets/* expanded, searched by body and issue', async () => {
    const state = await ready('comments');
    assert.equal(state.entity_count, 3);
    // One comments request per issue (and pull request) the expansion listed.
    for (let n = 1; n <= 25; n++)
      assert.ok(paths(new RegExp(`^/repos/ces-demo/widgets/issues/${n}/comments\\?`)).length > 0, `#${n}`);
    const hits = await search('comments', { fuzzy: { body: 'sprocket alignment' } });
    assert.equal(hits.length, 1);
    assert.equal((hits[0]?.user as Row).login, 'octocat');
    const onOne = await search('comments', { like: { issue_url: '%/repos/ces-demo/widgets/issues/1' } });
    assert.equal(onOne.length, 3);
  });

  test('comments: a refresh asks each issue for what changed since, and indexes a new comment', async () => {
    await ready('comments');
    const posted = await execute('comments', 'create', {
      owner: 'ces-demo',
      repo: 'widgets',
      issue_number: 7,
      body: 'A brand new walrus observation.',
    });
    assert.equal(posted.status, 200, posted.body);
    const found = await waitFor('the new comment in the index', async () => {
      const rows = await search('comments', { keyword: { body: 'walrus' } });
      return rows.length === 1 ? rows[0] : undefined;
    });
    // A write answers REST's record (its id the number), as the hosted catalog's does; the index keeps its node id.
    assert.equal(found.database_id, posted.json.result.id);
    assert.equal(found.id, posted.json.result.node_id);
    assert.ok(paths(/^\/repos\/ces-demo\/widgets\/issues\/1\/comments\?.*since=/).length > 0);
  });

  test('pr_comments: review comments of every pull request, searched by path and body', async () => {
    const state = await ready('pr_comments');
    assert.equal(state.entity_count, 3);
    for (const n of [5, 10, 15, 20, 25])
      assert.ok(paths(new RegExp(`^/repos/ces-demo/widgets/pulls/${n}/comments\\?`)).length > 0, `#${n}`);
    assert.equal((await search('pr_comments', { eq: { path: 'src/widget.ts' } })).length, 3);
    const [early] = await search('pr_comments', { fuzzy: { body: 'exit early' } });
    assert.equal(early?.body, 'This loop can exit early.');
    assert.match(String(early?.pull_request_url), /\/repos\/ces-demo\/widgets\/pulls\/5$/);
    assert.ok(
      paths(/^\/repos\/ces-demo\/widgets\/pulls\/5\/comments\?/).some((p) =>
        p.includes('sort=updated&direction=asc'),
      ),
    );
  });

  test('reviews: reviews of every pull request, searched by state', async () => {
    const state = await ready('reviews');
    assert.equal(state.entity_count, 3);
    const approved = await search('reviews', { eq: { state: 'APPROVED' } });
    assert.deepEqual(
      approved.map((r) => [(r.user as Row).login, r.body]),
      [['octocat', 'Looks good now.']],
    );
    const byHubot = await search('reviews', { eq: { 'user.login': 'hubot' } });
    assert.deepEqual(
      byHubot.map((r) => r.state),
      ['CHANGES_REQUESTED'],
    );
  });

  test('stargazers: the accounts that starred the configured repositories', async () => {
    const state = await ready('stargazers');
    assert.equal(state.entity_count, 2);
    const [hubot] = await search('stargazers', { eq: { login: 'hubot' } });
    assert.equal(hubot?.type, 'User');
  });

  test('users: the members of each configured organization', async () => {
    const state = await ready('users');
    assert.equal(state.entity_count, 2);
    const members = await search('users', { in: { login: ['octocat', 'hubot', 'ces-demo'] } });
    assert.deepEqual(members.map((m) => m.login).sort(), ['hubot', 'octocat']);
  });

  test('org_repositories: every repository of the organization, private ones included', async () => {
    const state = await ready('org_repositories');
    assert.equal(state.entity_count, 1);
    const [widgets] = await search('org_repositories', { eq: { private: true } });
    assert.equal(widgets?.full_name, 'ces-demo/widgets');
  });

  test('organizations: the public organizations of the configured users', async () => {
    const state = await ready('organizations');
    assert.equal(state.entity_count, 1);
    const [org] = await search('organizations', { eq: { login: 'ces-demo' } });
    assert.ok(org?.id);
  });

  test('teams: the teams of the organization the token’s user can see, secret ones of its own included', async () => {
    const state = await ready('teams');
    assert.equal(state.entity_count, 3);
    const [security] = await search('teams', { eq: { privacy: 'secret' } });
    assert.equal(security?.slug, 'security');
    assert.equal((await search('teams', { fuzzy: { description: 'merge rights' } }))[0]?.slug, 'maintainers');
  });

  test('projects: the organization’s projects, searched by state and title', async () => {
    const state = await ready('projects');
    assert.equal(state.entity_count, 3);
    const closed = await search('projects', { eq: { closed: true } });
    assert.deepEqual(
      closed.map((p) => [p.number, p.title]),
      [[3, 'Release 1.0']],
    );
    assert.equal((await search('projects', { keyword: { title: 'roadmap' } }))[0]?.number, 1);
  });

  test('project_items: items of every project of ces-demo/*, searched by content and status', async () => {
    const state = await ready('project_items');
    assert.equal(state.entity_count, 7); // 5 + 2 + 0
    const drafts = await search('project_items', { eq: { 'content.__typename': 'DraftIssue' } });
    assert.deepEqual(
      drafts.map((i) => (i.content as Row).title),
      ['Write the v2 launch post'],
    );
    const done = await search('project_items', {
      any: { 'fieldValues.nodes': { and: [{ eq: { 'field.name': 'Status' } }, { eq: { name: 'Done' } }] } },
    });
    const numbers = (rows: Row[]) => rows.map((i) => Number((i.content as Row).number)).sort((a, b) => a - b);
    assert.deepEqual(numbers(done), [1, 10]);
    const pulls = await search('project_items', { eq: { type: 'PULL_REQUEST' } });
    assert.deepEqual(numbers(pulls), [5, 10]);
  });

  test('nothing the syncs asked for was missing from the fake', async () => {
    await waitFor('the whole Context Store to be Ready', async () => {
      const r = await h.inject({
        method: 'GET',
        url: `/api/v1/integrations/connectors/${id}/inspect`,
        token,
      });
      return r.json.context_store.status === 'Ready' ? true : undefined;
    });
    assert.deepEqual(fake.unhandled, []);
  });
});
