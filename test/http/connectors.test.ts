import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createGithubConnector,
  GITHUB_DEFINITION_ID,
  type GithubFake,
  type Harness,
  startWithGithub,
} from '../connectors/github/harness.ts';

const OTHER_PAT = 'ghp_rotated_token_0002';

describe('connectors', () => {
  let h: Harness;
  let fake: GithubFake;
  let close: () => Promise<unknown>;
  let token: string;

  before(async () => {
    ({ h, fake, close } = await startWithGithub(['ghp_test_token_0001', OTHER_PAT]));
    token = await h.token();
  });
  after(() => close());

  test('create checks the token against the provider and returns the record without credentials', async () => {
    const before = fake.requests.length;
    const res = await createGithubConnector(h, token);
    assert.equal(res.status, 200, res.body);
    const c = res.json;
    assert.equal(c.name, 'octo');
    assert.equal(c.definition_id, GITHUB_DEFINITION_ID);
    assert.equal(c.connector_type, 'github');
    assert.equal(c.workspace_name, 'default');
    assert.equal(c.workspace_id, h.boot.workspace_id);
    assert.equal(c.credential_option, 'PAT Credentials');
    assert.deepEqual(c.replication_config.repositories, ['ces-demo/widgets']);
    assert.ok(!('credentials' in c));
    assert.ok(!res.body.includes('ghp_test_token_0001'));
    const check = fake.requests.slice(before);
    assert.ok(
      check.some((r) => r.path === '/user'),
      'the credentials were checked live',
    );
  });

  test('connector_type may name the type instead of definition_id', async () => {
    const res = await createGithubConnector(h, token, { definition_id: undefined, connector_type: 'GitHub' });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.definition_id, GITHUB_DEFINITION_ID);
  });

  test('credentials the provider rejects are refused and nothing is stored', async () => {
    const count = (await h.inject({ method: 'GET', url: '/api/v1/integrations/connectors', token })).json.data
      .length;
    const res = await createGithubConnector(h, token, { name: 'bad' }, 'ghp_wrong');
    assert.equal(res.status, 422, res.body);
    assert.equal(res.json.code, 'INVALID_CREDENTIALS');
    const after = (await h.inject({ method: 'GET', url: '/api/v1/integrations/connectors', token })).json.data
      .length;
    assert.equal(after, count);
  });

  test('credentials of the wrong shape get a 422 naming the field and the options', async () => {
    const missing = await createGithubConnector(h, token, { credentials: {} });
    assert.equal(missing.status, 422);
    assert.equal(missing.json.code, 'INVALID_CREDENTIALS');
    assert.match(missing.json.message, /PAT Credentials/);
    assert.match(missing.json.message, /OAuth Credentials/);

    const unknown = await createGithubConnector(h, token, {
      credentials: { personal_access_token: 'x', pasword: 'y' },
    });
    assert.equal(unknown.status, 422);
    assert.ok(JSON.stringify(unknown.json.errors).includes('pasword'), unknown.body);

    const byTitle = await createGithubConnector(h, token, {
      credentials: { option_title: 'OAuth Credentials' },
    });
    assert.equal(byTitle.status, 422);
    assert.ok(JSON.stringify(byTitle.json).includes('access_token'), byTitle.body);
  });

  test('replication_config is validated against the definition', async () => {
    const res = await createGithubConnector(h, token, { replication_config: {} });
    assert.equal(res.status, 422, res.body);
    assert.ok(res.body.includes('repositories'));
  });

  test('unknown workspace, unknown definition and no type at all are clear errors', async () => {
    const ws = await createGithubConnector(h, token, { workspace_name: 'nope' });
    assert.equal(ws.status, 404);
    assert.equal(ws.json.code, 'WORKSPACE_NOT_FOUND');
    const def = await createGithubConnector(h, token, {
      definition_id: '00000000-0000-4000-8000-000000000000',
    });
    assert.equal(def.status, 404);
    assert.equal(def.json.code, 'DEFINITION_NOT_FOUND');
    const none = await createGithubConnector(h, token, { definition_id: undefined });
    assert.equal(none.status, 422);
    const extra = await createGithubConnector(h, token, { colour: 'red' });
    assert.equal(extra.status, 422);
    assert.equal(extra.json.code, 'VALIDATION_ERROR');
  });

  test('list, get, rename, rotate credentials, delete', async () => {
    const created = (await createGithubConnector(h, token, { name: 'lifecycle' })).json;
    const byWs = await h.inject({
      method: 'GET',
      url: '/api/v1/integrations/connectors?workspace_name=default',
      token,
    });
    assert.equal(byWs.status, 200);
    assert.ok(byWs.json.data.some((c: { id: string }) => c.id === created.id));
    const byDef = await h.inject({
      method: 'GET',
      url: `/api/v1/integrations/connectors?workspace_id=${h.boot.workspace_id}&definition_id=${GITHUB_DEFINITION_ID}`,
      token,
    });
    assert.ok(byDef.json.data.some((c: { id: string }) => c.id === created.id));

    const got = await h.inject({
      method: 'GET',
      url: `/api/v1/integrations/connectors/${created.id}`,
      token,
    });
    assert.deepEqual(got.json, created);

    const renamed = await h.inject({
      method: 'PUT',
      url: `/api/v1/integrations/connectors/${created.id}`,
      token,
      body: { name: 'renamed' },
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.json.name, 'renamed');

    const badRotate = await h.inject({
      method: 'PUT',
      url: `/api/v1/integrations/connectors/${created.id}`,
      token,
      body: { credentials: { personal_access_token: 'ghp_not_valid' } },
    });
    assert.equal(badRotate.status, 422);

    const rotated = await h.inject({
      method: 'PUT',
      url: `/api/v1/integrations/connectors/${created.id}`,
      token,
      body: { credentials: { personal_access_token: OTHER_PAT } },
    });
    assert.equal(rotated.status, 200, rotated.body);
    const mark = fake.requests.length;
    const exec = await h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${created.id}/execute`,
      token,
      body: { entity: 'users', action: 'get', params: { username: 'octocat' } },
    });
    assert.equal(exec.status, 200, exec.body);
    const sent = fake.requests.slice(mark).map((r) => r.headers.authorization);
    assert.ok(
      sent.every((a) => a?.endsWith(OTHER_PAT)),
      'execute uses the rotated credentials',
    );

    const del = await h.inject({
      method: 'DELETE',
      url: `/api/v1/integrations/connectors/${created.id}`,
      token,
    });
    assert.equal(del.status, 202);
    assert.equal(del.json.id, created.id);
    assert.match(del.json.job_id, /^[0-9a-f-]{36}$/);
    const gone = await h.inject({
      method: 'GET',
      url: `/api/v1/integrations/connectors/${created.id}`,
      token,
    });
    assert.equal(gone.status, 404);
    assert.equal(gone.json.code, 'CONNECTOR_NOT_FOUND');
  });

  test('another organization sees a 404 for every operation on this connector', async () => {
    const created = (await createGithubConnector(h, token, { name: 'private' })).json;
    const other = await h.otherOrg();
    const url = `/api/v1/integrations/connectors/${created.id}`;
    for (const [method, path, body] of [
      ['GET', url, undefined],
      ['PUT', url, { name: 'x' }],
      ['DELETE', url, undefined],
      ['POST', `${url}/execute`, { entity: 'users', action: 'get', params: { username: 'octocat' } }],
    ] as const) {
      const res = await h.inject({ method, url: path, token: other.token, body });
      assert.equal(res.status, 404, `${method} ${path}: ${res.body}`);
    }
    const list = await h.inject({
      method: 'GET',
      url: '/api/v1/integrations/connectors',
      token: other.token,
    });
    assert.deepEqual(list.json.data, []);
    const ws = await h.inject({
      method: 'GET',
      url: '/api/v1/integrations/connectors?workspace_name=default',
      token: other.token,
    });
    assert.deepEqual(ws.json.data, []);
    const stillThere = await h.inject({ method: 'GET', url, token });
    assert.equal(stillThere.json.name, 'private');
  });

  test('deleting a workspace deletes its connectors and their secrets', async () => {
    const scoped = await h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/scoped-token',
      token,
      body: { workspace_name: 'doomed' },
    });
    assert.equal(scoped.status, 200);
    const created = (await createGithubConnector(h, token, { workspace_name: 'doomed' })).json;
    await h.inject({ method: 'DELETE', url: `/api/v1/workspaces/${created.workspace_id}`, token });
    const gone = await h.inject({
      method: 'GET',
      url: `/api/v1/integrations/connectors/${created.id}`,
      token,
    });
    assert.equal(gone.status, 404);
    assert.equal(await h.deps.store.connectors.getCredentials(h.boot.organization_id, created.id), undefined);
  });
});
