// The GitHub definition's GraphQL entity-actions (discussions, projects, project_items, viewer,
// viewer_repositories) through the runtime against the GitHub fake, whose POST /graphql executes each query
// against GitHub's published schema (test/connectors/github/fake/graphql.ts). The definition-driven suite runs each once
// through the HTTP API; this checks what comes back and what is sent.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import type { ConnectorRuntime, ExecuteOutput } from '../../../src/connectors/runtime/executor.ts';
import { parseRecords } from '../../../src/connectors/runtime/payload.ts';
import type { DomainError } from '../../../src/errors.ts';
import { domainError } from '../../helpers/domain-error.ts';
import { allPages, closeChecked, runtimeFor } from '../../helpers/fake-runtime.ts';
import { startHarness } from '../../helpers/harness.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN, type GithubFake, startGithubFake } from './fake/index.ts';

const github = DefinitionRegistry.default().bySlug('github')!;
const PAT = { option: 'PAT Credentials', values: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN } };
const widgets = { owner: 'ces-demo', repo: 'widgets' };

let fake: GithubFake;
let rt: ConnectorRuntime;

beforeEach(async () => {
  fake = await startGithubFake();
  rt = runtimeFor('github', fake.url);
});

afterEach(() => closeChecked(rt, fake));

function exec(entity: string, action: string, params: Record<string, unknown>, credentials = PAT) {
  return rt.execute({
    connectorId: 'conn-a',
    definition: github,
    credentials,
    config: { repositories: ['ces-demo/widgets'] },
    entity,
    action,
    params,
  });
}

type Sent = { query: string; variables: Record<string, unknown> };
const sent = (i: number): Sent => JSON.parse(fake.requests[i]?.body ?? 'null') as Sent;
type Discussion = {
  id: string;
  number: number;
  updatedAt: string;
  isAnswered: boolean | null;
  closed: boolean;
  author: { login: string };
  category: { name: string };
  repository: { nameWithOwner: string };
};
const numbers = (pages: ExecuteOutput[]) =>
  pages.flatMap((p) => (parseRecords(p.payload) as Array<{ number: number }>).map((r) => r.number));

describe('discussions', () => {
  it('lists every discussion newest updated first, paging by GraphQL cursors', async () => {
    const pages = await allPages(exec, 'discussions', 'list', { ...widgets, per_page: 3 });
    assert.deepEqual(
      pages.map((p) => (parseRecords(p.payload) as unknown[]).length),
      [3, 3, 1],
    );
    const all = pages.flatMap((p) => parseRecords(p.payload) as Discussion[]);
    assert.deepEqual(new Set(all.map((d) => d.number)), new Set([1, 2, 3, 4, 5, 6, 7]));
    const updated = all.map((d) => Date.parse(d.updatedAt));
    assert.deepEqual(
      updated,
      [...updated].sort((a, b) => b - a),
    );
    assert.match(all[0]?.id ?? '', /^D_/);
    assert.equal(all[0]?.repository.nameWithOwner, 'ces-demo/widgets');
    assert.equal(pages[0]?.connector_metadata.total_count, 7);
    assert.deepEqual(pages.at(-1)?.connector_metadata.end_cursor, null);
    // One endpoint, one operation; only the cursor variable changes between pages.
    assert.deepEqual(
      fake.requests.map((r) => `${r.method} ${r.path}`),
      ['POST /graphql', 'POST /graphql', 'POST /graphql'],
    );
    assert.deepEqual(sent(0).variables, { ...widgets, first: 3 });
    assert.equal(sent(1).query, sent(0).query);
    assert.equal(typeof sent(1).variables.after, 'string');
    assert.equal(fake.requests[0]?.headers.authorization, `Bearer ${GITHUB_FAKE_DEFAULT_TOKEN}`);
  });

  it('filters by answered and states', async () => {
    const answered = await exec('discussions', 'list', { ...widgets, answered: true });
    assert.deepEqual(numbers([answered]).sort(), [2, 7]);
    const closed = await exec('discussions', 'list', { ...widgets, states: ['CLOSED'] });
    assert.deepEqual(numbers([closed]).sort(), [3, 6]);
    assert.deepEqual(sent(1).variables, { ...widgets, first: 30, states: ['CLOSED'] });
    await assert.rejects(
      exec('discussions', 'list', { ...widgets, states: ['LOCKED'] }),
      domainError('INVALID_PARAMS'),
    );
  });

  it('gets one by number; a missing one is UPSTREAM_NOT_FOUND with GitHub’s message', async () => {
    const one = parseRecords(
      (await exec('discussions', 'get', { ...widgets, number: 2 })).payload,
    ) as Discussion;
    assert.equal(one.number, 2);
    assert.equal(one.isAnswered, true);
    assert.equal(one.category.name, 'Q&A');
    assert.equal(one.author.login, 'hubot');
    await assert.rejects(
      exec('discussions', 'get', { ...widgets, number: 999 }),
      domainError('UPSTREAM_NOT_FOUND', /Could not resolve to a Discussion with the number of 999/),
    );
    await assert.rejects(
      exec('discussions', 'get', { owner: 'ces-demo', repo: 'nope', number: 1 }),
      domainError('UPSTREAM_NOT_FOUND', /Could not resolve to a Repository/),
    );
  });

  it('searches with GitHub search syntax across pages', async () => {
    const pages = await allPages(exec, 'discussions', 'api_search', {
      query: 'repo:ces-demo/widgets sprocket',
      per_page: 2,
    });
    assert.equal(pages.length, 2);
    assert.deepEqual(numbers(pages).sort(), [2, 5, 7]);
    assert.equal(pages[0]?.connector_metadata.total_count, 3);
    const unanswered = await exec('discussions', 'api_search', {
      query: 'org:ces-demo is:unanswered sprocket',
    });
    assert.deepEqual(numbers([unanswered]), [5]);
  });
});

