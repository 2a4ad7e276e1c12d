// What the Context Store's GitHub sync sends, answered the way docs.github.com documents it:
// "List repository issues" (https://docs.github.com/rest/issues/issues#list-repository-issues) with
// state=all, sort=updated, direction=asc, since and per_page=100, paged by Link headers; "List repositories
// for a user" (https://docs.github.com/rest/repos/repos#list-repositories-for-a-user) to expand `owner/*`;
// and the fake's hooks for changing issues between two syncs.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { Octokit } from '@octokit/rest';
import { DefinitionRegistry } from '../../../../src/connectors/registry.ts';
import type { ConnectorRuntime } from '../../../../src/connectors/runtime/executor.ts';
import { parseRecords } from '../../../../src/connectors/runtime/payload.ts';
import { render } from '../../../../src/connectors/template.ts';
import { closeChecked, runtimeFor } from '../../../helpers/fake-runtime.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN, type GithubFake, startGithubFake } from './index.ts';
import { quiet, rejection } from './octokit-helpers.ts';

let fake: GithubFake;
let octokit: Octokit;
let rt: ConnectorRuntime | undefined;

beforeEach(async () => {
  fake = await startGithubFake();
  octokit = new Octokit({ auth: GITHUB_FAKE_DEFAULT_TOKEN, baseUrl: fake.url, log: quiet });
  rt = undefined;
});

afterEach(() => closeChecked(rt, fake));

const SYNC = { state: 'all', sort: 'updated', direction: 'asc', per_page: 100 } as const;

describe('issues as the sync lists them', () => {
  test('every issue exactly once, oldest change first, across Link pages that keep the sync params', async () => {
    fake.seedIssues('sync-org', 'big', 250);
    const issues = await octokit.paginate(octokit.rest.issues.listForRepo, {
      owner: 'sync-org',
      repo: 'big',
      ...SYNC,
    });
    assert.equal(issues.length, 250);
    assert.equal(new Set(issues.map((i) => i.number)).size, 250);
    const times = issues.map((i) => Date.parse(i.updated_at));
    assert.ok(
      times.every((t, k) => k === 0 || (times[k - 1] ?? 0) <= t),
      'ascending by updated_at',
    );
    assert.deepEqual(
      fake.requests.map((r) => new URL(r.path, fake.url).searchParams.toString()),
      [
        'state=all&sort=updated&direction=asc&per_page=100',
        'state=all&sort=updated&direction=asc&per_page=100&page=2',
        'state=all&sort=updated&direction=asc&per_page=100&page=3',
      ],
    );
  });

  test('equal updated_at values keep one order on every page (ties by number)', async () => {
    fake.seedIssues('sync-org', 'ties', 5);
    for (const n of [4, 2, 5]) fake.updateIssue('sync-org', 'ties', n, { updatedAt: '2030-01-01T00:00:00Z' });
    const page = (p: number) =>
      octokit.rest.issues.listForRepo({ owner: 'sync-org', repo: 'ties', ...SYNC, per_page: 2, page: p });
    const numbers = [];
    for (const p of [1, 2, 3]) numbers.push(...(await page(p)).data.map((i) => i.number));
    // 1 and 3 keep their generated times (3 changed first); 2, 4 and 5 share one, so number decides.
    assert.deepEqual(numbers, [3, 1, 2, 4, 5]);
  });

  test('since returns only issues updated at or after it, the issue updated exactly then included', async () => {
    const all = await octokit.paginate(octokit.rest.issues.listForRepo, {
      owner: 'ces-demo',
      repo: 'widgets',
      ...SYNC,
    });
    assert.equal(all.length, 25);
    const bound = all[20]?.updated_at ?? '';
    const since = await octokit.rest.issues.listForRepo({
      owner: 'ces-demo',
      repo: 'widgets',
      ...SYNC,
      since: bound,
    });
    assert.deepEqual(
      since.data.map((i) => i.number),
      all.filter((i) => i.updated_at >= bound).map((i) => i.number),
    );
    assert.equal(since.data[0]?.updated_at, bound);
    assert.ok(since.data.length >= 4 && since.data.length < 25);
  });
});

