// GET /metrics (CES_METRICS): off by default, its optional bearer token, and the counters and gauges moving
// with executes, retries, rate-limit waits, OAuth2 refreshes, the Context Store worker and searches. Values are
// compared before and after; no timing is asserted. No label may carry a tenant's id or data or a secret.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { importEdges } from '../../scripts/check-layers.mjs';
import { GITHUB_FAKE_DEFAULT_TOKEN } from '../connectors/github/fake/index.ts';
import { createGithubConnector, type GithubFake, startWithGithub } from '../connectors/github/harness.ts';
import { type Harness, type InjectResult, startHarness } from '../helpers/harness.ts';
import { createOAuthConnector, oauthCredentials, startWithOAuth } from '../helpers/oauth.ts';
import {
  hasMetric as has,
  parseMetrics as parse,
  type Scrape,
  metricValue as value,
} from '../helpers/prometheus.ts';
import { waitFor } from '../helpers/wait.ts';
import { assertError } from './assertions.ts';
import { appRoutes } from './route-table.ts';

async function scrape(h: Harness, headers: Record<string, string> = {}): Promise<Scrape> {
  const res = await h.inject({ method: 'GET', url: '/metrics', headers });
  assert.equal(res.status, 200, res.body);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return parse(res.body);
}

/** Labels ces's own metrics and prom-client's process metrics use: none of them can hold a tenant's data. */
const LABEL_NAMES = new Set([
  // ces
  'method',
  'route',
  'status_code',
  'connector_type',
  'entity',
  'action',
  'status_class',
  'outcome',
  'pass',
  'status',
  'operator',
  'le',
  // prom-client's default metrics
  'kind',
  'space',
  'type',
  'version',
  'major',
  'minor',
  'patch',
]);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('GET /metrics', () => {
  test('off by default: no route, a 404 in the one error body', async () => {
    const h = await startHarness();
    try {
      assert.equal(h.deps.metrics, null);
      assertError(await h.inject({ method: 'GET', url: '/metrics' }), 404, 'ROUTE_NOT_FOUND');
    } finally {
      await h.close();
    }
  });

  test('CES_METRICS_TOKEN: 401 without it or with another, 200 with it', async () => {
    const secret = 'metrics-token-0123456789abcdef';
    const h = await startHarness({ CES_METRICS: 'true', CES_METRICS_TOKEN: secret });
    try {
      const denied = async (headers: Record<string, string>) => {
        const res = await h.inject({ method: 'GET', url: '/metrics', headers });
        assertError(res, 401, 'UNAUTHENTICATED');
        assert.deepEqual(Object.keys(res.json).sort(), ['code', 'errors', 'message', 'request_id']);
        assert.equal(res.headers['www-authenticate'], 'Bearer');
        assert.ok(!res.body.includes(secret));
        return res;
      };
      await denied({});
      await denied({ authorization: 'Bearer metrics-token-0123456789abcdeX' });
      await denied({ authorization: `Bearer ${secret}x` });
      await denied({ authorization: secret });
      await denied({ authorization: `Basic ${Buffer.from(`x:${secret}`).toString('base64')}` });
      // An application token is not the metrics token.
      await denied({ authorization: `Bearer ${await h.token()}` });
      const ok = await scrape(h, { authorization: `Bearer ${secret}` });
      // The route exists only with CES_METRICS (so test/http/auth.test.ts, run without it, does not list it),
      // and it is the one route metrics add, public as far as application tokens go.
      const key = (r: { method: string; url: string; auth: boolean }) => `${r.method} ${r.url} ${r.auth}`;
      const on = (await appRoutes(h.deps)).map(key);
      const off = (await appRoutes({ ...h.deps, metrics: null })).map(key);
      assert.deepEqual(
        on.filter((r) => !off.includes(r)),
        ['GET /metrics false'],
      );
      assert.deepEqual(
        off.filter((r) => !on.includes(r)),
        [],
      );
      assert.ok(has(ok, 'ces_process_cpu_user_seconds_total'));
      assert.ok(has(ok, 'ces_nodejs_heap_size_total_bytes'));
    } finally {
      await h.close();
    }
  });

  test('a bad CES_METRICS_TOKEN, or one without CES_METRICS, fails start-up', async () => {
    await assert.rejects(
      startHarness({ CES_METRICS_TOKEN: 'metrics-token-0123456789abcdef' }),
      /CES_METRICS=true/,
    );
    await assert.rejects(startHarness({ CES_METRICS: 'true', CES_METRICS_TOKEN: 'short' }), /16 printable/);
  });

  test('only the composition root, http and src/metrics reach prom-client', () => {
    const root = new URL('../..', import.meta.url).pathname;
    const offenders = importEdges(root)
      .filter(([, to]: [string, string]) => to.startsWith('src/metrics/'))
      .map(([from]: [string, string]) => from)
      .filter((from: string) => !/^src\/(metrics\/|http\/|app\.ts|deps\.ts|main\.ts)/.test(from));
    assert.deepEqual(offenders, []);
  });
});

