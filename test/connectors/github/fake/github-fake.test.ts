// Proves the fake speaks GitHub's wire format by driving it with the official client, @octokit/rest,
// pointed at it through `baseUrl`, exactly as it would talk to https://api.github.com.
import assert from 'node:assert/strict';
import { get, type IncomingHttpHeaders } from 'node:http';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { Octokit } from '@octokit/rest';
import { closeChecked } from '../../../helpers/fake-runtime.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN, type GithubFake, startGithubFake } from './index.ts';
import { type HttpFailure, quiet, rejection } from './octokit-helpers.ts';

let fake: GithubFake;
let octokit: Octokit;

beforeEach(async () => {
  fake = await startGithubFake();
  octokit = new Octokit({ auth: GITHUB_FAKE_DEFAULT_TOKEN, baseUrl: fake.url, log: quiet });
});

afterEach(() => closeChecked(undefined, fake));

/** A GET that reports what arrived before the connection ended, complete or not. */
function rawGet(url: string): Promise<{
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
  complete: boolean;
}> {
  return new Promise((resolve, reject) => {
    const req = get(url, { headers: { authorization: `Bearer ${GITHUB_FAKE_DEFAULT_TOKEN}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', () => {});
      res.on('close', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          bytes: Buffer.concat(chunks),
          complete: res.complete,
        }),
      );
    });
    req.on('error', reject);
  });
}

function messageOf(failure: HttpFailure): string {
  return (failure.response.data as { message: string }).message;
}

describe('replayed @octokit/fixtures recordings', () => {
  test('paginate follows the recorded Link headers through 5 pages of 13 issues', async () => {
    const issues = await octokit.paginate('GET /repos/{owner}/{repo}/issues', {
      owner: 'octokit-fixture-org',
      repo: 'paginate-issues',
      per_page: 3,
    });
    assert.deepEqual(
      issues.map((i) => i.number),
      [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
    );
    assert.deepEqual(
      fake.requests.map((r) => r.path),
      [
        '/repos/octokit-fixture-org/paginate-issues/issues?per_page=3',
        '/repositories/1000/issues?per_page=3&page=2',
        '/repositories/1000/issues?per_page=3&page=3',
        '/repositories/1000/issues?per_page=3&page=4',
        '/repositories/1000/issues?per_page=3&page=5',
      ],
    );
    // Every recorded https://api.github.com URL now points at the fake.
    assert.ok(issues.every((i) => i.url.startsWith(`${fake.url}/repos/`)));
  });

  test('the first recorded page carries rewritten next/last links and live rate-limit headers', async () => {
    const first = await octokit.rest.issues.listForRepo({
      owner: 'octokit-fixture-org',
      repo: 'paginate-issues',
      per_page: 3,
    });
    assert.equal(
      first.headers.link,
      `<${fake.url}/repositories/1000/issues?per_page=3&page=2>; rel="next", ` +
        `<${fake.url}/repositories/1000/issues?per_page=3&page=5>; rel="last"`,
    );
    assert.equal(first.headers['x-github-media-type'], 'github.v3; format=json');
    assert.equal(first.headers['x-ratelimit-resource'], 'core');
    assert.equal(first.headers['x-ratelimit-remaining'], '4999');
    const second = await octokit.rest.issues.listForRepo({
      owner: 'octokit-fixture-org',
      repo: 'paginate-issues',
      per_page: 3,
    });
    assert.equal(second.headers['x-ratelimit-remaining'], '4998');
    const reset = Number(second.headers['x-ratelimit-reset']);
    assert.ok(reset > Date.now() / 1000 && reset <= Date.now() / 1000 + 3600, 'reset is in epoch seconds');
  });

  test('search issues returns its recorded items on the search rate-limit resource', async () => {
    const { data, headers } = await octokit.rest.search.issuesAndPullRequests({
      q: 'sesame repo:octokit-fixture-org/search-issues',
    });
    assert.equal(data.items.length, 2);
    assert.equal(data.total_count, 2);
    assert.deepEqual(
      data.items.map((i) => i.title),
      ['Sesame seeds split without a pop!', 'The doors don’t open'],
    );
    assert.equal(headers['x-ratelimit-resource'], 'search');
    assert.equal(headers['x-ratelimit-limit'], '30');
  });

  test('get a repository and an organization replay the recorded bodies', async () => {
    const repo = await octokit.rest.repos.get({ owner: 'octokit-fixture-org', repo: 'hello-world' });
    assert.equal(repo.data.full_name, 'octokit-fixture-org/hello-world');
    assert.equal(repo.data.url, `${fake.url}/repos/octokit-fixture-org/hello-world`);
    const org = await octokit.rest.orgs.get({ org: 'octokit-fixture-org' });
    assert.equal(org.data.type, 'Organization');
  });

  test('the tarball 302 redirects to the codeload stand-in and the binary body survives', async () => {
    const { data, url } = await octokit.rest.repos.downloadTarballArchive({
      owner: 'octokit-fixture-org',
      repo: 'get-archive',
      ref: 'main',
    });
    assert.equal(url, `${fake.url}/_codeload/octokit-fixture-org/get-archive/legacy.tar.gz/refs/heads/main`);
    const bytes = Buffer.from(data as ArrayBuffer);
    assert.equal(bytes.length, 176);
    assert.deepEqual([...bytes.subarray(0, 2)], [0x1f, 0x8b], 'gzip magic');
  });

  test('the recorded 422 Validation Failed surfaces through the client', async () => {
    const error = await rejection(
      octokit.rest.issues.createLabel({
        owner: 'octokit-fixture-org',
        repo: 'errors',
        name: 'foo',
        color: 'invalid',
      }),
    );
    assert.equal(error.status, 422);
    assert.deepEqual((error.response.data as { errors: unknown }).errors, [
      { resource: 'Label', code: 'invalid', field: 'color' },
    ]);
  });
});

describe('handwritten routes over the seeded dataset', () => {
  test('paginate walks the 25 ces-demo/widgets issues 10 at a time, pull requests included', async () => {
    const issues = await octokit.paginate(octokit.rest.issues.listForRepo, {
      owner: 'ces-demo',
      repo: 'widgets',
      state: 'all',
      per_page: 10,
    });
    assert.deepEqual(
      issues.map((i) => i.number),
      Array.from({ length: 25 }, (_, k) => 25 - k),
    );
    assert.deepEqual(
      issues.filter((i) => i.pull_request !== undefined).map((i) => i.number),
      [25, 20, 15, 10, 5],
    );
    assert.equal(fake.requests.length, 3);
    // Pages after the first follow GitHub's id-based Link URLs, with the caller's parameters kept.
    assert.match(fake.requests[1]?.path ?? '', /^\/repositories\/\d+\/issues\?state=all&per_page=10&page=2$/);
  });

  test('Link headers carry prev/next/last/first like GitHub, and none when a page holds everything', async () => {
    const middle = await octokit.rest.issues.listForRepo({
      owner: 'ces-demo',
      repo: 'widgets',
      state: 'all',
      per_page: 10,
      page: 2,
    });
    const rels = [...String(middle.headers.link).matchAll(/page=(\d+)>; rel="(\w+)"/g)].map(
      (m) => `${m[2]}=${m[1]}`,
    );
    assert.deepEqual(rels, ['prev=1', 'next=3', 'last=3', 'first=1']);
    assert.ok(String(middle.headers.link).startsWith(`<${fake.url}/repositories/`));

    // per_page above the maximum is reduced to 100 rather than rejected; the default state is open.
    const open = await octokit.rest.issues.listForRepo({
      owner: 'ces-demo',
      repo: 'widgets',
      per_page: 1000,
    });
    assert.equal(open.data.length, 16);
    assert.ok(open.data.every((i) => i.state === 'open'));
    assert.equal(open.headers.link, undefined);
  });

  test('issues are shaped like GitHub: labels, state_reason, closed issue and PR fields', async () => {
    const { data: closed } = await octokit.rest.issues.get({
      owner: 'ces-demo',
      repo: 'widgets',
      issue_number: 9,
    });
    assert.equal(closed.state, 'closed');
    assert.equal(closed.state_reason, 'not_planned');
    assert.equal(closed.closed_by?.login, 'octocat');
    assert.equal(closed.html_url, 'https://github.com/ces-demo/widgets/issues/9');
    assert.equal(closed.url, `${fake.url}/repos/ces-demo/widgets/issues/9`);

    const { data: one } = await octokit.rest.issues.get({
      owner: 'ces-demo',
      repo: 'widgets',
      issue_number: 1,
    });
    assert.equal(one.comments, 3);
    assert.deepEqual(
      one.labels.map((l) => (typeof l === 'string' ? l : l.name)),
      ['bug'],
    );
    const comments = await octokit.rest.issues.listComments({
      owner: 'ces-demo',
      repo: 'widgets',
      issue_number: 1,
    });
    assert.deepEqual(
      comments.data.map((c) => c.user?.login),
      ['hubot', 'octocat', 'hubot'],
    );

    const labelled = await octokit.rest.issues.listForRepo({
      owner: 'ces-demo',
      repo: 'widgets',
      state: 'all',
      labels: 'bug,documentation',
    });
    assert.deepEqual(
      labelled.data.map((i) => i.number),
      [23, 19, 15, 11, 7, 3],
    );
  });

  test('pull requests list and detail', async () => {
    const all = await octokit.rest.pulls.list({ owner: 'ces-demo', repo: 'widgets', state: 'all' });
    assert.deepEqual(
      all.data.map((p) => p.number),
      [25, 20, 15, 10, 5],
    );
    const open = await octokit.rest.pulls.list({ owner: 'ces-demo', repo: 'widgets' });
    assert.deepEqual(
      open.data.map((p) => p.number),
      [25, 20, 5],
    );
    const { data: merged } = await octokit.rest.pulls.get({
      owner: 'ces-demo',
      repo: 'widgets',
      pull_number: 10,
    });
    assert.equal(merged.merged, true);
    assert.equal(merged.head.ref, 'fix/issue-10');
    assert.equal(merged.base.repo.full_name, 'ces-demo/widgets');
    const notAPull = await rejection(
      octokit.rest.pulls.get({ owner: 'ces-demo', repo: 'widgets', pull_number: 1 }),
    );
    assert.equal(notAPull.status, 404);
  });

  test('users, organizations and their repositories', async () => {
    const me = await octokit.rest.users.getAuthenticated();
    assert.equal(me.data.login, 'octocat');
    assert.equal(me.headers['x-oauth-scopes'], 'read:org, read:user, repo');
    const user = await octokit.rest.users.getByUsername({ username: 'octocat' });
    assert.equal(user.data.type, 'User');
    const repos = await octokit.rest.repos.listForUser({ username: 'octocat' });
    assert.deepEqual(
      repos.data.map((r) => r.full_name),
      ['octocat/Hello-World', 'octocat/Spoon-Knife'],
    );
    const org = await octokit.rest.orgs.get({ org: 'ces-demo' });
    assert.equal(org.data.type, 'Organization');
    const orgRepos = await octokit.rest.repos.listForOrg({ org: 'ces-demo' });
    assert.deepEqual(
      orgRepos.data.map((r) => [r.full_name, r.private]),
      [['ces-demo/widgets', true]],
    );
    const repo = await octokit.rest.repos.get({ owner: 'ces-demo', repo: 'widgets' });
    assert.equal(repo.data.open_issues_count, 16);
  });

  test('seedIssues adds generated issues that page like the rest; per_page over 100 is clamped', async () => {
    fake.seedIssues('bench-org', 'big', 250);
    const clamped = await octokit.rest.issues.listForRepo({
      owner: 'bench-org',
      repo: 'big',
      state: 'all',
      per_page: 1000,
    });
    assert.equal(clamped.data.length, 100);
    assert.equal(clamped.data[0]?.number, 250);
    assert.match(String(clamped.headers.link), /page=2>; rel="next", <[^>]+page=3>; rel="last"$/);

    const last = await octokit.rest.issues.listForRepo({
      owner: 'bench-org',
      repo: 'big',
      state: 'all',
      per_page: 100,
      page: 3,
    });
    assert.equal(last.data.length, 50);
    assert.equal(last.data.at(-1)?.number, 1);
    assert.match(String(last.headers.link), /page=2>; rel="prev", <[^>]+page=1>; rel="first"$/);
  });
});

describe('auth, errors and faults', () => {
  test('a wrong token is a 401 with GitHub’s Bad credentials body', async () => {
    const bad = new Octokit({ auth: 'ghp_wrong', baseUrl: fake.url, log: quiet });
    const error = await rejection(bad.rest.repos.get({ owner: 'ces-demo', repo: 'widgets' }));
    assert.equal(error.status, 401);
    assert.deepEqual(error.response.data, {
      message: 'Bad credentials',
      documentation_url: 'https://docs.github.com/rest',
      status: '401',
    });
  });

  test('Bearer tokens are accepted; no credentials means 401 on /user and 404 on a private repo', async () => {
    const bearer = await fetch(`${fake.url}/user`, {
      headers: { authorization: `Bearer ${GITHUB_FAKE_DEFAULT_TOKEN}` },
    });
    assert.equal(bearer.status, 200);
    assert.equal(bearer.headers.get('content-type'), 'application/json; charset=utf-8');

    const anonymous = new Octokit({ baseUrl: fake.url, log: quiet });
    const me = await rejection(anonymous.rest.users.getAuthenticated());
    assert.equal(me.status, 401);
    assert.equal(messageOf(me), 'Requires authentication');
    assert.equal(me.response.headers['x-ratelimit-limit'], '60');
    const hidden = await rejection(anonymous.rest.repos.get({ owner: 'ces-demo', repo: 'widgets' }));
    assert.equal(hidden.status, 404);
    const visible = await anonymous.rest.repos.get({ owner: 'octocat', repo: 'Hello-World' });
    assert.equal(visible.data.private, false);
    const replayed = await rejection(
      anonymous.rest.repos.get({ owner: 'octokit-fixture-org', repo: 'hello-world' }),
    );
    assert.equal(replayed.status, 401, 'recordings are only replayed to an accepted token');
  });

  test('an unknown repository is GitHub’s 404; an unknown route is also recorded as unhandled', async () => {
    const error = await rejection(octokit.rest.repos.get({ owner: 'ces-demo', repo: 'nope' }));
    assert.equal(error.status, 404);
    assert.deepEqual(error.response.data, {
      message: 'Not Found',
      documentation_url: 'https://docs.github.com/rest/repos/repos#get-a-repository',
      status: '404',
    });
    assert.equal(fake.unhandled.length, 0, 'a missing resource is a handled 404');

    const unknown = await rejection(
      octokit.request('GET /repos/{owner}/{repo}/wiki-pages', { owner: 'ces-demo', repo: 'widgets' }),
    );
    assert.equal(unknown.status, 404);
    assert.deepEqual(
      fake.unhandled.map((r) => r.path),
      ['/repos/ces-demo/widgets/wiki-pages'],
    );
    fake.unhandled.length = 0;
  });

  test('withholdPermissions answers a part of a repository 404, as to a fine-grained token without it', async () => {
    fake.withholdPermissions('ces-demo', 'widgets', ['pulls', 'releases']);
    const pulls = await rejection(octokit.rest.pulls.list({ owner: 'ces-demo', repo: 'widgets' }));
    assert.equal(pulls.status, 404);
    assert.deepEqual(pulls.response.data, {
      message: 'Not Found',
      documentation_url: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests',
      status: '404',
    });
    const one = await rejection(
      octokit.rest.pulls.get({ owner: 'CES-Demo', repo: 'Widgets', pull_number: 5 }),
    );
    assert.equal(one.status, 404, 'any spelling of the repository, any route under the part');
    const { data: repo } = await octokit.rest.repos.get({ owner: 'ces-demo', repo: 'widgets' });
    const byId = await rejection(octokit.request('GET /repositories/{id}/releases', { id: repo.id }));
    assert.equal(byId.status, 404, 'the id-based form of link headers too');
    const issues = await octokit.rest.issues.listForRepo({ owner: 'ces-demo', repo: 'widgets' });
    assert.equal(issues.status, 200, 'the other parts are untouched');
    assert.equal(fake.unhandled.length, 0, 'a refusal is handled, not a missing route');
    fake.withholdPermissions('ces-demo', 'widgets', []);
    const granted = await octokit.rest.pulls.list({ owner: 'ces-demo', repo: 'widgets', state: 'all' });
    assert.equal(granted.data.length, 5);
  });

  test('failNext injects a secondary rate limit, then the route answers normally again', async () => {
    fake.failNext({
      status: 403,
      headers: { 'Retry-After': '30' },
      body: {
        message: 'You have exceeded a secondary rate limit.',
        documentation_url: 'https://docs.github.com/rest',
        status: '403',
      },
      match: '/repos/ces-demo/widgets/issues',
    });
    const untouched = await octokit.rest.repos.get({ owner: 'ces-demo', repo: 'widgets' });
    assert.equal(untouched.status, 200, 'a fault only hits its matching path');
    const error = await rejection(octokit.rest.issues.listForRepo({ owner: 'ces-demo', repo: 'widgets' }));
    assert.equal(error.status, 403);
    assert.equal(error.response.headers['retry-after'], '30');
    assert.match(messageOf(error), /secondary rate limit/);
    const after = await octokit.rest.issues.listForRepo({ owner: 'ces-demo', repo: 'widgets' });
    assert.equal(after.status, 200);
  });

  test('failNext({hang}) accepts the request and never answers; close() still returns', async () => {
    fake.failNext({ hang: true, match: '/user' });
    const timedOut = await fetch(`${fake.url}/user`, {
      headers: { authorization: `Bearer ${GITHUB_FAKE_DEFAULT_TOKEN}` },
      signal: AbortSignal.timeout(200),
    }).catch((error: unknown) => error);
    assert.ok(timedOut instanceof Error && timedOut.name === 'TimeoutError', String(timedOut));
    assert.equal(fake.requests.length, 1, 'the request was received');
    assert.equal((await octokit.rest.users.getAuthenticated()).status, 200, 'only one request hangs');

    fake.failNext({ hang: true });
    const pending = fetch(`${fake.url}/users/octocat`).then(
      () => 'answered',
      () => 'connection closed',
    );
    while (fake.requests.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    await fake.close();
    assert.equal(await pending, 'connection closed');
  });

  test('failNext({resetAfterBytes}) sends headers and exactly that many body bytes, then cuts', async () => {
    fake.failNext({ resetAfterBytes: 10, match: '/repos/ces-demo/widgets' });
    const { status, headers, bytes, complete } = await rawGet(`${fake.url}/repos/ces-demo/widgets`);
    assert.equal(status, 200);
    assert.ok(Number(headers['content-length']) > 10, 'the real response was being sent');
    assert.equal(bytes.toString(), '{"id":7000');
    assert.equal(complete, false);
    assert.equal((await octokit.rest.repos.get({ owner: 'ces-demo', repo: 'widgets' })).status, 200);

    fake.failNext({ resetAfterBytes: 0, status: 502, body: 'Bad Gateway' });
    const cut = await rawGet(`${fake.url}/user`);
    assert.deepEqual([cut.status, cut.bytes.length, cut.complete], [502, 0, false]);
    fake.failNext({ resetAfterBytes: 5 });
    const res = await fetch(`${fake.url}/user`, {
      headers: { authorization: `Bearer ${GITHUB_FAKE_DEFAULT_TOKEN}` },
    });
    assert.equal(res.status, 200);
    await assert.rejects(res.text(), /terminated/);
  });

  test('failNext({resetAfterBytes}) also cuts a streamed archive download', async () => {
    fake.setArchiveSize(4 * 1024 * 1024);
    fake.failNext({ resetAfterBytes: 1_000_000, match: '/_codeload/' });
    const redirect = await fetch(`${fake.url}/repos/ces-demo/widgets/tarball/main`, {
      headers: { authorization: `Bearer ${GITHUB_FAKE_DEFAULT_TOKEN}` },
      redirect: 'manual',
    });
    const download = await rawGet(redirect.headers.get('location') ?? '');
    assert.equal(download.status, 200);
    assert.equal(download.headers['content-length'], String(4 * 1024 * 1024));
    assert.equal(download.bytes.length, 1_000_000);
    assert.equal(download.complete, false);
  });

  test('failNext with times repeats server errors', async () => {
    fake.failNext({ status: 503, times: 2 });
    for (let i = 0; i < 2; i += 1) {
      const error = await rejection(octokit.rest.users.getAuthenticated());
      assert.equal(error.status, 503);
    }
    assert.equal((await octokit.rest.users.getAuthenticated()).status, 200);
  });
});
