// A GitHub connector whose token may not see some parts of its one repository: GitHub answers their lists 404
// (the fake's withholdPermissions, GitHub's own 404 body), and one more list fails transiently (502). Through the
// HTTP API, on a frozen clock (nothing waits out a backoff): the entity that is stored is searchable at once, the
// refused ones are Failed at once with the permission to grant, the transient one keeps its backoff, and the
// refused ones are asked again only at the next interval or when the credentials or replication_config change
// (asserted on the fake's request log).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FakeClock } from '../../helpers/fake-clock.ts';
import { closeChecked } from '../../helpers/fake-runtime.ts';
import { startHarness } from '../../helpers/harness.ts';
import { waitFor } from '../../helpers/wait.ts';
import { startGithubFake } from './fake/index.ts';
import { createGithubConnector, type GithubFake, type Harness } from './harness.ts';

const INTERVAL_S = 600;
const WITHHELD = { pulls: 'pull_requests', commits: 'commits', releases: 'releases' } as const;
type Entity = { entity: string; status: string; ready_for_search: boolean; last_error: string | null };

describe('context store: entities the token may not read (GitHub)', () => {
  // Frozen at start-up (tokens are issued and checked against it too).
  const t0 = Math.floor(Date.now() / 1000) * 1000;
  const clock = new FakeClock(() => t0);
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  let h: Harness;
  let fake: GithubFake;
  let token: string;
  let id: string;

  const inspect = async () => {
    const res = await h.inject({
      method: 'GET',
      url: `/api/v1/integrations/connectors/${id}/inspect`,
      token,
    });
    assert.equal(res.status, 200, res.body);
    return res.json as {
      context_store: { status: string; entities: Array<Entity & { next_sync_at: string }> };
      warnings: string[];
    };
  };
  const entity = async (name: string) => {
    const found = (await inspect()).context_store.entities.find((e) => e.entity === name);
    assert.ok(found, name);
    return found;
  };
  const search = (name: string) =>
    h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token,
      body: { entity: name, action: 'search', params: { query: {}, limit: 1000 } },
    });
  const requestsTo = (part: string) =>
    fake.requests.filter((r) => new RegExp(`^/repos/ces-demo/widgets/${part}(\\?|$)`).test(r.path)).length;
  /**
   * Waits until the worker has nothing left to do for this connector at the clock's time: no sync leased, none
   * due. The clock is frozen, so this holds until a test moves it or changes the connector.
   */
  const settled = () =>
    waitFor('every sync of the connector to be released and not due', async () => {
      const rows = await h.query(
        'SELECT count(*) AS n FROM cs_syncs WHERE connector_id = ? AND (lease_owner IS NOT NULL OR run_after <= ?)',
        id,
        at(clock.offset),
      );
      return Number(rows[0]?.n) === 0 ? true : undefined;
    });

  before(async () => {
    fake = await startGithubFake();
    fake.withholdPermissions('ces-demo', 'widgets', Object.keys(WITHHELD));
    fake.failNext({ match: '/repos/ces-demo/widgets/labels', status: 502, times: 1_000_000 });
    h = await startHarness(
      {
        CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: fake.url }),
        CES_SYNC_POLL_MS: '20',
        CES_SYNC_INTERVAL_SECONDS: String(INTERVAL_S),
      },
      { now: () => new Date(clock.now()) },
    );
    token = await h.token();
    const created = await createGithubConnector(h, token);
    assert.equal(created.status, 200, created.body);
    id = created.json.id;
    await h.deps.worker.start();
    await settled();
  });
  after(async () => {
    await h?.deps.worker.stop();
    await h?.close();
    await closeChecked(undefined, fake);
  });

  test('an entity that holds its first page is searchable while its siblings fail or retry', async () => {
    const labels = await entity('labels');
    assert.equal(labels.ready_for_search, false, 'labels never got a page');
    assert.notEqual(labels.status, 'Failed', 'a 502 is retried, not failed');
    const issues = await entity('issues');
    assert.equal(issues.ready_for_search, true);
    const res = await search('issues');
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.result.length, 25);
    // The sibling still answers 409, saying why.
    const early = await search('labels');
    assert.equal(early.status, 409, early.body);
    assert.equal(early.json.code, 'CONTEXT_STORE_NOT_READY');
    assert.equal(early.json.entity_status, labels.status);
    // Something is searchable, something is still on its way: the summary is Preview.
    const record = await h.inject({ method: 'GET', url: `/api/v1/integrations/connectors/${id}`, token });
    assert.equal(record.json.context_store.status, 'Preview');
  });

  test('a list answered 404 fails its entity at once, naming the permission to grant', async () => {
    const { context_store, warnings } = await inspect();
    const permissions = { pull_requests: '"Pull requests"', commits: '"Contents"', releases: '"Contents"' };
    for (const [part, name] of Object.entries(WITHHELD)) {
      const e = context_store.entities.find((x) => x.entity === name);
      assert.ok(e, name);
      assert.equal(e.status, 'Failed', `${name}: ${e.last_error}`);
      assert.equal(e.ready_for_search, false);
      assert.match(
        String(e.last_error),
        /^UPSTREAM_NOT_FOUND: GitHub found nothing for \w+\.list \(HTTP 404\)/,
      );
      assert.ok(String(e.last_error).includes(`repository permission ${permissions[name]} (read)`), name);
      assert.match(String(e.last_error), /classic token needs the repo scope/);
      // Tried once, and not again before the next interval.
      assert.equal(e.next_sync_at, at(INTERVAL_S * 1000), name);
      assert.equal(requestsTo(part), 1, part);
      assert.ok(
        warnings.some((w) => w.startsWith(`Entity '${name}' failed to sync: UPSTREAM_NOT_FOUND`)),
        `${name} in ${JSON.stringify(warnings)}`,
      );
    }
    // A 502 keeps the backoff: due again 5 s later, not Failed, with the reason shown meanwhile.
    const labels = context_store.entities.find((x) => x.entity === 'labels');
    assert.equal(labels?.next_sync_at, at(5000));
    assert.match(String(labels?.last_error), /^UPSTREAM_UNAVAILABLE/);
    assert.equal(warnings.length, 3, JSON.stringify(warnings));
  });

  test('refused entities wait for the interval, while transient failures are retried', async () => {
    clock.advance(60_000);
    h.deps.worker.notify();
    await settled();
    const labels = await entity('labels');
    assert.equal(labels.next_sync_at, at(60_000 + 10_000), 'the second backoff, 10 s');
    for (const part of Object.keys(WITHHELD)) assert.equal(requestsTo(part), 1, part);
  });

  test('new credentials make the refused entities due at once', async () => {
    const put = await h.inject({
      method: 'PUT',
      url: `/api/v1/integrations/connectors/${id}`,
      token,
      body: { credentials: { personal_access_token: 'ghp_test_token_0001' } },
    });
    assert.equal(put.status, 200, put.body);
    await settled();
    for (const [part, name] of Object.entries(WITHHELD)) {
      assert.equal(requestsTo(part), 2, part);
      assert.equal((await entity(name)).status, 'Failed');
    }
  });

  test('a replication_config change too, and the next interval; once the permission is granted they fill', async () => {
    const put = await h.inject({
      method: 'PUT',
      url: `/api/v1/integrations/connectors/${id}`,
      token,
      body: {
        replication_config: { repositories: ['ces-demo/widgets'], start_date: '2000-01-01T00:00:00Z' },
      },
    });
    assert.equal(put.status, 200, put.body);
    await settled();
    for (const part of Object.keys(WITHHELD)) assert.equal(requestsTo(part), 3, part);

    fake.withholdPermissions('ces-demo', 'widgets', []);
    clock.advance(INTERVAL_S * 1000);
    h.deps.worker.notify();
    await settled();
    for (const [part, name] of Object.entries(WITHHELD)) {
      assert.equal(requestsTo(part) > 3, true, part);
      const e = await entity(name);
      assert.equal(e.last_error, null, name);
      assert.equal(e.ready_for_search, true, name);
      assert.equal(e.status, 'Ready', name);
    }
    const pulls = await search('pull_requests');
    assert.equal(pulls.status, 200, pulls.body);
    assert.equal(pulls.json.result.length, 5);
  });
});
