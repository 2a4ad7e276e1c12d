// Commits, releases, labels, search and archives of the GitHub fake, driven by the official client
// (@octokit/rest) pointed at it through `baseUrl`, exactly as it would talk to https://api.github.com.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { Octokit } from '@octokit/rest';
import { closeChecked } from '../../../helpers/fake-runtime.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN, type GithubFake, startGithubFake } from './index.ts';
import { type HttpFailure, quiet, rejection } from './octokit-helpers.ts';

const AUTH = { authorization: `Bearer ${GITHUB_FAKE_DEFAULT_TOKEN}` };
const widgets = { owner: 'ces-demo', repo: 'widgets' };

let fake: GithubFake;
let octokit: Octokit;

beforeEach(async () => {
  fake = await startGithubFake();
  octokit = new Octokit({ auth: GITHUB_FAKE_DEFAULT_TOKEN, baseUrl: fake.url, log: quiet });
});

afterEach(() => closeChecked(undefined, fake));

const messageOf = (f: HttpFailure) => (f.response.data as { message: string }).message;

/** Files of an uncompressed tar: name -> content (pax headers included under their own names). */
function untar(tar: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    const size = Number.parseInt(header.toString('ascii', 124, 136).replace(/\0.*$/s, ''), 8);
    files.set(name, tar.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

describe('commits', () => {
  test('paginate walks the 40 commits of ces-demo/widgets newest first, each the parent of the one before', async () => {
    const commits = await octokit.paginate(octokit.rest.repos.listCommits, { ...widgets, per_page: 15 });
    assert.equal(commits.length, 40);
    assert.equal(new Set(commits.map((c) => c.sha)).size, 40);
    for (let i = 0; i < 39; i += 1)
      assert.deepEqual(
        commits[i]?.parents.map((p) => p.sha),
        [commits[i + 1]?.sha],
      );
    assert.deepEqual(commits.at(-1)?.parents, []);
    assert.equal(commits.at(-1)?.commit.message, 'Initial commit');
    assert.match(fake.requests[1]?.path ?? '', /^\/repositories\/\d+\/commits\?per_page=15&page=2$/);
    // GitHub's field order, and `author: null` for an email that belongs to no account.
    const newest = commits[0]!;
    assert.deepEqual(Object.keys(newest), [
      'sha',
      'node_id',
      'commit',
      'url',
      'html_url',
      'comments_url',
      'author',
      'committer',
      'parents',
    ]);
    assert.equal(newest.author, null);
    assert.equal(newest.commit.author?.email, 'jane.doe@example.com');
    assert.equal(commits[1]?.author?.login, 'hubot');
    assert.equal(commits[2]?.author?.login, 'octocat');
    assert.equal(newest.commit.verification?.reason, 'unsigned');
    assert.equal(newest.url, `${fake.url}/repos/ces-demo/widgets/commits/${newest.sha}`);
  });

  test('filters: sha (branch), path, author login or email, since/until; an unknown sha is a 404', async () => {
    const list = async (params: Record<string, string | number>) =>
      (await octokit.rest.repos.listCommits({ ...widgets, per_page: 100, ...params })).data;
    const release = await list({ sha: 'release/1.x' });
    assert.equal(release.length, 25);
    assert.match(release[0]?.commit.message ?? '', /\(25\)/);
    const tests = await list({ path: 'test/widget.test.ts' });
    assert.equal(tests.length, 10);
    assert.equal((await list({ path: 'test' })).length, 10, 'a directory matches the files below it');
    const byLogin = await list({ author: 'OctoCat' });
    assert.equal(byLogin.length, 16);
    assert.ok(byLogin.every((c) => c.author?.login === 'octocat'));
    assert.equal((await list({ author: 'jane.doe@example.com' })).length, 4);
    const all = await list({});
    const [since, until] = [all[29]!.commit.committer!.date!, all[10]!.commit.committer!.date!];
    const window = await list({ since, until });
    assert.deepEqual(
      window.map((c) => c.sha),
      all.slice(10, 30).map((c) => c.sha),
    );
    const missing = await rejection(list({ sha: 'no-such-branch' }));
    assert.equal(missing.status, 404);
  });

  test('get a commit by sha, short sha, branch, heads/branch or tag; an unknown ref is a 422', async () => {
    const all = (await octokit.rest.repos.listCommits({ ...widgets, per_page: 100 })).data;
    const head = all[0]!;
    const get = async (ref: string) => (await octokit.rest.repos.getCommit({ ...widgets, ref })).data;
    const full = await get(head.sha);
    assert.equal(full.sha, head.sha);
    assert.equal((await get(head.sha.slice(0, 7))).sha, head.sha);
    assert.equal((await get('main')).sha, head.sha);
    assert.equal((await get('heads/release/1.x')).sha, all[15]?.sha);
    const tagged = await get('v1.0.0');
    assert.match(tagged.commit.message, /\(10\)/);
    const files = full.files ?? [];
    assert.ok(files.length >= 1);
    const sum = (key: 'additions' | 'deletions') => files.reduce((n, f) => n + f[key], 0);
    assert.deepEqual(full.stats, {
      total: sum('additions') + sum('deletions'),
      additions: sum('additions'),
      deletions: sum('deletions'),
    });
    assert.ok(files.every((f) => f.patch?.startsWith('@@') && f.blob_url.includes(head.sha)));
    const unknown = await rejection(get('nope'));
    assert.equal(unknown.status, 422);
    assert.equal(messageOf(unknown), 'No commit found for SHA: nope');
  });
});

describe('releases and labels', () => {
  test('releases list newest first with assets; get by id, latest (skips prereleases) and by tag', async () => {
    const { data } = await octokit.rest.repos.listReleases(widgets);
    assert.deepEqual(
      data.map((r) => [r.tag_name, r.prerelease, r.assets.length]),
      [
        ['v2.0.0-beta.1', true, 0],
        ['v1.1.0', false, 1],
        ['v1.0.0', false, 2],
      ],
    );
    const v1 = data[2]!;
    assert.deepEqual(
      v1.assets.map((a) => a.browser_download_url),
      [
        'https://github.com/ces-demo/widgets/releases/download/v1.0.0/widgets-1.0.0.tgz',
        'https://github.com/ces-demo/widgets/releases/download/v1.0.0/checksums.txt',
      ],
    );
    assert.equal(v1.tarball_url, `${fake.url}/repos/ces-demo/widgets/tarball/v1.0.0`);
    assert.equal(v1.html_url, 'https://github.com/ces-demo/widgets/releases/tag/v1.0.0');
    const byId = await octokit.rest.repos.getRelease({ ...widgets, release_id: v1.id });
    assert.deepEqual(byId.data, v1);
    assert.equal((await octokit.rest.repos.getLatestRelease(widgets)).data.tag_name, 'v1.1.0');
    assert.equal((await octokit.rest.repos.getReleaseByTag({ ...widgets, tag: 'v1.0.0' })).data.id, v1.id);
    assert.equal((await rejection(octokit.rest.repos.getRelease({ ...widgets, release_id: 1 }))).status, 404);

    const paged = await octokit.rest.repos.listReleases({ ...widgets, per_page: 2 });
    assert.equal(paged.data.length, 2);
    assert.match(String(paged.headers.link), /\/repositories\/\d+\/releases\?per_page=2&page=2>; rel="next"/);
  });

  test('labels list and get (case-insensitive, spaces encoded); recorded labels still replay', async () => {
    const { data, headers } = await octokit.rest.issues.listLabelsForRepo({ ...widgets, per_page: 4 });
    assert.deepEqual(
      data.map((l) => l.name),
      ['bug', 'documentation', 'enhancement', 'good first issue'],
    );
    assert.match(String(headers.link), /page=2>; rel="next"/);
    const rest = await octokit.paginate(octokit.rest.issues.listLabelsForRepo, { ...widgets, per_page: 4 });
    assert.equal(rest.length, 6);
    const label = await octokit.rest.issues.getLabel({ ...widgets, name: 'Good First Issue' });
    assert.equal(label.data.name, 'good first issue');
    assert.equal(label.data.url, `${fake.url}/repos/ces-demo/widgets/labels/good%20first%20issue`);
    assert.equal(
      (await rejection(octokit.rest.issues.getLabel({ ...widgets, name: 'wontfix' }))).status,
      404,
    );

    const recorded = await octokit.rest.issues.listLabelsForRepo({
      owner: 'octokit-fixture-org',
      repo: 'labels',
    });
    assert.equal(recorded.data[0]?.id, 1000, 'the @octokit/fixtures recording answers, not the dataset');
  });
});

describe('search issues', () => {
  const search = (q: string, extra: Record<string, unknown> = {}) =>
    octokit.rest.search.issuesAndPullRequests({ q, per_page: 100, ...extra });

  test('qualifiers agree with the issues list endpoint; results count against the search rate limit', async () => {
    const listed = (
      await octokit.rest.issues.listForRepo({ ...widgets, state: 'open', labels: 'bug', per_page: 100 })
    ).data.filter((i) => i.pull_request === undefined);
    const { data, headers } = await search('repo:ces-demo/widgets is:issue state:open label:bug');
    assert.ok(listed.length > 0);
    assert.equal(data.total_count, listed.length);
    assert.deepEqual(data.items.map((i) => i.number).sort(), listed.map((i) => i.number).sort());
    assert.equal(data.incomplete_results, false);
    assert.equal(headers['x-ratelimit-resource'], 'search');
    assert.equal(headers['x-ratelimit-limit'], '30');

    const pulls = await search('repo:ces-demo/widgets is:pr');
    assert.deepEqual(
      pulls.data.items.map((i) => i.number).sort((a, b) => a - b),
      [5, 10, 15, 20, 25],
    );
    assert.ok(pulls.data.items.every((i) => i.pull_request !== undefined));
    assert.deepEqual(
      (await search('repo:ces-demo/widgets is:pr is:merged')).data.items.map((i) => i.number),
      [10],
    );
    const notBug = await search('repo:ces-demo/widgets is:issue -label:bug');
    assert.ok(notBug.data.items.every((i) => !i.labels.some((l) => l.name === 'bug')));
    assert.equal(
      notBug.data.total_count + (await search('repo:ces-demo/widgets is:issue label:bug')).data.total_count,
      20,
    );
  });

  test('free words match title, body and comments; title matches rank first; sort and order apply', async () => {
    const { data } = await search('sprocket repo:ces-demo/widgets');
    const numbers = data.items.map((i) => i.number);
    assert.ok(numbers.includes(1), 'issue 1 only mentions sprockets in a comment');
    assert.equal(numbers.at(-1), 1, 'a comment match scores below title matches');
    assert.ok(data.items.slice(0, -1).every((i) => /sprocket/i.test(i.title)));
    assert.ok(data.items.every((i) => typeof i.score === 'number' && i.score > 0));

    const oldest = await search('repo:ces-demo/widgets is:issue', { sort: 'created', order: 'asc' });
    const created = oldest.data.items.map((i) => Date.parse(i.created_at));
    assert.deepEqual(
      created,
      [...created].sort((a, b) => a - b),
    );
    assert.equal((await search('"no such phrase anywhere" repo:ces-demo/widgets')).data.total_count, 0);
  });

  test('Link paging over a seeded repository and the 1000-result window', async () => {
    fake.seedIssues('bench-org', 'big', 1200);
    const first = await search('repo:bench-org/big', { per_page: 100 });
    assert.equal(first.data.total_count, 1200);
    assert.equal(first.data.items.length, 100);
    const link = String(first.headers.link);
    assert.ok(
      link.startsWith(`<${fake.url}/search/issues?q=repo%3Abench-org%2Fbig&per_page=100&page=2>; rel="next"`),
    );
    assert.match(link, /page=10>; rel="last"$/, 'only the first 1000 results can be paged to');
    const tenth = await search('repo:bench-org/big', { per_page: 100, page: 10 });
    assert.equal(tenth.data.items.length, 100);
    const beyond = await rejection(search('repo:bench-org/big', { per_page: 100, page: 11 }));
    assert.equal(beyond.status, 422);
    assert.equal(messageOf(beyond), 'Only the first 1000 search results are available');
  });

  test('validation: missing q, unknown or hidden repositories; anonymous callers see public repos only', async () => {
    const missing = await rejection(octokit.request('GET /search/issues'));
    assert.equal(missing.status, 422);
    assert.deepEqual((missing.response.data as { errors: unknown }).errors, [
      { resource: 'Search', field: 'q', code: 'missing' },
    ]);
    const unknown = await rejection(search('repo:ces-demo/nope'));
    assert.equal(unknown.status, 422);
    assert.match(
      (unknown.response.data as { errors: Array<{ message: string }> }).errors[0]?.message ?? '',
      /cannot be searched/,
    );
    const anonymous = new Octokit({ baseUrl: fake.url, log: quiet });
    const hidden = await rejection(
      anonymous.rest.search.issuesAndPullRequests({ q: 'repo:ces-demo/widgets' }),
    );
    assert.equal(hidden.status, 422);
    assert.equal((await anonymous.rest.search.issuesAndPullRequests({ q: 'widget' })).data.total_count, 0);
    assert.ok((await search('widget')).data.total_count > 0);
  });
});

describe('repository archives', () => {
  const head = async () => (await octokit.rest.repos.listCommits({ ...widgets, per_page: 1 })).data[0]!.sha;

  test('tarball: 302 to codeload with a temporary token for a private repo, then a real gzip tarball', async () => {
    const sha = await head();
    const redirect = await fetch(`${fake.url}/repos/ces-demo/widgets/tarball`, {
      headers: AUTH,
      redirect: 'manual',
    });
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.get('content-type'), 'text/html;charset=utf-8');
    assert.equal(redirect.headers.get('content-length'), '0');
    assert.equal(redirect.headers.get('x-github-media-type'), null);
    const location = redirect.headers.get('location') ?? '';
    assert.match(location, /\/_codeload\/ces-demo\/widgets\/legacy\.tar\.gz\/refs\/heads\/main\?token=\w+$/);

    const res = await fetch(location);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/x-gzip');
    const prefix = `ces-demo-widgets-${sha.slice(0, 7)}`;
    assert.equal(res.headers.get('content-disposition'), `attachment; filename=${prefix}.tar.gz`);
    const files = untar(gunzipSync(Buffer.from(await res.arrayBuffer())));
    assert.equal(files.get('pax_global_header')?.toString(), `52 comment=${sha}\n`);
    assert.match(files.get(`${prefix}/README.md`)?.toString() ?? '', /^# widgets\n/);
    assert.ok(files.has(`${prefix}/src/index.ts`));

    // codeload checks the token, not the API credentials.
    const noToken = await fetch(location.replace(/\?token=.*$/, ''));
    assert.equal(noToken.status, 404);
    assert.equal(fake.unhandled.length, 1);
    fake.unhandled.length = 0;
  });

  test('refs: tags and shas select the commit; public repos need no token; unknown refs are a 404', async () => {
    const v1 = await octokit.rest.repos.downloadTarballArchive({ ...widgets, ref: 'v1.0.0' });
    assert.match(v1.url, /\/legacy\.tar\.gz\/refs\/tags\/v1\.0\.0\?token=/);
    const tagged = (await octokit.rest.repos.getCommit({ ...widgets, ref: 'v1.0.0' })).data.sha;
    assert.match(String(v1.headers['content-disposition']), new RegExp(`-${tagged.slice(0, 7)}\\.tar\\.gz$`));

    const sha = await head();
    const bySha = await fetch(`${fake.url}/repos/ces-demo/widgets/tarball/${sha}`, {
      headers: AUTH,
      redirect: 'manual',
    });
    assert.match(bySha.headers.get('location') ?? '', new RegExp(`/legacy\\.tar\\.gz/${sha}\\?token=`));

    const hello = await fetch(`${fake.url}/repos/octocat/Hello-World/tarball/main`, { redirect: 'manual' });
    assert.equal(hello.status, 302);
    assert.match(
      hello.headers.get('location') ?? '',
      /\/_codeload\/octocat\/Hello-World\/legacy\.tar\.gz\/refs\/heads\/main$/,
    );
    const gz = Buffer.from(await (await fetch(hello.headers.get('location') ?? '')).arrayBuffer());
    assert.ok(untar(gunzipSync(gz)).size >= 3);

    const unknown = await rejection(octokit.rest.repos.downloadTarballArchive({ ...widgets, ref: 'nope' }));
    assert.equal(unknown.status, 404);
  });

  test('setArchiveSize: exactly that many bytes, still a valid gzip of a valid tar', async () => {
    const size = 8 * 1024 * 1024 + 123;
    fake.setArchiveSize(size);
    const res = await fetch(`${fake.url}/repos/ces-demo/widgets/tarball/main`, { headers: AUTH });
    assert.equal(res.headers.get('content-length'), String(size));
    const body = Buffer.from(await res.arrayBuffer());
    assert.equal(body.length, size);
    const files = untar(gunzipSync(body));
    const data = [...files].find(([name]) => name.endsWith('/data.bin'))?.[1];
    assert.ok(data !== undefined && data.length > size - 16 * 1024, String(data?.length));
    assert.throws(() => fake.setArchiveSize(100), RangeError);
    fake.setArchiveSize(undefined);
    const small = await fetch(`${fake.url}/repos/ces-demo/widgets/tarball/main`, { headers: AUTH });
    assert.ok(Number(small.headers.get('content-length')) < 4096);
    await small.arrayBuffer();
  });

  test('a large archive is streamed: a reader that stops reading holds the server back', async () => {
    const size = 512 * 1024 * 1024;
    fake.setArchiveSize(size);
    const before = process.memoryUsage().arrayBuffers;
    const res = await fetch(`${fake.url}/repos/ces-demo/widgets/tarball/main`, { headers: AUTH });
    assert.equal(res.headers.get('content-length'), String(size));
    const reader = res.body!.getReader();
    const first = await reader.read();
    assert.ok(first.value !== undefined && first.value.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const grown = process.memoryUsage().arrayBuffers - before;
    assert.ok(grown < 64 * 1024 * 1024, `the fake buffered ${grown} bytes of a paused 512 MiB download`);
    await reader.cancel();
  });
});