describe('changes between syncs', () => {
  test('updateIssue changes the title and moves updated_at past every other change', async () => {
    const before = await octokit.paginate(octokit.rest.issues.listForRepo, {
      owner: 'ces-demo',
      repo: 'widgets',
      ...SYNC,
    });
    const newest = before.at(-1)?.updated_at ?? '';
    const edited = fake.updateIssue('ces-demo', 'widgets', 3, { title: 'Widget jams when cold' });
    assert.equal(edited.title, 'Widget jams when cold');
    assert.equal(edited.updated_at, new Date(Date.parse(newest) + 1000).toISOString().replace('.000Z', 'Z'));

    const changed = await octokit.rest.issues.listForRepo({
      owner: 'ces-demo',
      repo: 'widgets',
      ...SYNC,
      since: edited.updated_at,
    });
    assert.deepEqual(
      changed.data.map((i) => [i.number, i.title]),
      [[3, 'Widget jams when cold']],
    );
    const again = fake.updateIssue('ces-demo', 'widgets', 7, { state: 'closed' });
    assert.ok(again.updated_at > edited.updated_at, 'each change is later than the one before');
    assert.equal(again.closed_at, again.updated_at);
    assert.equal(again.state_reason, 'completed');
  });

  test('updateIssue takes an explicit time, labels by name, and refuses what the repository lacks', () => {
    const issue = fake.updateIssue('ces-demo', 'widgets', 1, {
      labels: ['Question'],
      updatedAt: '2031-05-06T07:08:09.999Z',
    });
    assert.equal(issue.updated_at, '2031-05-06T07:08:09Z');
    assert.deepEqual(
      issue.labels.map((l) => (typeof l === 'string' ? l : l.name)),
      ['question'],
    );
    assert.throws(
      () => fake.updateIssue('ces-demo', 'widgets', 1, { labels: ['wontfix'] }),
      /no label 'wontfix'/,
    );
    assert.throws(() => fake.updateIssue('ces-demo', 'widgets', 99, { title: 'x' }), /no issue #99/);
  });

  test('addIssue opens the next number, created and updated now, and the next since query finds it', async () => {
    const issue = fake.addIssue('ces-demo', 'widgets', {
      title: 'Sprocket squeals',
      body: 'Loudly.',
      labels: ['bug'],
    });
    assert.equal(issue.number, 26);
    assert.equal(issue.created_at, issue.updated_at);
    assert.equal(issue.state, 'open');
    assert.equal(issue.user?.login, 'octocat');
    const listed = await octokit.rest.issues.listForRepo({
      owner: 'ces-demo',
      repo: 'widgets',
      ...SYNC,
      since: issue.updated_at,
    });
    assert.deepEqual(
      listed.data.map((i) => [i.number, i.title, i.body]),
      [[26, 'Sprocket squeals', 'Loudly.']],
    );
  });

  test('deleteIssue drops the issue from lists and search, Get answers 410, and its number is not reused', async () => {
    fake.deleteIssue('ces-demo', 'widgets', 4);
    const all = await octokit.paginate(octokit.rest.issues.listForRepo, {
      owner: 'ces-demo',
      repo: 'widgets',
      ...SYNC,
    });
    assert.equal(all.length, 24);
    assert.ok(!all.some((i) => i.number === 4));
    const gone = await rejection(
      octokit.rest.issues.get({ owner: 'ces-demo', repo: 'widgets', issue_number: 4 }),
    );
    assert.equal(gone.status, 410);
    assert.deepEqual(gone.response.data, {
      message: 'This issue was deleted',
      documentation_url: 'https://docs.github.com/rest/issues/issues#get-an-issue',
      status: '410',
    });
    const found = await octokit.rest.search.issuesAndPullRequests({ q: 'repo:ces-demo/widgets "(#4)"' });
    assert.ok(!found.data.items.some((i) => i.number === 4));
    assert.equal(fake.addIssue('ces-demo', 'widgets', { title: 'Next' }).number, 26);
    const five = await octokit.rest.issues.get({ owner: 'ces-demo', repo: 'widgets', issue_number: 5 });
    assert.equal(five.data.number, 5, 'numbers after the gap still resolve');
  });
});

describe('expanding owner/*', () => {
  test('lists the public repositories an owner holds, private ones left out as on GitHub', async () => {
    fake.seedIssues('sync-org', 'alpha', 2);
    fake.seedIssues('sync-org', 'beta', 1);
    const repos = await octokit.paginate(octokit.rest.repos.listForUser, {
      username: 'sync-org',
      per_page: 100,
    });
    assert.deepEqual(
      repos.map((r) => r.name),
      ['alpha', 'beta'],
    );
    const demo = await octokit.rest.repos.listForUser({ username: 'ces-demo' });
    assert.deepEqual(demo.data, [], 'ces-demo/widgets is private');
  });
});

describe('the GitHub definition’s context_store against the fake', () => {
  const github = DefinitionRegistry.default().bySlug('github');
  const entity = (name: string) => github?.entities.find((e) => e.name === name);
  const PAT = { option: 'PAT Credentials', values: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN } };

  /** Every record of one list, following end_cursor, with exactly the params the declarations give. */
  async function listAll(name: string, params: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    assert.ok(github && rt);
    const records: Record<string, unknown>[] = [];
    let next: Record<string, unknown> | undefined = params;
    while (next !== undefined) {
      const out = await rt.execute({
        connectorId: 'conn-sync',
        definition: github,
        credentials: PAT,
        config: { repositories: ['sync-org/*'] },
        entity: name,
        action: 'list',
        params: next,
      });
      records.push(...(parseRecords(out.payload) as Record<string, unknown>[]));
      const meta = out.connector_metadata as { has_next_page: boolean; end_cursor: string | null };
      next = meta.has_next_page ? { cursor: meta.end_cursor } : undefined;
    }
    return records;
  }

  test('a wildcard partition, a full pass, an edit and an incremental pass', async () => {
    rt = runtimeFor('github', fake.url);
    fake.seedIssues('sync-org', 'alpha', 120);
    fake.seedIssues('sync-org', 'beta', 3);
    const spec = entity('issues')?.context_store;
    const wildcard = spec?.partitions?.wildcard;
    assert.ok(spec && wildcard && spec.incremental);

    const [owner] = 'sync-org/*'.split('/');
    const expandParams = Object.fromEntries(
      Object.entries(wildcard.params).map(([k, t]) => [k, render(t, { owner: owner ?? '' })]),
    );
    const repos = (await listAll(wildcard.entity, expandParams)).map((r) => r[wildcard.value]);
    assert.deepEqual(repos, ['alpha', 'beta']);

    const full = await listAll('issues', { ...spec.params, owner, repo: 'alpha' });
    assert.equal(full.length, 120);
    const bound = full
      .map((i) => String(i[spec.incremental?.field ?? '']))
      .sort()
      .at(-1);
    fake.updateIssue('sync-org', 'alpha', 17, { title: 'Edited between syncs' });
    fake.addIssue('sync-org', 'alpha', { title: 'Opened between syncs' });

    const refresh = await listAll('issues', {
      ...spec.params,
      owner,
      repo: 'alpha',
      [spec.incremental.param ?? 'since']: bound,
    });
    assert.deepEqual(
      refresh.map((i) => i.title),
      [full.at(-1)?.title, 'Edited between syncs', 'Opened between syncs'],
      'the issue at the bound itself, then the two changes in order',
    );
    const paths = fake.requests.map((r) => r.path);
    assert.ok(paths.includes('/users/sync-org/repos'));
    assert.ok(
      paths.includes('/repos/sync-org/alpha/issues?state=all&sort=updated&direction=asc&per_page=100'),
    );
    assert.ok(paths.some((p) => p.includes('/issues?state=all&sort=updated&direction=asc&since=')));
  });
});
