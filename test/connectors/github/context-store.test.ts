// The Context Store through the HTTP API against the GitHub fake: states, backfill, search, incremental
// refresh, reconcile of deletions, pausing, failures, tenant isolation and clean-up.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { entityState as inspectEntity } from '../../helpers/context-store.ts';
import { waitFor } from '../../helpers/wait.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN } from './fake/index.ts';
import { createGithubConnector, type GithubFake, type Harness, startWithGithub } from './harness.ts';

const ISSUES_PATH = /^\/(repos\/ces-demo\/widgets|repositories\/\d+)\/issues\?/;

describe('context store sync and search (GitHub)', () => {
  let h: Harness;
  let fake: GithubFake;
  let close: () => Promise<unknown>;
  let token: string;
  let id: string;

  const inspect = (cid = id, t = token) =>
    h.inject({ method: 'GET', url: `/api/v1/integrations/connectors/${cid}/inspect`, token: t });
  const search = (params: Record<string, unknown>, entity = 'issues', cid = id, t = token) =>
    h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${cid}/execute`,
      token: t,
      body: { entity, action: 'search', params },
    });
  const entityState = (entity: string) => inspectEntity(h, token, id, entity);
  const issueNumbers = async (filter: unknown) => {
    const res = await search({
      query: { filter, sort: [{ number: 'asc' }] },
      limit: 1000,
      fields: ['number'],
    });
    assert.equal(res.status, 200, res.body);
    return (res.json.result as Array<{ number: number }>).map((r) => r.number);
  };

  before(async () => {
    ({ h, fake, close } = await startWithGithub(undefined, {
      CES_SYNC_POLL_MS: '20',
      // A refresh every second; a full (reconciling) pass at most every 3 s.
      CES_SYNC_INTERVAL_SECONDS: '1',
      CES_SYNC_FULL_INTERVAL_SECONDS: '3',
    }));
    token = await h.token();
    const res = await createGithubConnector(h, token);
    assert.equal(res.status, 200, res.body);
    id = res.json.id;
  });
  after(async () => {
    await h.deps.worker.stop();
    await close();
  });

  test('before anything is fetched: Loading, and search answers 409 CONTEXT_STORE_NOT_READY', async () => {
    const record = await h.inject({ method: 'GET', url: `/api/v1/integrations/connectors/${id}`, token });
    assert.deepEqual(record.json.context_store, { status: 'Loading', entity_count: 0 });
    const res = await inspect();
    assert.equal(res.json.context_store.status, 'Loading');
    const entities = res.json.context_store.entities.map((e: { entity: string }) => e.entity);
    assert.deepEqual(entities, [
      'repositories',
      'issues',
      'pull_requests',
      'comments',
      'commits',
      'releases',
      'labels',
      'users',
      'branches',
      'milestones',
      'org_repositories',
      'organizations',
      'pr_comments',
      'reviews',
      'stargazers',
      'tags',
      'teams',
      'discussions',
      'projects',
      'project_items',
      'viewer_repositories',
    ]);
    for (const e of res.json.context_store.entities) {
      assert.equal(e.status, 'Initializing');
      assert.equal(e.ready_for_search, false);
    }
    assert.equal(res.json.context_store_readiness.connector_id, id);
    assert.ok(
      res.json.context_store_readiness.supported_context_store_entities.some(
        (e: { entity: string; suggested: boolean }) => e.entity === 'issues' && e.suggested,
      ),
    );

    const early = await search({ query: { filter: { eq: { state: 'open' } } } });
    assert.equal(early.status, 409, early.body);
    assert.equal(early.json.code, 'CONTEXT_STORE_NOT_READY');
    assert.equal(early.json.context_store_status, 'Loading');
    assert.match(early.json.message, /list or get/);
    // The older action name is the same action.
    const alias = await h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token,
      body: { entity: 'issues', action: 'context_store_search', params: {} },
    });
    assert.equal(alias.status, 409);
  });

  test('the catalog says which entities are searchable, on which fields', async () => {
    const res = await h.inject({
      method: 'GET',
      url: '/api/v1/integrations/definitions/sources/ef69ef6e-aa7f-4af1-a01d-ef775033524e',
      token,
    });
    assert.equal(res.status, 200, res.body);
    const issues = res.json.entities.find((e: { name: string }) => e.name === 'issues');
    assert.equal(issues.context_store.suggested, true);
    assert.deepEqual(issues.context_store.search_actions, ['search', 'context_store_search']);
    assert.ok(
      issues.context_store.fields.some(
        (f: { name: string; type: string }) => f.name === 'title' && f.type === 'string',
      ),
    );
    // A get-only entity has nothing the sync could page through.
    const viewer = res.json.entities.find((e: { name: string }) => e.name === 'viewer');
    assert.equal(viewer.context_store, null);
  });

  test('the backfill makes every entity Ready with the provider’s counts', async () => {
    await h.deps.worker.start();
    const res = await waitFor('Ready', async () => {
      const r = await inspect();
      return r.json.context_store.status === 'Ready' ? r : undefined;
    });
    const byEntity = Object.fromEntries(
      res.json.context_store.entities.map((e: { entity: string; entity_count: number }) => [e.entity, e]),
    );
    // The fake's ces-demo/widgets: 25 issues (5 of them pull requests), 40 commits, 3 releases, 6 labels.
    assert.equal(byEntity.issues.entity_count, 25);
    assert.equal(byEntity.pull_requests.entity_count, 5);
    assert.equal(byEntity.commits.entity_count, 40);
    assert.equal(byEntity.releases.entity_count, 3);
    assert.equal(byEntity.labels.entity_count, 6);
    // Its branches (main, release/1.x), the tags of its three releases, and milestones v1.0, v1.1 and v2.0.
    assert.equal(byEntity.branches.entity_count, 2);
    assert.equal(byEntity.tags.entity_count, 3);
    assert.equal(byEntity.milestones.entity_count, 3);
    // Through GraphQL: its 7 discussions, and the token user's repositories Hello-World and Spoon-Knife.
    assert.equal(byEntity.discussions.entity_count, 7);
    assert.equal(byEntity.viewer_repositories.entity_count, 2);
    for (const e of res.json.context_store.entities) {
      assert.equal(e.ready_for_search, true);
      assert.equal(e.last_error, null);
      assert.ok(e.backfilled_at);
    }
    const record = await h.inject({ method: 'GET', url: `/api/v1/integrations/connectors/${id}`, token });
    // 96, and the 2 stargazers of ces-demo/widgets; the entities whose replication_config keys are unset index nothing.
    assert.deepEqual(record.json.context_store, { status: 'Ready', entity_count: 98 });
    const listed = await h.inject({
      method: 'GET',
      url: '/api/v1/integrations/connectors?workspace_name=default',
      token,
    });
    assert.equal(listed.json.data[0].context_store.status, 'Ready');
  });

  test('search returns the provider’s records, filtered, sorted, projected and paged', async () => {
    // The indexed record is the one `list` returns (GitHub's `get` adds members such as closed_by).
    const live = await h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token,
      body: {
        entity: 'issues',
        action: 'list',
        params: { owner: 'ces-demo', repo: 'widgets', state: 'all', per_page: 100 },
      },
    });
    const listed = live.json.result.find((r: { number: number }) => r.number === 3);
    const indexed = await search({ query: { filter: { eq: { number: 3 } } } });
    assert.equal(indexed.status, 200, indexed.body);
    assert.equal(indexed.json.result.length, 1);
    assert.deepEqual(indexed.json.result[0], listed);
    assert.equal(indexed.json.connector_metadata.has_next_page, false);
    assert.equal(indexed.json.connector_metadata.end_cursor, null);
    assert.ok(Number.isInteger(indexed.json.connector_metadata.took_ms), indexed.body);
    assert.equal(indexed.json.execution_metadata.connector_instance_id, `source_id:${id}`);

    const open = await issueNumbers({ eq: { state: 'open' } });
    const closed = await issueNumbers({ neq: { state: 'open' } });
    assert.equal(open.length + closed.length, 25);
    assert.ok(open.length > 0 && closed.length > 0);

    // Paging with the cursor walks the same ordered set without gaps or repeats.
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await search({
        query: { sort: [{ number: 'desc' }] },
        limit: 7,
        fields: [['number'], ['title']],
        ...(cursor ? { cursor } : {}),
      });
      assert.equal(res.status, 200, res.body);
      for (const r of res.json.result) assert.deepEqual(Object.keys(r).sort(), ['number', 'title']);
      seen.push(...res.json.result.map((r: { number: number }) => r.number));
      cursor = res.json.connector_metadata.end_cursor ?? undefined;
      pages++;
    } while (cursor);
    assert.equal(pages, 4);
    assert.deepEqual(
      seen,
      Array.from({ length: 25 }, (_, i) => 25 - i),
    );

    const title = (indexed.json.result[0] as { title: string }).title;
    const words = title.split(/[^A-Za-z0-9]+/).filter(Boolean);
    const fuzzy = await issueNumbers({ fuzzy: { title: words.slice(0, 2).join(' ').toUpperCase() } });
    assert.ok(fuzzy.includes(3), `fuzzy on "${title}"`);
    const reversed = await issueNumbers({ fuzzy: { title: [...words.slice(0, 2)].reverse().join(' ') } });
    assert.ok(!reversed.includes(3) || words[0] === words[1], 'fuzzy keeps the words in order');

    const exclude = await h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token,
      body: {
        entity: 'labels',
        action: 'search',
        params: { query: {} },
        select_fields: ['name'],
      },
    });
    assert.equal(exclude.status, 200, exclude.body);
    assert.equal(exclude.json.result.length, 6);
    for (const r of exclude.json.result) assert.deepEqual(Object.keys(r), ['name']);
  });

  test('bad searches are 422s that name the problem', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ query: { filter: { eq: { nope: 1 } } } }, 'INVALID_QUERY', /nope/],
      [{ query: { filter: { near: { title: 'x' } } } }, 'INVALID_QUERY', /near/],
      [{ query: { filter: { eq: { number: 'three' } } } }, 'INVALID_QUERY', /number/],
      [{ query: { sort: [{ body: 'asc' }] } }, 'INVALID_QUERY', /body/],
      [{ query: { filter: {}, group: 1 } }, 'INVALID_QUERY', /group/],
      [{ query: {}, limit: 0 }, 'INVALID_PARAMS', /limit/],
      [{ query: {}, page: 2 }, 'INVALID_PARAMS', /page/],
      [{ query: {}, cursor: 'forged.cursor' }, 'INVALID_CURSOR', /cursor/],
    ];
    for (const [params, code, pattern] of cases) {
      const res = await search(params);
      assert.equal(res.status, 422, `${JSON.stringify(params)} → ${res.body}`);
      assert.equal(res.json.code, code, res.body);
      assert.match(res.body, pattern);
    }
    // A cursor of one query does not continue another.
    const first = await search({ query: { sort: [{ number: 'asc' }] }, limit: 5 });
    const other = await search({
      query: { sort: [{ number: 'desc' }] },
      limit: 5,
      cursor: first.json.connector_metadata.end_cursor,
    });
    assert.equal(other.status, 422);
    assert.equal(other.json.code, 'INVALID_CURSOR');
    const unknownEntity = await search({ query: {} }, 'gists');
    assert.equal(unknownEntity.status, 422);
    assert.equal(unknownEntity.json.code, 'UNKNOWN_ENTITY');
    const notIndexed = await search({ query: {} }, 'file_content');
    assert.equal(notIndexed.status, 422);
    assert.match(notIndexed.json.message, /not indexed/);
  });

  test('an incremental refresh picks up edited and new issues, asking only for what changed', async () => {
    // The newest change the backfill saw (on SQLite found where the pages are decoded, the writer thread).
    const newest = await search({
      query: { sort: [{ updated_at: 'desc' }] },
      limit: 1,
      fields: ['updated_at'],
    });
    assert.equal(newest.status, 200, newest.body);
    const high = (newest.json.result as Array<{ updated_at: string }>)[0]?.updated_at;
    assert.ok(high);
    const edited = fake.updateIssue('ces-demo', 'widgets', 4, { title: 'Quasar flux capacitor meltdown' });
    const added = fake.addIssue('ces-demo', 'widgets', { title: 'Brand new zeppelin report' });
    const found = await waitFor('the edit and the new issue', async () => {
      const a = await issueNumbers({ fuzzy: { title: 'quasar meltdown' } });
      const b = await issueNumbers({ keyword: { title: 'zeppelin' } });
      return a.length === 1 && b.length === 1 ? [a[0], b[0]] : undefined;
    });
    assert.deepEqual(found, [edited.number, added.number]);
    const since = fake.requests.filter((r) => ISSUES_PATH.test(r.path) && r.path.includes('since='));
    assert.ok(since.length > 0, 'a refresh sends the since bound');
    // The first refresh asks from the newest change the backfill saw.
    const bound = new URL(since[0]!.path, 'http://fake.invalid').searchParams.get('since');
    assert.equal(bound && new Date(bound).toISOString(), new Date(high).toISOString());
  });

  test('a full pass removes what the provider no longer has', async () => {
    fake.deleteIssue('ces-demo', 'widgets', 2);
    await waitFor('the deletion to reach the index', async () =>
      (await issueNumbers({ eq: { number: 2 } })).length === 0 ? true : undefined,
    );
    const state = await waitFor('the count', async () => {
      const s = await entityState('issues');
      return s?.entity_count === 25 ? s : undefined; // 25 + 1 added - 1 deleted
    });
    assert.equal(state.status, 'Ready');
    assert.ok(state.updated_at);
  });

  test('an inactive workspace pauses its syncs; reactivating resumes them', async () => {
    const ws = (await h.inject({ method: 'GET', url: '/api/v1/workspaces?name_contains=default', token }))
      .json.data[0];
    const off = await h.inject({
      method: 'PUT',
      url: `/api/v1/workspaces/${ws.id}`,
      token,
      body: { status: 'inactive' },
    });
    assert.equal(off.status, 200, off.body);
    await new Promise((r) => setTimeout(r, 400)); // let a pass that was already running finish
    const before = fake.requests.length;
    fake.updateIssue('ces-demo', 'widgets', 5, { title: 'Paused walrus gearbox' });
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(fake.requests.length, before, 'no upstream call while the workspace is inactive');
    const on = await h.inject({
      method: 'PUT',
      url: `/api/v1/workspaces/${ws.id}`,
      token,
      body: { status: 'active' },
    });
    assert.equal(on.status, 200, on.body);
    await waitFor('the paused change', async () =>
      (await issueNumbers({ fuzzy: { title: 'walrus gearbox' } })).length === 1 ? true : undefined,
    );
  });

  test('a rate limit delays the sync; an authentication failure marks it Failed with the reason', async () => {
    fake.failNext({
      match: '/repos/ces-demo/widgets/releases',
      status: 429,
      headers: { 'retry-after': '1', 'x-ratelimit-remaining': '0' },
      body: { message: 'API rate limit exceeded', documentation_url: 'https://docs.github.com/rest' },
    });
    fake.failNext({
      match: '/repos/ces-demo/widgets/labels',
      times: 100,
      status: 401,
      body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' },
    });
    const labels = await waitFor('labels to fail', async () => {
      const s = await entityState('labels');
      return s?.status === 'Failed' ? s : undefined;
    });
    assert.match(String(labels.last_error), /UPSTREAM_AUTH_FAILED/);
    assert.ok(!String(labels.last_error).includes(GITHUB_FAKE_DEFAULT_TOKEN));
    assert.equal(labels.ready_for_search, true, 'what was indexed stays searchable');
    const releases = await waitFor('releases to refresh past the 429', async () => {
      const n = fake.requests.filter((r) => r.path.startsWith('/repos/ces-demo/widgets/releases')).length;
      const s = await entityState('releases');
      return n >= 3 && s?.status !== 'Failed' ? s : undefined;
    });
    assert.equal(releases.last_error, null);
    const stillSearchable = await search({ query: {} }, 'labels');
    assert.equal(stillSearchable.status, 200);
    assert.equal(stillSearchable.json.result.length, 6);
  });

  test('other organizations and other workspaces can neither inspect nor search', async () => {
    const other = await h.otherOrg();
    const foreignInspect = await inspect(id, other.token);
    assert.equal(foreignInspect.status, 404);
    assert.equal(foreignInspect.json.code, 'CONNECTOR_NOT_FOUND');
    const foreignSearch = await search({ query: {} }, 'issues', id, other.token);
    assert.equal(foreignSearch.status, 404);
    const scoped = await h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/scoped-token',
      token,
      body: { workspace_name: 'elsewhere' },
    });
    assert.equal(scoped.status, 200, scoped.body);
    const scopedInspect = await inspect(id, scoped.json.token);
    assert.equal(scopedInspect.status, 403);
    const anonymous = await h.inject({ method: 'GET', url: `/api/v1/integrations/connectors/${id}/inspect` });
    assert.equal(anonymous.status, 401);
  });

  test("deleting a workspace removes its connectors' indexes and syncs", async () => {
    const count = async (sql: string, ...params: unknown[]) =>
      Number(Object.values((await h.query(sql, ...params))[0] ?? { n: -1 })[0]);
    // Workspaces come into being through the scoped-token mint.
    const minted = await h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/scoped-token',
      token,
      body: { workspace_name: 'doomed' },
    });
    assert.equal(minted.status, 200, minted.body);
    const created = await createGithubConnector(h, token, { workspace_name: 'doomed', name: 'doomed' });
    assert.equal(created.status, 200, created.body);
    const doomed = created.json.id as string;
    const key = await count('SELECT connector_key FROM cs_connectors WHERE connector_id = ?', doomed);
    const rows = (table: string) => count(`SELECT count(*) FROM ${table} WHERE connector_key = ?`, key);
    await waitFor('the doomed connector indexed', async () =>
      (await rows('cs_github__issues')) > 0 ? true : undefined,
    );
    const ws = (await h.inject({ method: 'GET', url: '/api/v1/workspaces?name_contains=doomed', token })).json
      .data[0];
    const del = await h.inject({ method: 'DELETE', url: `/api/v1/workspaces/${ws.id}`, token });
    assert.equal(del.status, 200, del.body);
    for (const table of ['cs_github__issues', 'cs_github__commits', 'cs_github__labels']) {
      assert.equal(await rows(table), 0, table);
    }
    assert.equal(await count('SELECT count(*) FROM cs_syncs WHERE connector_id = ?', doomed), 0, 'cs_syncs');
  });

  test('deleting the connector removes its index and its syncs', async () => {
    // Read straight from the database, as an operator would: nothing of the connector may remain.
    const count = async (sql: string, ...params: unknown[]) =>
      Number(Object.values((await h.query(sql, ...params))[0] ?? { n: -1 })[0]);
    const key = await count('SELECT connector_key FROM cs_connectors WHERE connector_id = ?', id);
    const rows = (table: string) => count(`SELECT count(*) FROM ${table} WHERE connector_key = ?`, key);
    assert.ok((await rows('cs_github__issues')) > 0);
    const del = await h.inject({ method: 'DELETE', url: `/api/v1/integrations/connectors/${id}`, token });
    assert.equal(del.status, 202, del.body);
    for (const table of ['cs_github__issues', 'cs_github__commits', 'cs_github__labels']) {
      assert.equal(await rows(table), 0, table);
    }
    assert.equal(await count('SELECT count(*) FROM cs_syncs WHERE connector_id = ?', id), 0, 'cs_syncs');
    assert.equal(
      await count('SELECT count(*) FROM cs_connectors WHERE connector_id = ?', id),
      0,
      'cs_connectors',
    );
    // SQLite keeps full text in a table of its own (PostgreSQL in the rows deleted above).
    if (h.database === 'sqlite') {
      const fts = await count(
        "SELECT count(*) FROM cs_github__issues__fts WHERE cs_github__issues__fts MATCH 'zeppelin'",
      );
      assert.equal(fts, 0, 'the full-text rows went too');
    }
  });
});
