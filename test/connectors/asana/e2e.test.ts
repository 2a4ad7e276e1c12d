// Asana end to end through the HTTP API, against the Asana fake (test/connectors/asana/fake): the credential
// check with GET /users/me, a list paged by Asana's offset tokens to its end, gets, a task written and read back,
// an attachment larger than 10 MB streamed from the file storage without the Asana credential, Asana's refusals
// and rate limit, the OAuth2.0 refresh at /-/oauth_token, and the Context Store filled, searched and refreshed
// by modified_since.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type ConnectorApi,
  closeAll,
  connectorApi,
  createConnector,
  INCREMENTAL_SYNC_ENV,
  startSyncing,
  startWithFake,
} from '../../helpers/connector-api.ts';
import type { Harness } from '../../helpers/harness.ts';
import { hostedConnector } from '../../helpers/hosted-catalog.ts';
import { waitFor } from '../../helpers/wait.ts';
import { assertError } from '../../http/assertions.ts';
import { MISSING_GID } from './cases.ts';
import type { Project, Task } from './fake/dataset.ts';
import {
  ASANA_FAKE_CLIENT_ID,
  ASANA_FAKE_CLIENT_SECRET,
  ASANA_FAKE_PAT,
  ASANA_TOKEN_PATH,
  type AsanaFake,
  type RecordedRequest,
  startAsanaFake,
} from './fake/index.ts';

const ASANA_ID = 'd0243522-dccf-4978-8ba0-37ed47a0bdbf';

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON records
type Json = Record<string, any>;

const route = (r: RecordedRequest) => `${r.method} ${r.path.split('?')[0]}`;
const query = (r: RecordedRequest) => new URL(r.path, 'http://x').searchParams;
const bearer = (r: RecordedRequest) => String(r.headers.authorization ?? '').replace(/^Bearer /, '');

/** The harness pointed at the fake (API and file storage), with one application token. */
const start = (fake: AsanaFake, env: Record<string, string> = {}) =>
  startWithFake('asana', fake.url, { CES_EGRESS_ALLOW: new URL(fake.storage.origin).host, ...env });

const createAsana = (h: Harness, token: string, credentials: Record<string, unknown>) =>
  createConnector(h, token, { definition_id: ASANA_ID, credentials });

