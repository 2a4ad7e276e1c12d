// Stored credentials follow only their owner: a PUT that changes where a connector's requests go (GitHub
// Enterprise's api_url, a Zendesk subdomain) must carry the credentials again, which are then checked against the
// new destination. Two GitHub fakes stand for the company's server and an attacker's; CES_EGRESS_ALLOW lets ces
// reach both on 127.0.0.1 through the user-controlled api_url (no upstream override).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  GITHUB_FAKE_DEFAULT_TOKEN,
  type GithubFake,
  startGithubFake,
} from '../connectors/github/fake/index.ts';
import { GITHUB_DEFINITION_ID } from '../connectors/github/harness.ts';
import {
  startZendeskFake,
  ZENDESK_FAKE_API_TOKEN,
  ZENDESK_FAKE_EMAIL,
  ZENDESK_FAKE_OAUTH_TOKEN,
  type ZendeskFake,
} from '../connectors/zendesk-support/fake/index.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { assertError } from './assertions.ts';

describe('a change of destination needs the credentials again', () => {
  let h: Harness;
  let company: GithubFake;
  let attacker: GithubFake;
  let token: string;
  let scoped: string;
  let id: string;

  const put = (body: unknown, as = token) =>
    h.inject({ method: 'PUT', url: `/api/v1/integrations/connectors/${id}`, token: as, body });
  const exec = () =>
    h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token,
      body: { entity: 'repositories', action: 'get', params: { owner: 'ces-demo', repo: 'widgets' } },
    });
  const attackerSaw = () =>
    attacker.requests.filter((r) => JSON.stringify(r.headers).includes(GITHUB_FAKE_DEFAULT_TOKEN)).length;

  before(async () => {
    company = await startGithubFake();
    attacker = await startGithubFake({ tokens: ['ghp_attackers_own_token'] });
    h = await startHarness({ CES_EGRESS_ALLOW: '127.0.0.1', CES_SYNC_ENABLED: 'false' });
    token = await h.token();
    const created = await h.inject({
      method: 'POST',
      url: '/api/v1/integrations/connectors',
      token,
      body: {
        workspace_name: 'default',
        definition_id: GITHUB_DEFINITION_ID,
        name: 'enterprise',
        credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
        replication_config: { repositories: ['ces-demo/widgets'], api_url: company.url },
      },
    });
    assert.equal(created.status, 200, created.body);
    id = created.json.id;
    const s = await h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/scoped-token',
      token,
      body: { workspace_name: 'default' },
    });
    assert.equal(s.status, 200, s.body);
    scoped = s.json.token;
  });
  after(async () => {
    await h.close();
    await Promise.all([company.close(), attacker.close()]);
  });

  test('the stored token reaches the host it was given for', async () => {
    const res = await exec();
    assert.equal(res.status, 200, res.body);
    assert.ok(
      company.requests.some((r) => r.headers.authorization === `Bearer ${GITHUB_FAKE_DEFAULT_TOKEN}`),
    );
  });

  test('a scoped token cannot move api_url without the credentials: 422 naming the field, nothing sent', async () => {
    for (const as of [scoped, token]) {
      const res = await put(
        { replication_config: { repositories: ['ces-demo/widgets'], api_url: attacker.url } },
        as,
      );
      assertError(res, 422, 'VALIDATION_ERROR');
      assert.deepEqual(
        res.json.errors.map((e: { field: string }) => e.field),
        ['replication_config.api_url', 'credentials'],
      );
    }
    // Removing api_url moves the token too (to the default host).
    const dropped = await put({ replication_config: { repositories: ['ces-demo/widgets'] } }, scoped);
    assertError(dropped, 422, 'VALIDATION_ERROR');
    const stored = await h.inject({ method: 'GET', url: `/api/v1/integrations/connectors/${id}`, token });
    assert.equal(stored.json.replication_config.api_url, company.url);
    assert.equal((await exec()).status, 200);
    assert.equal(attacker.requests.length, 0);
  });

  test('other config changes and a rename still need no credentials', async () => {
    const res = await put(
      { name: 'renamed', replication_config: { repositories: ['ces-demo/*'], api_url: company.url } },
      scoped,
    );
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(res.json.replication_config.repositories, ['ces-demo/*']);
  });

  test('with the credentials, the new host is where they are checked: refused there, nothing changes', async () => {
    const res = await put({
      replication_config: { repositories: ['ces-demo/widgets'], api_url: attacker.url },
      credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
    });
    assertError(res, 422, 'INVALID_CREDENTIALS');
    // The token went to the new host only because its owner sent it in this very request.
    assert.equal(attackerSaw(), 1);
    const stored = await h.inject({ method: 'GET', url: `/api/v1/integrations/connectors/${id}`, token });
    assert.equal(stored.json.replication_config.api_url, company.url);
  });

  test('with credentials the new host accepts, the move is stored', async () => {
    const res = await put({
      replication_config: { repositories: ['ces-demo/widgets'], api_url: attacker.url },
      credentials: { personal_access_token: 'ghp_attackers_own_token' },
    });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.replication_config.api_url, attacker.url);
    assert.equal(attackerSaw(), 1, 'the stored token never went to the new host');
  });
});

describe('Zendesk: the subdomain decides the host', () => {
  let h: Harness;
  let fake: ZendeskFake;
  let token: string;

  const create = async (body: Record<string, unknown>) => {
    const res = await h.inject({
      method: 'POST',
      url: '/api/v1/integrations/connectors',
      token,
      body: { workspace_name: 'default', connector_type: 'zendesk-support', ...body },
    });
    assert.equal(res.status, 200, res.body);
    return res.json.id as string;
  };
  const put = (id: string, body: unknown) =>
    h.inject({ method: 'PUT', url: `/api/v1/integrations/connectors/${id}`, token, body });

  before(async () => {
    fake = await startZendeskFake();
    h = await startHarness({
      CES_UPSTREAM_OVERRIDES: JSON.stringify({ 'zendesk-support': fake.url }),
      CES_SYNC_ENABLED: 'false',
    });
    token = await h.token();
  });
  after(async () => {
    await h.close();
    await fake.close();
  });

  test('a subdomain from replication_config cannot change without the credentials', async () => {
    const id = await create({
      credentials: { access_token: ZENDESK_FAKE_OAUTH_TOKEN },
      replication_config: { subdomain: 'ces-demo' },
    });
    const moved = await put(id, { replication_config: { subdomain: 'elsewhere' } });
    assertError(moved, 422, 'VALIDATION_ERROR');
    assert.equal(moved.json.errors[0].field, 'replication_config.subdomain');
    assert.ok(!moved.body.includes(ZENDESK_FAKE_OAUTH_TOKEN));
    const withCredentials = await put(id, {
      replication_config: { subdomain: 'elsewhere' },
      credentials: { access_token: ZENDESK_FAKE_OAUTH_TOKEN },
    });
    assert.equal(withCredentials.status, 200, withCredentials.body);
  });

  test('when the credentials carry the subdomain, the config key does not move them', async () => {
    const id = await create({
      credentials: { email: ZENDESK_FAKE_EMAIL, api_token: ZENDESK_FAKE_API_TOKEN, subdomain: 'ces-demo' },
    });
    const res = await put(id, { replication_config: { subdomain: 'ignored-while-credentials-have-one' } });
    assert.equal(res.status, 200, res.body);
  });
});
