// `limit` on a collection action, the hosted service's page size: it sets the action's page-size param (GitHub's
// per_page), is clamped to that param's maximum, clashes with the param itself, and caps the records of a page
// where no param sets the page size (Gong's fixed pages), end_cursor resuming inside the provider's page.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createGithubConnector, type GithubFake, startWithGithub } from '../connectors/github/harness.ts';
import {
  GONG_FAKE_ACCESS_KEY,
  GONG_FAKE_ACCESS_KEY_SECRET,
  type GongFake,
  startGongFake,
} from '../connectors/gong/fake/index.ts';
import { type ConnectorApi, connectorApi } from '../helpers/connector-api.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { assertError } from './assertions.ts';

type Exec = ConnectorApi['exec'];

describe('limit sets the page-size param (GitHub per_page)', () => {
  let h: Harness;
  let fake: GithubFake;
  let close: () => Promise<unknown>;
  let exec: Exec;

  before(async () => {
    ({ h, fake, close } = await startWithGithub());
    fake.seedIssues('ces-demo', 'widgets', 5);
    const token = await h.token();
    const created = await createGithubConnector(h, token);
    assert.equal(created.status, 200, created.body);
    exec = connectorApi(h, token, created.json.id).exec;
  });
  after(() => close());

  const issueRequests = () => fake.requests.filter((r) => /\/issues(\?|$)/.test(r.path));

  test('is sent as per_page, the page holds at most limit records, and end_cursor goes on', async () => {
    const before = issueRequests().length;
    const first = await exec('issues', 'list', {
      owner: 'ces-demo',
      repo: 'widgets',
      limit: 2,
      state: 'all',
    });
    assert.equal(first.status, 200, first.body);
    const sent = new URL(issueRequests()[before]?.path ?? '', 'http://x');
    assert.equal(sent.searchParams.get('per_page'), '2');
    assert.equal(first.json.result.length, 2);
    assert.equal(first.json.connector_metadata.has_next_page, true);
    const second = await exec('issues', 'list', { cursor: first.json.connector_metadata.end_cursor });
    assert.equal(second.status, 200, second.body);
    assert.equal(second.json.result.length, 2);
    const ids = [...first.json.result, ...second.json.result].map((i: { id: number }) => i.id);
    assert.equal(new Set(ids).size, 4);
  });

  test('above the maximum it is clamped to it, not refused', async () => {
    const before = issueRequests().length;
    const res = await exec('issues', 'list', { owner: 'ces-demo', repo: 'widgets', limit: 5000 });
    assert.equal(res.status, 200, res.body);
    const sent = new URL(issueRequests()[before]?.path ?? '', 'http://x');
    assert.equal(sent.searchParams.get('per_page'), '100');
    // Given under its own name the provider's bound still holds.
    const own = await exec('issues', 'list', { owner: 'ces-demo', repo: 'widgets', per_page: 5000 });
    assertError(own, 422, 'INVALID_PARAMS');
  });

  test('beside the page-size param itself, or not a positive integer, it is a 422 and nothing is sent', async () => {
    const before = fake.requests.length;
    const both = await exec('issues', 'list', { owner: 'ces-demo', repo: 'widgets', limit: 2, per_page: 3 });
    assertError(both, 422, 'INVALID_PARAMS');
    assert.match(both.json.message, /'limit' and 'per_page' both give the page size/);
    assert.equal(both.json.errors[0].field, 'params.limit');
    for (const bad of [0, -1, 1.5, 'ten', true, [1]]) {
      const res = await exec('issues', 'list', { owner: 'ces-demo', repo: 'widgets', limit: bad });
      assertError(res, 422, 'INVALID_PARAMS');
      assert.match(res.json.message, /'limit' must be a positive integer/, JSON.stringify(bad));
    }
    // A decimal string is a number, as for integer params.
    const asString = await exec('issues', 'list', { owner: 'ces-demo', repo: 'widgets', limit: '1' });
    assert.equal(asString.status, 200, asString.body);
    assert.equal(asString.json.result.length, 1);
    assert.equal(fake.requests.length, before + 1);
  });

  test('the catalog and describe show limit with what it is sent as', async () => {
    const token = await h.token();
    const detail = await h.inject({
      method: 'GET',
      url: '/api/v1/integrations/definitions/sources/ef69ef6e-aa7f-4af1-a01d-ef775033524e',
      token,
    });
    assert.equal(detail.status, 200, detail.body);
    const issues = detail.json.entities.find((e: { name: string }) => e.name === 'issues');
    const list = issues.actions.find((a: { name: string }) => a.name === 'list');
    const limit = list.params.find((p: { name: string }) => p.name === 'limit');
    assert.equal(limit.type, 'integer');
    assert.equal(limit.required, false);
    assert.match(limit.description, /sent as per_page \(at most 100; a larger limit is clamped to 100\)/);
    const get = issues.actions.find((a: { name: string }) => a.name === 'get');
    assert.equal(
      get.params.some((p: { name: string }) => p.name === 'limit'),
      false,
    );
    const described = await exec('issues', 'describe', {});
    assert.equal(described.status, 200, described.body);
    const dlist = described.json.result.entities[0].actions.find(
      (a: { action: string }) => a.action === 'list',
    );
    assert.ok(dlist.params.some((p: { name: string }) => p.name === 'limit'));
  });
});

