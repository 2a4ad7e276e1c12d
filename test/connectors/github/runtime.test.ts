// The GitHub definition driven through the runtime against the GitHub fake (test/connectors/github/fake), which
// replays @octokit/fixtures recordings and serves a seeded `ces-demo/widgets` repository.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import { ConnectorRuntime, type ExecuteOutput } from '../../../src/connectors/runtime/executor.ts';
import { parseRecords } from '../../../src/connectors/runtime/payload.ts';
import { flipBit } from '../../helpers/cursors.ts';
import { domainError } from '../../helpers/domain-error.ts';
import { closeChecked, runtimeFor } from '../../helpers/fake-runtime.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN, type GithubFake, startGithubFake } from './fake/index.ts';

const github = DefinitionRegistry.default().bySlug('github')!;
const PAT = { option: 'PAT Credentials', values: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN } };
const CONFIG = { repositories: ['ces-demo/widgets'] };

let fake: GithubFake;
let rt: ConnectorRuntime;

beforeEach(async () => {
  fake = await startGithubFake();
  rt = runtimeFor('github', fake.url);
});

afterEach(() => closeChecked(rt, fake));

function exec(
  entity: string,
  action: string,
  params: Record<string, unknown>,
  opts: { connectorId?: string; credentials?: typeof PAT } = {},
) {
  return rt.execute({
    connectorId: opts.connectorId ?? 'conn-a',
    definition: github,
    credentials: opts.credentials ?? PAT,
    config: CONFIG,
    entity,
    action,
    params,
  });
}

type Issue = { number: number; title: string };

