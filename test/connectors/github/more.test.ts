// Commits, releases, labels and issue search of the GitHub definition, driven through the runtime against the
// GitHub fake (test/connectors/github/fake); and the runtime's answer to the fake's transport faults.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import { ConnectorRuntime } from '../../../src/connectors/runtime/executor.ts';
import { parseRecords } from '../../../src/connectors/runtime/payload.ts';
import { domainError } from '../../helpers/domain-error.ts';
import { allPages, closeChecked, runtimeFor } from '../../helpers/fake-runtime.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN, type GithubFake, startGithubFake } from './fake/index.ts';

const github = DefinitionRegistry.default().bySlug('github')!;
const PAT = { option: 'PAT Credentials', values: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN } };
const CONFIG = { repositories: ['ces-demo/widgets'] };
const widgets = { owner: 'ces-demo', repo: 'widgets' };

let fake: GithubFake;
let rt: ConnectorRuntime;

beforeEach(async () => {
  fake = await startGithubFake();
  rt = runtimeFor('github', fake.url);
});

afterEach(() => closeChecked(rt, fake));

function exec(entity: string, action: string, params: Record<string, unknown>, runtime = rt) {
  return runtime.execute({
    connectorId: 'conn-a',
    definition: github,
    credentials: PAT,
    config: CONFIG,
    entity,
    action,
    params,
  });
}

type Commit = {
  sha: string;
  commit: { message: string };
  parents: Array<{ sha: string }>;
  files?: unknown[];
};
type Named = { id: string; database_id: number; name: string; tag_name: string };
type Item = { number: number; pull_request?: unknown };

describe('commits', () => {
  it('lists 40 commits newest first across 3 pages by cursor', async () => {
    const pages = await allPages(exec, 'commits', 'list', { ...widgets, per_page: 15 });
    assert.deepEqual(
      pages.map((p) => (parseRecords(p.payload) as Commit[]).length),
      [15, 15, 10],
    );
    const commits = pages.flatMap((p) => parseRecords(p.payload) as Commit[]);
    assert.equal(new Set(commits.map((c) => c.sha)).size, 40);
    for (let i = 0; i < 39; i += 1) assert.equal(commits[i]?.parents[0]?.sha, commits[i + 1]?.sha);
    assert.equal(commits.at(-1)?.commit.message, 'Initial commit');
    assert.equal(fake.requests[0]?.path, '/repos/ces-demo/widgets/commits?per_page=15');
    assert.match(fake.requests[2]?.path ?? '', /^\/repositories\/\d+\/commits\?per_page=15&page=3$/);
    assert.deepEqual(pages.at(-1)!.connector_metadata, { has_next_page: false, end_cursor: null });
  });

  it('sends sha, path, author, since and until in declared order and the fake filters by them', async () => {
    const out = await exec('commits', 'list', {
      until: '2100-01-01T00:00:00Z',
      author: 'octocat',
      path: 'src/gadget.ts',
      sha: 'release/1.x',
      ...widgets,
    });
    assert.equal(
      fake.requests[0]?.path,
      '/repos/ces-demo/widgets/commits?sha=release%2F1.x&path=src%2Fgadget.ts&author=octocat&until=2100-01-01T00%3A00%3A00Z',
    );
    // Up to commit 25 (release/1.x), authored by octocat (even n, not a multiple of 10), touching
    // src/gadget.ts (n % 5 === 1): commits 16 and 6.
    const numbers = (parseRecords(out.payload) as Commit[]).map((c) =>
      Number(/\((\d+)\)\n/.exec(c.commit.message)?.[1]),
    );
    assert.deepEqual(numbers, [16, 6]);
  });

  it('gets a commit by branch (with a slash), tag or sha, with stats and files; an unknown ref is INVALID_PARAMS', async () => {
    const branch = await exec('commits', 'get', { ...widgets, ref: 'heads/release/1.x' });
    assert.equal(fake.requests[0]?.path, '/repos/ces-demo/widgets/commits/heads%2Frelease%2F1.x');
    const c = parseRecords(branch.payload) as Commit & { stats: { total: number } };
    assert.match(c.commit.message, /\(25\)/);
    assert.ok(c.stats.total > 0);
    assert.ok((c.files ?? []).length > 0);
    const bySha = await exec('commits', 'get', { ...widgets, ref: c.sha.slice(0, 10) });
    assert.equal((parseRecords(bySha.payload) as Commit).sha, c.sha);
    const tag = await exec('commits', 'get', { ...widgets, ref: 'v1.0.0' });
    assert.match((parseRecords(tag.payload) as Commit).commit.message, /\(10\)/);
    await assert.rejects(
      exec('commits', 'get', { ...widgets, ref: 'does-not-exist' }),
      domainError('INVALID_PARAMS', (e) =>
        assert.match(e.message, /No commit found for SHA: does-not-exist/),
      ),
    );
  });
});