describe('Asana through the HTTP API (Personal Access Token)', () => {
  let fake: AsanaFake;
  let h: Harness;
  let token: string;
  let api: ConnectorApi;
  let p0: Project;

  before(async () => {
    fake = await startAsanaFake();
    p0 = fake.data.projects[0] as Project;
    ({ h, token } = await start(fake));
  });
  after(() => closeAll(h, fake));

  test('every entity-action of the hosted catalog is declared; the search’s dotted names included', async () => {
    const res = await h.inject({
      method: 'GET',
      url: `/api/v1/integrations/definitions/sources/${ASANA_ID}`,
      token,
    });
    assert.equal(res.status, 200, res.body);
    const accepted = new Map<string, Set<string>>();
    for (const e of res.json.entities as Array<{ name: string; actions: Json[] }>)
      for (const a of e.actions) {
        const names = new Set<string>(['offset', 'limit']);
        for (const p of a.params as Json[]) for (const n of [p.name, ...(p.aliases ?? [])]) names.add(n);
        accepted.set(`${e.name}.${a.name}`, names);
      }
    const unaccepted: string[] = [];
    const hosted = hostedConnector('asana');
    for (const [entity, actions] of Object.entries(hosted.entities))
      for (const [action, { params }] of Object.entries(actions)) {
        const names = accepted.get(`${entity}.${action}`);
        assert.ok(names, `${entity}.${action} is missing`);
        for (const p of params) if (!names.has(p)) unaccepted.push(`${entity}.${action}:${p}`);
      }
    // The search's dotted names (assignee.any, …) are aliases of ours (assignee_any, …).
    assert.deepEqual(unaccepted, []);
  });

  test('a token Asana refuses is INVALID_CREDENTIALS at create, after GET /users/me answered 401', async () => {
    const res = await createAsana(h, token, {
      personal_access_token: '2/1/2:0000deadbeef0000deadbeef00000000',
    });
    assertError(res, 422, 'INVALID_CREDENTIALS');
    const check = fake.requests.at(-1) as RecordedRequest;
    assert.equal(route(check), 'GET /api/1.0/users/me');
    assert.doesNotMatch(res.body, /deadbeef/);
  });

  test('create checks the personal access token with GET /users/me as Bearer', async () => {
    const before = fake.requests.length;
    const res = await createAsana(h, token, { token: ASANA_FAKE_PAT });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.credential_option, 'Personal Access Token');
    api = connectorApi(h, token, res.json.id);
    const [check] = fake.requests.slice(before) as [RecordedRequest];
    assert.equal(check.path, '/api/1.0/users/me');
    assert.equal(check.headers.authorization, `Bearer ${ASANA_FAKE_PAT}`);
  });

  test("tasks.list pages by Asana's offset token to the end; offset is the hosted catalog's name for the cursor", async () => {
    const before = fake.requests.length;
    const first = await api.exec('tasks', 'list', {
      project: p0.gid,
      limit: 20,
      opt_fields: ['name', 'modified_at'],
    });
    assert.equal(first.status, 200, first.body);
    assert.equal(first.json.result.length, 20);
    assert.deepEqual(Object.keys(first.json.result[0]).sort(), ['gid', 'modified_at', 'name']);
    const second = await api.exec('tasks', 'list', { offset: first.json.connector_metadata.end_cursor });
    const pages = [first.json, second.json];
    let meta = second.json.connector_metadata;
    while (meta.has_next_page) {
      const next = await api.exec('tasks', 'list', { cursor: meta.end_cursor });
      assert.equal(next.status, 200, next.body);
      pages.push(next.json);
      meta = next.json.connector_metadata;
    }
    const gids = pages.flatMap((p) => p.result.map((t: Json) => t.gid));
    assert.deepEqual(
      gids,
      fake.data.tasksOfProject(p0.gid).map((t) => t.gid),
    );
    assert.equal(pages.length, 3);
    const sent = fake.requests.slice(before);
    assert.deepEqual(sent.map(route), Array(3).fill('GET /api/1.0/tasks'));
    assert.equal(query(sent[0] as RecordedRequest).get('offset'), null);
    for (let i = 1; i < sent.length; i++) {
      const previous = JSON.parse((sent[i - 1] as RecordedRequest).response?.body ?? '{}');
      assert.equal(query(sent[i] as RecordedRequest).get('offset'), previous.next_page.offset);
      assert.equal(query(sent[i] as RecordedRequest).get('project'), p0.gid);
      assert.equal(query(sent[i] as RecordedRequest).get('limit'), '20');
      assert.equal(query(sent[i] as RecordedRequest).get('opt_fields'), 'name,modified_at');
    }
    // Without a limit ces still asks for pages of 100: Asana does not page a request without one.
    await api.exec('users', 'list', {});
    assert.equal(query(fake.requests.at(-1) as RecordedRequest).get('limit'), '100');
  });

  test('gets answer the full record: a task, a project, a user by email and "me"', async () => {
    const task = fake.data.tasksOfProject(p0.gid)[1] as Task;
    const got = await api.exec('tasks', 'get', { task_gid: task.gid });
    assert.equal(got.status, 200, got.body);
    assert.equal(got.json.result.name, task.name);
    assert.equal(got.json.result.memberships[0].project.gid, p0.gid);
    assert.equal(got.json.result.dependencies.length, 7);
    const project = await api.exec('projects', 'get', {
      project_gid: p0.gid,
      opt_fields: ['name', 'team.name'],
    });
    assert.deepEqual(project.json.result, {
      gid: p0.gid,
      name: p0.name,
      team: { gid: p0.team, name: fake.data.team(p0.team as string)?.name },
    });
    const person = fake.data.users[3];
    const byEmail = await api.exec('users', 'get', { user_gid: person?.email });
    assert.equal(byEmail.json.result.gid, person?.gid);
    const me = await api.exec('users', 'get', { user_gid: 'me' });
    assert.equal(me.json.result.gid, fake.data.me.gid);
  });

  test('a task created in a project reads back with its notes, update and comment; then it is deleted', async () => {
    const created = await api.exec('tasks', 'create', {
      data: { name: 'Draft the launch post', projects: [p0.gid], notes: 'Two paragraphs.', assignee: 'me' },
    });
    assert.equal(created.status, 200, created.body);
    const sent = fake.requests.at(-1) as RecordedRequest;
    assert.equal(route(sent), 'POST /api/1.0/tasks');
    assert.deepEqual(JSON.parse(sent.body), {
      data: { name: 'Draft the launch post', projects: [p0.gid], notes: 'Two paragraphs.', assignee: 'me' },
    });
    const gid = created.json.result.gid as string;
    const updated = await api.exec('tasks', 'update', { task_gid: gid, data: { completed: true } });
    assert.equal(updated.status, 200, updated.body);
    assert.equal(route(fake.requests.at(-1) as RecordedRequest), `PUT /api/1.0/tasks/${gid}`);
    const comment = await api.exec('task_stories', 'create', { task_gid: gid, data: { text: 'Posted.' } });
    assert.equal(comment.json.result.text, 'Posted.');
    const read = await api.exec('tasks', 'get', { task_gid: gid });
    assert.equal(read.json.result.name, 'Draft the launch post');
    assert.equal(read.json.result.notes, 'Two paragraphs.');
    assert.equal(read.json.result.completed, true);
    assert.equal(read.json.result.assignee.gid, fake.data.me.gid);
    const listed = await api.pages('project_tasks', 'list', { project_gid: p0.gid });
    assert.ok(listed.flatMap((p) => p.result).some((t: Json) => t.gid === gid));
    const deleted = await api.exec('tasks', 'delete', { task_gid: gid });
    assert.deepEqual(deleted.json.result, {});
    assertError(await api.exec('tasks', 'get', { task_gid: gid }), 404, 'UPSTREAM_NOT_FOUND');
  });

  test('an attachment over 10 MB streams from the file storage with its exact bytes, never with the Asana token', async () => {
    const big = fake.data.attachments.find((a) => a.size > 10 * 1024 * 1024);
    assert.ok(big?.key);
    const before = fake.storage.requests.length;
    const res = await api.exec('attachments', 'download', { attachment_gid: big.gid });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.raw.length, big.size);
    assert.ok(res.raw.equals(fake.storage.bytesOf(big.key)), 'the stored bytes');
    assert.equal(String(res.headers['content-type']), 'video/mp4');
    assert.equal(route(fake.requests.at(-1) as RecordedRequest), `GET /api/1.0/attachments/${big.gid}`);
    const fetched = fake.storage.requests.slice(before);
    assert.equal(fetched.length, 1);
    assert.equal(fetched[0]?.headers.authorization, undefined, 'the storage host never sees the credential');
    const ranged = await api.exec(
      'attachments',
      'download',
      { attachment_gid: big.gid },
      { range: 'bytes=10-19' },
    );
    assert.equal(ranged.status, 206, ranged.body);
    assert.ok(ranged.raw.equals(fake.storage.bytesOf(big.key).subarray(10, 20)));
    // An attachment linked from another service has no download_url.
    const linked = fake.data.attachments.find((a) => a.host === 'gdrive');
    assertError(
      await api.exec('attachments', 'download', { attachment_gid: linked?.gid }),
      404,
      'UPSTREAM_NOT_FOUND',
    );
  });

  test("Asana's refusals keep its message; 402 on search is a permission with its hint; a long Retry-After goes to the client", async () => {
    const missing = await api.exec('projects', 'get', { project_gid: MISSING_GID });
    assertError(missing, 404, 'UPSTREAM_NOT_FOUND');
    assert.match(missing.json.message, new RegExp(`project_gid: Unknown object: ${MISSING_GID}`));
    assert.deepEqual(Object.keys(missing.json.upstream.body), ['errors']);
    const side = fake.data.workspaces[1];
    const search = await api.exec('workspace_task_search', 'list', { workspace_gid: side?.gid, text: 'x' });
    assertError(search, 424, 'UPSTREAM_FORBIDDEN');
    assert.match(search.json.message, /premium/);
    const found = await api.exec('workspace_task_search', 'list', {
      workspace_gid: fake.data.workspaces[0]?.gid,
      text: 'step 3',
      sort_by: 'created_at',
      sort_ascending: true,
      projects_any: p0.gid,
    });
    assert.equal(found.status, 200, found.body);
    assert.ok(found.json.result.length >= 1);
    assert.equal(query(fake.requests.at(-1) as RecordedRequest).get('projects.any'), p0.gid);
    fake.failNext({ status: 429, match: '/api/1.0/workspaces', headers: { 'Retry-After': '120' } });
    const mark = fake.requests.length;
    const limited = await api.exec('workspaces', 'list', {});
    assertError(limited, 429, 'UPSTREAM_RATE_LIMITED');
    assert.equal(limited.headers['retry-after'], '120');
    assert.equal(fake.requests.length - mark, 1, 'a wait that long is the client’s');
  });
});