describe('metrics of executes, the worker and searches (GitHub fake)', () => {
  let h: Harness;
  let fake: GithubFake;
  let close: () => Promise<unknown>;
  let tokenA: string;
  let other: Awaited<ReturnType<Harness['otherOrg']>>;
  let idA: string;
  let idB: string;
  let scopedB: string;
  let start: Scrape;
  const WORKSPACE_B = 'planted-workspace-name-7f3a9c';
  const startedAt = Date.now() / 1000;

  const execute = (id: string, token: string, body: Record<string, unknown>) =>
    h.inject({ method: 'POST', url: `/api/v1/integrations/connectors/${id}/execute`, token, body });
  const listIssues = (id = idA, token = tokenA) =>
    execute(id, token, {
      entity: 'issues',
      action: 'list',
      params: { owner: 'ces-demo', repo: 'widgets', state: 'all', per_page: 10 },
    });
  const search = (filter: unknown) =>
    execute(idA, tokenA, { entity: 'issues', action: 'search', params: { query: { filter }, limit: 5 } });
  const responses: InjectResult[] = [];

  before(async () => {
    ({ h, fake, close } = await startWithGithub(undefined, {
      CES_METRICS: 'true',
      CES_SYNC_POLL_MS: '20',
      // One request per 50 ms and connector: the second of two executes sent together waits for its turn.
      CES_RATE_LIMIT_OVERRIDES: JSON.stringify({ github: { requests: 1, per_seconds: 0.05 } }),
    }));
    start = await scrape(h);
    tokenA = await h.token();
    other = await h.otherOrg();
    const a = await createGithubConnector(h, tokenA);
    assert.equal(a.status, 200, a.body);
    idA = a.json.id;
    // Minting a scoped token creates its workspace.
    const scoped = await h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/scoped-token',
      token: other.token,
      body: { workspace_name: WORKSPACE_B },
    });
    assert.equal(scoped.status, 200, scoped.body);
    scopedB = scoped.json.token;
    const b = await createGithubConnector(h, other.token, { workspace_name: WORKSPACE_B, name: 'planted' });
    assert.equal(b.status, 200, b.body);
    idB = b.json.id;
  });
  after(async () => {
    await h.deps.worker.stop();
    await close();
  });

  test('executes: requests by route pattern, upstream requests by entity and action, waits and retries', async () => {
    const before = await scrape(h);
    const together = await Promise.all([listIssues(), listIssues()]);
    for (const res of together) assert.equal(res.status, 200, res.body);
    // GitHub answers 502 once: the list is sent again, and succeeds.
    fake.failNext({
      status: 502,
      match: '/repos/ces-demo/widgets/issues',
      body: { message: 'Server Error' },
    });
    const retried = await listIssues();
    assert.equal(retried.status, 200, retried.body);
    const missing = await execute(idA, tokenA, {
      entity: 'issues',
      action: 'get',
      params: { owner: 'ces-demo', repo: 'widgets', number: 999_999 },
    });
    assert.equal(missing.status, 404, missing.body);
    // The other organization's connector, and a URL no route matches, carrying an id.
    assert.equal((await listIssues(idB, other.token)).status, 200);
    assert.equal(
      (await h.inject({ method: 'GET', url: `/api/v1/nothing/${idB}`, token: tokenA })).status,
      404,
    );
    const after = await scrape(h);

    const moved = (name: string, labels: Record<string, string>) =>
      value(after, name, labels) - value(before, name, labels);
    const execRoute = { method: 'POST', route: '/api/v1/integrations/connectors/:id/execute' };
    assert.equal(moved('ces_http_requests_total', { ...execRoute, status_code: '200' }), 4);
    assert.equal(moved('ces_http_requests_total', { ...execRoute, status_code: '404' }), 1);
    assert.equal(moved('ces_http_request_duration_seconds_count', { ...execRoute, status_code: '200' }), 4);
    assert.equal(
      moved('ces_http_requests_total', { method: 'GET', route: 'unmatched', status_code: '404' }),
      1,
    );
    // The scrape before this one was counted by the time this one was read.
    assert.ok(
      moved('ces_http_requests_total', { method: 'GET', route: '/metrics', status_code: '200' }) >= 1,
    );

    const list = { connector_type: 'github', entity: 'issues', action: 'list' };
    assert.equal(moved('ces_upstream_requests_total', { ...list, status_class: '2xx' }), 4);
    assert.equal(moved('ces_upstream_requests_total', { ...list, status_class: '5xx' }), 1);
    assert.equal(moved('ces_upstream_request_duration_seconds_count', { ...list, status_class: '2xx' }), 4);
    assert.equal(moved('ces_upstream_retries_total', list), 1);
    const get = { connector_type: 'github', entity: 'issues', action: 'get', status_class: '4xx' };
    assert.equal(moved('ces_upstream_requests_total', get), 1);
    assert.ok(moved('ces_upstream_rate_limit_waits_total', { connector_type: 'github' }) >= 1);
    assert.ok(moved('ces_upstream_rate_limit_wait_seconds_total', { connector_type: 'github' }) > 0);
    // The credential checks of the two creates, before this test.
    assert.equal(value(start, 'ces_upstream_requests_total', { action: 'check' }), 0);
    assert.equal(
      value(before, 'ces_upstream_requests_total', { connector_type: 'github', action: 'check' }),
      2,
    );
  });

  test('the worker: records written, passes, and the index gauges by connector type and entity', async () => {
    const before = await scrape(h);
    await h.deps.worker.start();
    const ready = async (id: string, token: string) => {
      const res = await h.inject({
        method: 'GET',
        url: `/api/v1/integrations/connectors/${id}/inspect`,
        token,
      });
      return res.json.context_store.status === 'Ready' ? res : undefined;
    };
    await waitFor('A Ready', () => ready(idA, tokenA));
    await waitFor('B Ready', () => ready(idB, other.token));
    // The gauges are read from the store at most once a second while the worker writes.
    const after = await waitFor('the index gauges', async () => {
      const s = await scrape(h);
      return value(s, 'ces_context_store_syncs', { entity: 'issues', status: 'Ready' }) === 2 ? s : undefined;
    });
    const issues = { connector_type: 'github', entity: 'issues' };
    // The fake's ces-demo/widgets has 25 issues; each connector's backfill wrote them once.
    assert.equal(
      value(after, 'ces_context_store_records_written_total', issues) -
        value(before, 'ces_context_store_records_written_total', issues),
      50,
    );
    assert.equal(value(after, 'ces_context_store_records', issues), 50);
    assert.equal(
      value(after, 'ces_context_store_sync_passes_total', {
        ...issues,
        pass: 'backfill',
        outcome: 'success',
      }),
      2,
    );
    assert.equal(value(after, 'ces_context_store_syncs', { ...issues, status: 'Initializing' }), 0);
    assert.equal(value(after, 'ces_context_store_syncs', { entity: 'commits', status: 'Ready' }), 2);
    // Every sync is done and next due in an hour (CES_SYNC_INTERVAL_SECONDS): none is overdue.
    assert.equal(value(after, 'ces_context_store_sync_lag_seconds', issues), 0);
    assert.ok(value(after, 'ces_context_store_sync_last_success_timestamp_seconds', issues) >= startedAt - 1);
    // The sync's list requests are upstream requests like any other.
    assert.ok(
      value(after, 'ces_upstream_requests_total', {
        entity: 'commits',
        action: 'list',
        status_class: '2xx',
      }) >= 2,
    );
  });

  test('searches: duration by costliest operator and outcome', async () => {
    const before = await scrape(h);
    for (const res of [
      await search({ eq: { number: 3 } }),
      await search({ and: [{ eq: { state: 'open' } }, { gte: { number: 2 } }] }),
      await search({ like: { title: '%a%' } }),
      await search(undefined),
    ]) {
      assert.equal(res.status, 200, res.body);
      responses.push(res);
    }
    const bad = await search({ eq: { no_such_field: 1 } });
    assertError(bad, 422, 'INVALID_QUERY');
    const after = await scrape(h);
    const moved = (labels: Record<string, string>) =>
      value(after, 'ces_context_store_search_duration_seconds_count', labels) -
      value(before, 'ces_context_store_search_duration_seconds_count', labels);
    assert.equal(moved({ operator: 'eq', outcome: 'ok' }), 1);
    assert.equal(moved({ operator: 'range', outcome: 'ok' }), 1);
    assert.equal(moved({ operator: 'like', outcome: 'ok' }), 1);
    assert.equal(moved({ operator: 'none', outcome: 'ok' }), 1);
    assert.equal(moved({ operator: 'eq', outcome: 'invalid_query' }), 1);
  });

  test('no label carries an organization, workspace, connector, token or URL', async () => {
    const text = (await scrape(h)).text;
    const planted = [
      h.boot.organization_id,
      other.organizationId,
      idA,
      idB,
      WORKSPACE_B,
      tokenA,
      other.token,
      scopedB,
      h.boot.client_id,
      other.clientId,
      GITHUB_FAKE_DEFAULT_TOKEN,
      fake.url,
      'ces-demo/widgets',
    ];
    // Each is where it belongs: in the API's answers and the fake's requests, so finding none below means
    // something.
    const b = await h.inject({
      method: 'GET',
      url: `/api/v1/integrations/connectors/${idB}/inspect`,
      token: other.token,
    });
    assert.ok(b.body.includes(idB) && b.body.includes(other.organizationId), b.body);
    const workspaces = await h.inject({ method: 'GET', url: '/api/v1/workspaces', token: other.token });
    assert.ok(workspaces.body.includes(WORKSPACE_B), workspaces.body);
    assert.ok(fake.requests.some((r) => r.path.includes('ces-demo/widgets')));
    for (const value of planted) assert.ok(!text.includes(value), `the scrape contains ${value}`);

    const s = parse(text);
    assert.ok(s.samples.length > 100);
    for (const sample of s.samples) {
      for (const [name, v] of Object.entries(sample.labels)) {
        assert.ok(LABEL_NAMES.has(name), `${sample.name} has the label ${name}`);
        assert.doesNotMatch(v, UUID, `${sample.name}{${name}="${v}"}`);
      }
      if (sample.labels.route !== undefined)
        assert.ok(
          sample.labels.route === 'unmatched' || sample.labels.route.startsWith('/'),
          sample.labels.route,
        );
    }
  });
});