describe('GitHub definition against the GitHub fake', () => {
  it('pages the 13 recorded issues across 5 pages by cursor, following the real Link headers', async () => {
    const params = { owner: 'octokit-fixture-org', repo: 'paginate-issues', per_page: 3 };
    const pages: ExecuteOutput[] = [await exec('issues', 'list', params)];
    while (pages.at(-1)!.connector_metadata.has_next_page) {
      pages.push(await exec('issues', 'list', { cursor: pages.at(-1)!.connector_metadata.end_cursor }));
    }
    assert.equal(pages.length, 5);
    assert.deepEqual(
      pages.map((p) => (parseRecords(p.payload) as Issue[]).length),
      [3, 3, 3, 3, 1],
    );
    const numbers = pages.flatMap((p) => (parseRecords(p.payload) as Issue[]).map((i) => i.number));
    assert.equal(new Set(numbers).size, 13);
    assert.deepEqual(pages.at(-1)!.connector_metadata, { has_next_page: false, end_cursor: null });
    assert.deepEqual(
      fake.requests.map((r) => r.path),
      [
        '/repos/octokit-fixture-org/paginate-issues/issues?per_page=3',
        ...[2, 3, 4, 5].map((n) => `/repositories/1000/issues?per_page=3&page=${n}`),
      ],
    );
  });

  it('sends GitHub headers and the token as a Bearer credential', async () => {
    await exec('users', 'get', { username: 'octocat' });
    const headers = fake.requests[0]!.headers;
    assert.equal(headers.authorization, `Bearer ${GITHUB_FAKE_DEFAULT_TOKEN}`);
    assert.equal(headers.accept, 'application/vnd.github+json');
    assert.equal(headers['x-github-api-version'], '2022-11-28');
    assert.ok(headers['user-agent']);
  });

  it('honours per_page on the seeded repository and pages to the end', async () => {
    const first = await exec('issues', 'list', {
      owner: 'ces-demo',
      repo: 'widgets',
      state: 'all',
      per_page: 10,
    });
    assert.equal((parseRecords(first.payload) as Issue[]).length, 10);
    assert.match(fake.requests[0]!.path, /[?&]per_page=10\b/);
    let out = first;
    let total = (parseRecords(first.payload) as Issue[]).length;
    while (out.connector_metadata.has_next_page) {
      out = await exec('issues', 'list', { cursor: out.connector_metadata.end_cursor });
      total += (parseRecords(out.payload) as Issue[]).length;
    }
    assert.equal(total, 25);
  });

  it('gets issues, pull requests, comments, repositories and users', async () => {
    const issue = await exec('issues', 'get', { owner: 'ces-demo', repo: 'widgets', number: 1 });
    assert.equal((parseRecords(issue.payload) as Issue).number, 1);
    assert.deepEqual(issue.connector_metadata, { has_next_page: false, end_cursor: null });
    const pulls = await exec('pull_requests', 'list', { owner: 'ces-demo', repo: 'widgets', state: 'all' });
    assert.deepEqual(
      (parseRecords(pulls.payload) as Issue[]).map((p) => p.number).sort((a, b) => a - b),
      [5, 10, 15, 20, 25],
    );
    const pull = await exec('pull_requests', 'get', { owner: 'ces-demo', repo: 'widgets', number: 5 });
    assert.equal((parseRecords(pull.payload) as Issue).number, 5);
    const comments = await exec('comments', 'list', { owner: 'ces-demo', repo: 'widgets', number: 1 });
    assert.equal((parseRecords(comments.payload) as unknown[]).length, 3);
    const repo = await exec('repositories', 'get', { owner: 'ces-demo', repo: 'widgets' });
    assert.equal((parseRecords(repo.payload) as { full_name: string }).full_name, 'ces-demo/widgets');
    const repos = await exec('repositories', 'list', { owner: 'octocat' });
    assert.ok((parseRecords(repos.payload) as Array<{ name: string }>).some((r) => r.name === 'Hello-World'));
    const user = await exec('users', 'get', { username: 'octocat' });
    assert.equal((parseRecords(user.payload) as { login: string }).login, 'octocat');
  });

  it('maps a rejected token to UPSTREAM_AUTH_FAILED without echoing the token', async () => {
    const bad = { option: 'PAT Credentials', values: { personal_access_token: 'ghp_wrong_but_secret_42' } };
    await assert.rejects(
      exec('users', 'get', { username: 'octocat' }, { credentials: bad }),
      domainError('UPSTREAM_AUTH_FAILED', (e) => {
        assert.doesNotMatch(
          JSON.stringify({ m: e.message, x: e.extra, e: e.errors }),
          /ghp_wrong_but_secret_42/,
        );
        const upstream = e.extra?.upstream as { status: number; body: Record<string, unknown> };
        assert.equal(upstream.status, 401);
        assert.equal(upstream.body.message, 'Bad credentials');
        assert.match(e.message, /Bad credentials/);
      }),
    );
    await assert.rejects(rt.checkCredentials(github, bad, CONFIG), domainError('INVALID_CREDENTIALS'));
    await rt.checkCredentials(github, PAT, CONFIG);
  });

  it('maps 404, 429 with Retry-After and the primary rate limit (403 + x-ratelimit-remaining: 0)', async () => {
    await assert.rejects(
      exec('repositories', 'get', { owner: 'ces-demo', repo: 'nope' }),
      domainError('UPSTREAM_NOT_FOUND'),
    );
    fake.failNext({ status: 429, headers: { 'Retry-After': '17' } });
    await assert.rejects(
      exec('users', 'get', { username: 'octocat' }),
      domainError('UPSTREAM_RATE_LIMITED', (e) => assert.equal(e.retryAfter, 17)),
    );
    const reset = Math.floor(Date.now() / 1000) + 120;
    fake.failNext({
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
    });
    await assert.rejects(
      exec('users', 'get', { username: 'octocat' }),
      domainError('UPSTREAM_RATE_LIMITED', (e) =>
        assert.ok(e.retryAfter! >= 118 && e.retryAfter! <= 121, String(e.retryAfter)),
      ),
    );
    fake.failNext({ status: 403, body: { message: 'Resource not accessible by personal access token' } });
    await assert.rejects(exec('users', 'get', { username: 'octocat' }), domainError('UPSTREAM_FORBIDDEN'));
  });

  it('refuses forged and foreign cursors before any request', async () => {
    const first = await exec('issues', 'list', {
      owner: 'octokit-fixture-org',
      repo: 'paginate-issues',
      per_page: 3,
    });
    const cursor = first.connector_metadata.end_cursor!;
    const seen = fake.requests.length;
    await assert.rejects(
      exec('issues', 'list', { cursor }, { connectorId: 'conn-b' }),
      domainError('INVALID_CURSOR'),
    );
    await assert.rejects(exec('pull_requests', 'list', { cursor }), domainError('INVALID_CURSOR'));
    await assert.rejects(
      exec('issues', 'list', { cursor: flipBit(cursor, 8 * 40) }),
      domainError('INVALID_CURSOR'),
    );
    assert.equal(fake.requests.length, seen);
  });

  it('answers unknown entity/action and param mistakes with 422 codes before any request', async () => {
    await assert.rejects(
      exec('isues', 'list', {}),
      domainError('UNKNOWN_ENTITY', (e) => {
        assert.match(
          e.message,
          /Unknown entity 'isues'.*Did you mean 'issues'\?.*Available entities: repositories, issues, pull_requests, comments, commits, releases, labels, users/,
        );
      }),
    );
    await assert.rejects(
      exec('users', 'create', {}),
      domainError('UNKNOWN_ACTION', (e) =>
        assert.match(e.message, /Available actions: list, get, api_search/),
      ),
    );
    await assert.rejects(
      exec('issues', 'list', { owner: 'ces-demo' }),
      domainError('INVALID_PARAMS', (e) => {
        assert.match(e.message, /missing required param 'repo'/);
        assert.match(
          e.message,
          /Accepted params: owner \(string, required\), repo \(string, required\), state \("open"\|"closed"\|"all"\)/,
        );
      }),
    );
    await assert.rejects(
      exec('issues', 'list', { owner: 'o', repo: 'r', per_page: 500 }),
      domainError('INVALID_PARAMS', (e) => assert.match(e.message, /'per_page' must be <= 100/)),
    );
    await assert.rejects(
      exec('issues', 'list', { owner: 'o', repo: 'r', state: 'opened' }),
      domainError('INVALID_PARAMS'),
    );
    assert.deepEqual(fake.requests, []);
  });

  it('refuses the fake when its address is not an operator override (egress policy)', async () => {
    const strict = new ConnectorRuntime({
      cursorKey: new Uint8Array(32),
      upstreamOverrides: {},
      timeoutMs: 2000,
    });
    try {
      await assert.rejects(
        strict.execute({
          connectorId: 'conn-a',
          definition: github,
          credentials: PAT,
          config: { ...CONFIG, api_url: fake.url },
          entity: 'users',
          action: 'get',
          params: { username: 'octocat' },
        }),
        domainError('EGRESS_DENIED'),
      );
    } finally {
      await strict.close();
    }
    assert.deepEqual(fake.requests, []);
  });
});