describe('releases and labels', () => {
  it('lists releases by cursor and gets one by release_id', async () => {
    const pages = await allPages(exec, 'releases', 'list', { ...widgets, per_page: 2 });
    const releases = pages.flatMap((p) => parseRecords(p.payload) as Named[]);
    assert.deepEqual(
      releases.map((r) => r.tag_name),
      ['v2.0.0-beta.1', 'v1.1.0', 'v1.0.0'],
    );
    assert.equal(pages.length, 2);
    const one = await exec('releases', 'get', { ...widgets, release_id: releases[2]!.database_id });
    assert.equal((parseRecords(one.payload) as Named).tag_name, 'v1.0.0');
    assert.equal((parseRecords(one.payload) as { assets: unknown[] }).assets.length, 2);
    await assert.rejects(
      exec('releases', 'get', { ...widgets, release_id: 424242 }),
      domainError('UPSTREAM_NOT_FOUND'),
    );
    await assert.rejects(
      exec('releases', 'get', { ...widgets, release_id: 'v1.0.0' }),
      domainError('INVALID_PARAMS'),
    );
  });

  it('lists labels by cursor and gets one by a name with spaces; recorded labels keep precedence', async () => {
    const pages = await allPages(exec, 'labels', 'list', { ...widgets, per_page: 4 });
    assert.deepEqual(
      pages.flatMap((p) => (parseRecords(p.payload) as Named[]).map((l) => l.name)),
      ['bug', 'documentation', 'enhancement', 'good first issue', 'help wanted', 'question'],
    );
    const label = await exec('labels', 'get', { ...widgets, name: 'good first issue' });
    assert.equal(fake.requests.at(-1)?.path, '/repos/ces-demo/widgets/labels/good%20first%20issue');
    assert.equal((parseRecords(label.payload) as Named).name, 'good first issue');
    const recorded = await exec('labels', 'list', { owner: 'octokit-fixture-org', repo: 'labels' });
    assert.equal((parseRecords(recorded.payload) as Named[])[0]?.database_id, 1000);
    await assert.rejects(
      exec('labels', 'get', { ...widgets, name: 'wontfix' }),
      domainError('UPSTREAM_NOT_FOUND'),
    );
  });
});

describe('issues api_search', () => {
  it('sends query as q, returns items with total_count and incomplete_results, and pages by cursor', async () => {
    const listed = parseRecords(
      (await exec('issues', 'list', { ...widgets, state: 'all', labels: 'bug', per_page: 100 })).payload,
    ) as Item[];
    const expected = listed.filter((i) => i.pull_request === undefined).map((i) => i.number);
    const query = 'repo:ces-demo/widgets is:issue label:bug';
    const pages = await allPages(exec, 'issues', 'api_search', { query, per_page: 3 });
    assert.equal(
      fake.requests.at(-pages.length)?.path,
      '/search/issues?q=repo%3Aces-demo%2Fwidgets+is%3Aissue+label%3Abug&per_page=3',
    );
    const found = pages.flatMap((p) => (parseRecords(p.payload) as Item[]).map((i) => i.number));
    assert.deepEqual(
      [...found].sort((a, b) => a - b),
      [...expected].sort((a, b) => a - b),
    );
    assert.equal(pages.length, Math.ceil(expected.length / 3));
    for (const p of pages) {
      assert.equal(p.connector_metadata.total_count, expected.length);
      assert.equal(p.connector_metadata.incomplete_results, false);
    }
    assert.equal(pages[0]!.connector_metadata.has_next_page, true);
  });

  it('pages through a large seeded repository 100 at a time', async () => {
    fake.seedIssues('bench-org', 'big', 250);
    const pages = await allPages(exec, 'issues', 'api_search', {
      query: 'repo:bench-org/big',
      per_page: 100,
      sort: 'created',
      order: 'asc',
    });
    const numbers = pages.flatMap((p) => (parseRecords(p.payload) as Item[]).map((i) => i.number));
    assert.deepEqual(
      numbers,
      Array.from({ length: 250 }, (_, k) => k + 1),
    );
    assert.deepEqual(
      pages.map((p) => p.connector_metadata.total_count),
      [250, 250, 250],
    );
  });

  it('replays the recorded search for its exact query', async () => {
    const out = await exec('issues', 'api_search', {
      query: 'sesame repo:octokit-fixture-org/search-issues',
    });
    assert.equal(out.connector_metadata.total_count, 2);
    assert.deepEqual(
      (parseRecords(out.payload) as Array<{ title: string }>).map((i) => i.title),
      ['Sesame seeds split without a pop!', 'The doors don’t open'],
    );
  });

  it('refuses a missing or overlong query before any request; an unknown repository is INVALID_PARAMS', async () => {
    await assert.rejects(
      exec('issues', 'api_search', { per_page: 5 }),
      domainError('INVALID_PARAMS', (e) => {
        assert.match(e.message, /missing required param 'query'/);
      }),
    );
    await assert.rejects(
      exec('issues', 'api_search', { query: 'x'.repeat(257) }),
      domainError('INVALID_PARAMS'),
    );
    await assert.rejects(
      exec('issues', 'api_search', { query: 'bug', sort: 'best' }),
      domainError('INVALID_PARAMS'),
    );
    assert.deepEqual(fake.requests, []);
    await assert.rejects(
      exec('issues', 'api_search', { query: 'repo:ces-demo/nope' }),
      domainError('INVALID_PARAMS', (e) => assert.match(JSON.stringify(e.extra), /cannot be searched/)),
    );
  });
});

describe('transport faults', () => {
  it('a hung request is UPSTREAM_TIMEOUT', async () => {
    const quick = new ConnectorRuntime({
      cursorKey: new Uint8Array(32).fill(5),
      upstreamOverrides: { github: fake.url },
      timeoutMs: 300,
    });
    try {
      fake.failNext({ hang: true, match: '/repos/ces-demo/widgets/labels' });
      await assert.rejects(exec('labels', 'list', widgets, quick), domainError('UPSTREAM_TIMEOUT'));
    } finally {
      await quick.close();
    }
  });

  it('a connection cut mid-body is UPSTREAM_BAD_RESPONSE', async () => {
    // Every attempt is cut, so the outcome is the same whether or not the runtime retries.
    fake.failNext({ resetAfterBytes: 20, times: 10, match: '/repos/ces-demo/widgets/releases' });
    await assert.rejects(exec('releases', 'list', widgets), domainError('UPSTREAM_BAD_RESPONSE'));
  });
});