describe('projects and their items', () => {
  it('lists the organization’s projects highest number first, and gets one', async () => {
    const pages = await allPages(exec, 'projects', 'list', { org: 'ces-demo', per_page: 2 });
    assert.deepEqual(
      pages.map((p) => numbers([p])),
      [[3, 2], [1]],
    );
    const roadmap = parseRecords(
      (await exec('projects', 'get', { org: 'ces-demo', project_number: 1 })).payload,
    ) as {
      id: string;
      title: string;
      closed: boolean;
      items: { totalCount: number };
    };
    assert.equal(roadmap.title, 'Widgets roadmap');
    assert.equal(roadmap.items.totalCount, 5);
    assert.match(roadmap.id, /^PVT_/);
    await assert.rejects(
      exec('projects', 'get', { org: 'ces-demo', project_number: 99 }),
      domainError('UPSTREAM_NOT_FOUND', /Could not resolve to a ProjectV2 with the number 99/),
    );
    await assert.rejects(
      exec('projects', 'list', { org: 'no-such-org' }),
      domainError('UPSTREAM_NOT_FOUND', /Could not resolve to an Organization/),
    );
  });

  it('lists a project’s items with their content and Status, across pages', async () => {
    const pages = await allPages(exec, 'project_items', 'list', {
      org: 'ces-demo',
      project_number: 1,
      per_page: 2,
    });
    assert.equal(pages.length, 3);
    type ProjectItem = {
      type: string;
      content: { __typename: string; number?: number; title: string; closed?: boolean; merged?: boolean };
      fieldValues: {
        nodes: Array<{ __typename: string; name?: string; text?: string; field: { name: string } }>;
      };
    };
    const items = pages.flatMap((p) => parseRecords(p.payload) as ProjectItem[]);
    assert.deepEqual(
      items.map((i) => [i.type, i.content.__typename, i.content.number ?? null]),
      [
        ['ISSUE', 'Issue', 1],
        ['ISSUE', 'Issue', 2],
        ['PULL_REQUEST', 'PullRequest', 5],
        ['ISSUE', 'Issue', 3],
        ['DRAFT_ISSUE', 'DraftIssue', null],
      ],
    );
    const status = items.map((i) => i.fieldValues.nodes.find((v) => v.field.name === 'Status')?.name);
    assert.deepEqual(status, ['Done', 'In progress', 'In progress', 'Todo', 'Todo']);
    assert.equal(items[4]?.content.title, 'Write the v2 launch post');
    assert.equal(
      items[4]?.fieldValues.nodes.find((v) => v.field.name === 'Title')?.text,
      'Write the v2 launch post',
    );
  });
});

describe('viewer', () => {
  it('gets the authenticated user and lists their repositories', async () => {
    const me = parseRecords((await exec('viewer', 'get', {})).payload) as {
      login: string;
      email: string;
      id: string;
    };
    assert.equal(me.login, 'octocat');
    assert.equal(me.email, '');
    const pages = await allPages(exec, 'viewer_repositories', 'list', { per_page: 1 });
    const names = pages
      .map((p) => (parseRecords(p.payload) as Array<{ nameWithOwner: string }>)[0]?.nameWithOwner)
      .sort();
    assert.deepEqual(names, ['octocat/Hello-World', 'octocat/Spoon-Knife']);
  });

  it('a token GitHub rejects is UPSTREAM_AUTH_FAILED, and the token is never echoed', async () => {
    const bad = { option: 'PAT Credentials', values: { personal_access_token: 'ghp_revoked_token_9999' } };
    let caught: unknown;
    await exec('viewer', 'get', {}, bad).catch((err: unknown) => {
      caught = err;
    });
    assert.ok(domainError('UPSTREAM_AUTH_FAILED', /Bad credentials/)(caught));
    assert.doesNotMatch(
      JSON.stringify({ m: (caught as DomainError).message, x: (caught as DomainError).extra }),
      /ghp_revoked/,
    );
  });
});

describe('through the HTTP API, with the hosted catalog’s names', () => {
  it('pages a GraphQL list with `after` and trims records with `fields`', async () => {
    const h = await startHarness({ CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: fake.url }) });
    try {
      const token = await h.token();
      const created = await h.inject({
        method: 'POST',
        url: '/api/v1/integrations/connectors',
        token,
        body: {
          workspace_name: 'default',
          name: 'gh',
          connector_type: 'github',
          credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
          replication_config: { repositories: ['ces-demo/widgets'] },
        },
      });
      assert.equal(created.status, 200, created.body);
      const exec = (params: Record<string, unknown>) =>
        h.inject({
          method: 'POST',
          url: `/api/v1/integrations/connectors/${created.json.id}/execute`,
          token,
          body: { entity: 'discussions', action: 'list', params },
        });
      const seen: unknown[] = [];
      let res = await exec({ ...widgets, per_page: 4, fields: ['number', 'author.login'] });
      for (;;) {
        assert.equal(res.status, 200, res.body);
        seen.push(...(res.json.result as unknown[]));
        if (!res.json.connector_metadata.has_next_page) break;
        res = await exec({
          after: res.json.connector_metadata.end_cursor,
          fields: ['number', 'author.login'],
        });
      }
      assert.equal(seen.length, 7);
      assert.deepEqual(Object.keys(seen[0] as object).sort(), ['author', 'number']);
    } finally {
      await h.close();
    }
  });
});