describe('limit caps the records where the provider sets the page size (Gong)', () => {
  let h: Harness;
  let fake: GongFake;
  let exec: Exec;
  const USERS = 11;

  before(async () => {
    fake = await startGongFake({ pageSize: 5, users: USERS, calls: 3 });
    h = await startHarness({
      CES_UPSTREAM_OVERRIDES: JSON.stringify({ gong: fake.url }),
      CES_RATE_LIMIT_OVERRIDES: JSON.stringify({ gong: null }),
      CES_SYNC_ENABLED: 'false',
    });
    const token = await h.token();
    const created = await h.inject({
      method: 'POST',
      url: '/api/v1/integrations/connectors',
      token,
      body: {
        workspace_name: 'default',
        connector_type: 'gong',
        name: 'gong',
        credentials: { access_key: GONG_FAKE_ACCESS_KEY, access_key_secret: GONG_FAKE_ACCESS_KEY_SECRET },
      },
    });
    assert.equal(created.status, 200, created.body);
    exec = connectorApi(h, token, created.json.id).exec;
  });
  after(async () => {
    await h?.close();
    await fake?.close();
  });

  test('every page answers at most limit, and the cursors walk every record exactly once', async () => {
    const all = await exec('users', 'list', {});
    assert.equal(all.status, 200, all.body);
    assert.equal(all.json.result.length, 5, 'the fake pages by 5');
    const seen: string[] = [];
    let page = await exec('users', 'list', { limit: 2 });
    const sizes: number[] = [];
    for (let i = 0; i < 20; i++) {
      assert.equal(page.status, 200, page.body);
      sizes.push(page.json.result.length);
      seen.push(...page.json.result.map((u: { id: string }) => u.id));
      if (!page.json.connector_metadata.has_next_page) break;
      page = await exec('users', 'list', { cursor: page.json.connector_metadata.end_cursor });
    }
    // Gong's pages of 5 (5, 5, 1) answered 2 at a time within each: 2, 2, 1 | 2, 2, 1 | 1.
    assert.deepEqual(sizes, [2, 2, 1, 2, 2, 1, 1]);
    assert.equal(seen.length, USERS);
    assert.equal(new Set(seen).size, USERS);
    // Gong was never sent a page size: it has none.
    assert.ok(
      fake.requests.every((r) => !/limit|size/i.test(r.path)),
      JSON.stringify(fake.requests.map((r) => r.path)),
    );
  });

  test('an unpaged list is cut to limit, with no next page', async () => {
    const res = await exec('workspaces', 'list', { limit: 1 });
    assert.equal(res.status, 200, res.body);
    assert.ok(res.json.result.length <= 1);
    assert.equal(res.json.connector_metadata.has_next_page, false);
  });
});