describe('metrics of OAuth2 refreshes', () => {
  test('by connector type and outcome, and the token requests among upstream requests', async () => {
    const { h, fake, close } = await startWithOAuth({ CES_METRICS: 'true' });
    try {
      const token = await h.token();
      const before = await scrape(h);
      // Only a refresh token: the check first obtains an access token.
      const ok = await createOAuthConnector(
        h,
        token,
        oauthCredentials(fake, { refresh_token: fake.grant().refresh_token }),
      );
      assert.equal(ok.status, 200, ok.body);
      const refused = await createOAuthConnector(
        h,
        token,
        oauthCredentials(fake, { refresh_token: 'not-a-grant' }),
      );
      assert.notEqual(refused.status, 200, refused.body);
      const after = await scrape(h);
      const moved = (name: string, labels: Record<string, string>) =>
        value(after, name, labels) - value(before, name, labels);
      assert.equal(
        moved('ces_oauth_refreshes_total', { connector_type: 'oauthdemo', outcome: 'success' }),
        1,
      );
      assert.equal(
        moved('ces_oauth_refreshes_total', { connector_type: 'oauthdemo', outcome: 'rejected' }),
        1,
      );
      assert.equal(
        moved('ces_upstream_requests_total', {
          connector_type: 'oauthdemo',
          entity: '',
          action: 'token_refresh',
        }),
        2,
      );
      assert.ok(!after.text.includes('not-a-grant'));
    } finally {
      await close();
    }
  });
});