describe('Asana OAuth 2 through the HTTP API', () => {
  let fake: AsanaFake;
  let h: Harness;
  let token: string;
  let api: ConnectorApi;
  const oauth = (values: Record<string, string>) => ({
    client_id: ASANA_FAKE_CLIENT_ID,
    client_secret: ASANA_FAKE_CLIENT_SECRET,
    ...values,
  });

  before(async () => {
    fake = await startAsanaFake();
    ({ h, token } = await start(fake));
  });
  after(() => closeAll(h, fake));

  test('create with only a refresh token: ces renews it at /-/oauth_token (form, client in the body), then checks', async () => {
    const grant = fake.oauth.grant();
    const res = await createAsana(h, token, oauth({ refresh_token: grant.refresh_token }));
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.credential_option, 'OAuth 2');
    api = connectorApi(h, token, res.json.id);
    assert.deepEqual(fake.requests.map(route), [`POST ${ASANA_TOKEN_PATH}`, 'GET /api/1.0/users/me']);
    const [tokenReq, check] = fake.requests as [RecordedRequest, RecordedRequest];
    assert.equal(tokenReq.path, '/-/oauth_token');
    assert.match(String(tokenReq.headers['content-type']), /^application\/x-www-form-urlencoded/);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(tokenReq.body)), {
      grant_type: 'refresh_token',
      refresh_token: grant.refresh_token,
      client_id: ASANA_FAKE_CLIENT_ID,
      client_secret: ASANA_FAKE_CLIENT_SECRET,
    });
    assert.equal(bearer(check), fake.oauth.log.at(-1)?.access_token);
  });

  test('an expired access token (401) is renewed once with the same refresh token, and the call retried', async () => {
    const refresh = new URLSearchParams((fake.tokenRequests()[0] as RecordedRequest).body).get(
      'refresh_token',
    );
    fake.oauth.expireAccessTokens();
    const before = fake.requests.length;
    const res = await api.exec('workspaces', 'list', { limit: 1 });
    assert.equal(res.status, 200, res.body);
    const sent = fake.requests.slice(before);
    assert.deepEqual(sent.map(route), [
      'GET /api/1.0/workspaces',
      `POST ${ASANA_TOKEN_PATH}`,
      'GET /api/1.0/workspaces',
    ]);
    assert.equal(new URLSearchParams((sent[1] as RecordedRequest).body).get('refresh_token'), refresh);
    assert.equal(bearer(sent[2] as RecordedRequest), fake.oauth.log.at(-1)?.access_token);
  });

  test('a revoked grant marks the connector needs_reauth, and Asana is not called again', async () => {
    fake.oauth.revokeRefreshTokens();
    fake.oauth.expireAccessTokens();
    assertError(await api.exec('workspaces', 'list'), 424, 'CONNECTOR_REAUTH_REQUIRED');
    const quiet = fake.requests.length;
    assertError(await api.exec('workspaces', 'list'), 424, 'CONNECTOR_REAUTH_REQUIRED');
    assert.equal(fake.requests.length, quiet);
    assert.deepEqual(fake.unhandled, []);
  });
});

describe('Asana in the Context Store', () => {
  let fake: AsanaFake;
  let h: Harness;
  let api: ConnectorApi;
  let lead: Task;
  const search = (entity: string, filter: unknown) => api.search(entity, { query: { filter }, limit: 1000 });
  const taskSyncs = () => fake.requests.filter((r) => route(r) === 'GET /api/1.0/tasks').map(query);

  before(async () => {
    fake = await startAsanaFake({ largeFileBytes: 64 * 1024 });
    lead = fake.data.tasksOfProject((fake.data.projects[0] as Project).gid)[0] as Task;
    ({ h, api } = await startSyncing(
      'asana',
      fake.url,
      {
        definition_id: ASANA_ID,
        credentials: { personal_access_token: ASANA_FAKE_PAT },
        replication_config: { workspaces: ['*'], projects: ['*'], attachment_parents: [lead.gid] },
      },
      {
        ...INCREMENTAL_SYNC_ENV,
        CES_EGRESS_ALLOW: new URL(fake.storage.origin).host,
        CES_RATE_LIMIT_OVERRIDES: JSON.stringify({ asana: null }),
      },
    ));
  });
  after(() => closeAll(h, fake));

  test('every indexed entity reaches Ready with the fake’s counts', async () => {
    const inProjects = new Set(
      fake.data.projects.flatMap((p) => fake.data.tasksOfProject(p.gid).map((t) => t.gid)),
    );
    const counts: Record<string, number> = {
      workspaces: fake.data.workspaces.length,
      users: fake.data.users.length,
      teams: fake.data.teams.length,
      projects: fake.data.projects.length,
      sections: fake.data.sections.length,
      tags: fake.data.tags.length,
      tasks: inProjects.size,
      attachments: fake.data.attachments.filter((a) => a.parent === lead.gid).length,
    };
    assert.deepEqual(Object.keys(counts).sort(), [...hostedConnector('asana').context_store_entities].sort());
    for (const [entity, count] of Object.entries(counts)) {
      const state = await api.waitReady(entity);
      assert.equal(state.entity_count, count, entity);
      assert.equal(state.last_error, null, entity);
    }
    const first = taskSyncs()[0] as URLSearchParams;
    assert.equal(first.get('limit'), '100');
    assert.equal(first.get('modified_since'), null, 'no start_date: the backfill is unbounded');
    assert.match(String(first.get('opt_fields')), /modified_at/);
    assert.deepEqual(fake.unhandled, []);
  });

  test('search finds tasks, projects, users and attachments by their fields', async () => {
    const target = fake.data.tasks[5] as Task;
    const byName = await search('tasks', { eq: { name: target.name } });
    assert.equal(byName.status, 200, byName.body);
    assert.deepEqual(
      byName.json.result.map((t: Json) => t.gid),
      [target.gid],
    );
    const words = await search('tasks', { fuzzy: { notes: 'sprocket alignment' } });
    assert.equal(
      words.json.result.length,
      fake.data.tasks.filter((t) => t.notes.includes('sprocket')).length,
    );
    const inSecond = await search('tasks', {
      any: { projects: { eq: { gid: fake.data.projects[1]?.gid } } },
    });
    assert.ok(
      inSecond.json.result.some((t: Json) => t.gid === lead.gid),
      'a task of two projects is in both',
    );
    const archived = await search('projects', { eq: { archived: true } });
    assert.deepEqual(
      archived.json.result.map((p: Json) => p.name),
      ['Legacy billing'],
    );
    const person = fake.data.users[6];
    const users = await search('users', { eq: { email: person?.email } });
    assert.deepEqual(
      users.json.result.map((u: Json) => u.name),
      [person?.name],
    );
    const big = await search('attachments', { gt: { size: 10 * 1024 } });
    assert.ok(big.json.result.length > 0 && big.json.result.every((a: Json) => a.size > 10 * 1024));
  });

  test('a refresh asks for tasks modified since the newest stored, and indexes an edit', async () => {
    const newestSeeded = Math.max(
      ...fake.data.projects
        .flatMap((p) => fake.data.tasksOfProject(p.gid))
        .map((t) => Date.parse(t.modified_at)),
    );
    const target = fake.data.tasksOfProject((fake.data.projects[2] as Project).gid)[1] as Task;
    const edited = await api.exec('tasks', 'update', {
      task_gid: target.gid,
      data: { name: 'Edited after Ready' },
    });
    assert.equal(edited.status, 200, edited.body);
    const found = await waitFor(
      'the edited task indexed',
      async () => {
        const res = await search('tasks', { eq: { name: 'Edited after Ready' } });
        return res.json.result?.length === 1 ? res : undefined;
      },
      30_000,
    );
    assert.equal(found.json.result[0].gid, target.gid);
    const state = await api.state('tasks');
    assert.equal(
      state?.entity_count,
      new Set(fake.data.projects.flatMap((p) => fake.data.tasksOfProject(p.gid).map((t) => t.gid))).size,
    );
    const bounds = taskSyncs()
      .map((q) => q.get('modified_since'))
      .filter((b) => b !== null);
    assert.ok(
      bounds.includes(new Date(Math.floor(newestSeeded / 1000) * 1000).toISOString().replace('.000Z', 'Z')),
      bounds.join(' '),
    );
    assert.deepEqual(fake.unhandled, []);
    assert.deepEqual(fake.storage.unhandled, []);
  });
});
