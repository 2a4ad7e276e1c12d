import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { addAccountToOrganization, createApplication } from '../../src/core/admin/applications.ts';
import { createOrganization } from '../../src/core/admin/organizations.ts';
import { hashClientSecret } from '../../src/security/client-secrets.ts';
import { connectorAad } from '../../src/security/vault.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { assertError, errorFields } from './assertions.ts';

const TOKEN_URL = '/api/v1/account/applications/token';
const SCOPED_URL = '/api/v1/account/applications/scoped-token';
const INFO_URL = '/api/v1/account/applications/scoped-token/info';
const GITHUB_ID = 'ef69ef6e-aa7f-4af1-a01d-ef775033524e';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('tokens', () => {
  let h: Harness;
  let appToken: string;

  before(async () => {
    h = await startHarness();
    appToken = await h.token();
  });
  after(() => h.close());

  const mintScoped = async (workspace_name: string, token = appToken) => {
    const res = await h.inject({ method: 'POST', url: SCOPED_URL, token, body: { workspace_name } });
    assert.equal(res.status, 200, res.body);
    return res.json.token as string;
  };

  describe('application token endpoint', () => {
    test('client credentials give a 15-minute bearer JWT for the organization', async () => {
      const res = await h.inject({
        method: 'POST',
        url: TOKEN_URL,
        body: { client_id: h.boot.client_id, client_secret: h.boot.client_secret },
      });
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(Object.keys(res.json).sort(), [
        'access_token',
        'expires_in',
        'organization_id',
        'token_type',
      ]);
      assert.equal(res.json.token_type, 'bearer');
      assert.equal(res.json.expires_in, 900);
      assert.equal(res.json.organization_id, h.boot.organization_id);
      const claims = decodeJwt(res.json.access_token);
      assert.equal(Number(claims.exp) - Number(claims.iat), 900);
      const use = await h.inject({ method: 'GET', url: '/api/v1/workspaces', token: res.json.access_token });
      assert.equal(use.status, 200, use.body);
    });

    test('a wrong secret and an unknown client_id get the same 401 (no enumeration)', async () => {
      const wrongSecret = await h.inject({
        method: 'POST',
        url: TOKEN_URL,
        body: { client_id: h.boot.client_id, client_secret: `${h.boot.client_secret}x` },
      });
      const unknownClient = await h.inject({
        method: 'POST',
        url: TOKEN_URL,
        body: { client_id: 'ces_ci_00000000000000000000000000000000', client_secret: h.boot.client_secret },
      });
      assertError(wrongSecret, 401, 'INVALID_CLIENT_CREDENTIALS');
      assertError(unknownClient, 401, 'INVALID_CLIENT_CREDENTIALS');
      assert.equal(wrongSecret.json.message, unknownClient.json.message);
      assert.deepEqual(wrongSecret.json.errors, unknownClient.json.errors);
      assert.ok(!wrongSecret.body.includes(h.boot.client_secret));
    });

    test('a revoked application cannot get a token', async () => {
      const created = await createApplication(h.deps.store, h.deps.secrets.clientSecretPepper, {
        name: 'short-lived',
        organizationIds: [h.boot.organization_id],
        now: new Date().toISOString(),
      });
      const body = { client_id: created.client_id, client_secret: created.client_secret };
      assert.equal((await h.inject({ method: 'POST', url: TOKEN_URL, body })).status, 200);
      await h.deps.store.applications.revoke(
        h.boot.organization_id,
        created.client_id,
        new Date().toISOString(),
      );
      assertError(
        await h.inject({ method: 'POST', url: TOKEN_URL, body }),
        401,
        'INVALID_CLIENT_CREDENTIALS',
      );
    });

    test('a missing field and a wrong type are 422 naming the field; an unknown one is named, not refused', async () => {
      const missing = await h.inject({
        method: 'POST',
        url: TOKEN_URL,
        body: { client_id: h.boot.client_id },
      });
      assertError(missing, 422, 'VALIDATION_ERROR');
      assert.ok(errorFields(missing).includes('body.client_secret'), missing.body);
      assert.match(missing.json.message, /client_secret/);

      const unknown = await h.inject({
        method: 'POST',
        url: TOKEN_URL,
        body: {
          client_id: h.boot.client_id,
          client_secret: h.boot.client_secret,
          grant_type: 'client_credentials',
        },
      });
      // Open in the reference: OAuth2 clients' grant_type is ignored, and named.
      assert.equal(unknown.status, 200, unknown.body);
      assert.equal(unknown.headers['x-ces-ignored-fields'], 'body.grant_type');

      const wrongType = await h.inject({
        method: 'POST',
        url: TOKEN_URL,
        body: { client_id: 12345, client_secret: h.boot.client_secret },
      });
      assertError(wrongType, 422, 'VALIDATION_ERROR');
      assert.ok(errorFields(wrongType).includes('body.client_id'), wrongType.body);

      const empty = await h.inject({
        method: 'POST',
        url: TOKEN_URL,
        body: { client_id: '', client_secret: '' },
      });
      assertError(empty, 422, 'VALIDATION_ERROR');
      assert.ok(errorFields(empty).includes('body.client_id'), empty.body);
    });
  });

  describe('an application whose account belongs to several organizations', () => {
    let orgA: string;
    let orgB: string;
    let creds: { client_id: string; client_secret: string };

    before(async () => {
      // A dedicated application of the bootstrap organization, so that h.token() keeps working for the other tests.
      const now = new Date().toISOString();
      orgA = h.boot.organization_id;
      const app = await createApplication(h.deps.store, h.deps.secrets.clientSecretPepper, {
        name: 'multi',
        organizationIds: [orgA],
        now,
      });
      creds = { client_id: app.client_id, client_secret: app.client_secret };
      orgB = (await createOrganization(h.deps.store, { name: 'Second org', now })).organization.id;
      const added = await addAccountToOrganization(h.deps.store, {
        clientId: app.client_id,
        organizationId: orgB,
        now,
      });
      assert.deepEqual([...added.organization_ids].sort(), [orgA, orgB].sort());
    });

    test('without X-Organization-Id: 400 ORGANIZATION_REQUIRED saying "specify target organization"', async () => {
      const res = await h.inject({ method: 'POST', url: TOKEN_URL, body: creds });
      assertError(res, 400, 'ORGANIZATION_REQUIRED');
      assert.match(res.json.message, /specify target organization/);
    });

    test('with X-Organization-Id of either organization: a token for that organization', async () => {
      for (const org of [orgA, orgB]) {
        const res = await h.inject({
          method: 'POST',
          url: TOKEN_URL,
          body: creds,
          headers: { 'x-organization-id': org },
        });
        assert.equal(res.status, 200, res.body);
        assert.equal(res.json.organization_id, org);
        assert.equal(decodeJwt(res.json.access_token).org, org);
        const list = await h.inject({
          method: 'GET',
          url: '/api/v1/workspaces',
          token: res.json.access_token,
        });
        assert.equal(list.status, 200, list.body);
        assert.ok(list.json.data.length > 0);
        assert.ok(
          list.json.data.every((w: { organization_id: string }) => w.organization_id === org),
          list.body,
        );
      }
    });

    test('with X-Organization-Id of an organization it is not a member of: 404', async () => {
      const stranger = (await h.otherOrg()).organizationId;
      for (const org of [stranger, randomUUID()]) {
        const res = await h.inject({
          method: 'POST',
          url: TOKEN_URL,
          body: creds,
          headers: { 'x-organization-id': org },
        });
        assertError(res, 404, 'NOT_FOUND');
      }
    });

    test('a single-organization application may name its own organization, not another', async () => {
      const own = await h.inject({
        method: 'POST',
        url: TOKEN_URL,
        body: { client_id: h.boot.client_id, client_secret: h.boot.client_secret },
        headers: { 'x-organization-id': orgA },
      });
      assert.equal(own.status, 200, own.body);
      assert.equal(own.json.organization_id, orgA);
      const other = await h.inject({
        method: 'POST',
        url: TOKEN_URL,
        body: { client_id: h.boot.client_id, client_secret: h.boot.client_secret },
        headers: { 'x-organization-id': orgB },
      });
      assertError(other, 404, 'NOT_FOUND');
    });

    test('a malformed X-Organization-Id is a 422', async () => {
      const res = await h.inject({
        method: 'POST',
        url: TOKEN_URL,
        body: creds,
        headers: { 'x-organization-id': 'not-a-uuid' },
      });
      assertError(res, 422, 'VALIDATION_ERROR');
    });
  });

  describe('scoped tokens', () => {
    test('minting creates the workspace when missing and reuses it afterwards', async () => {
      const before = await h.inject({
        method: 'GET',
        url: '/api/v1/workspaces?name_contains=scoped-new',
        token: appToken,
      });
      assert.equal(before.json.data.length, 0);

      const res = await h.inject({
        method: 'POST',
        url: SCOPED_URL,
        token: appToken,
        body: { workspace_name: 'scoped-new' },
      });
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(Object.keys(res.json), ['token']);
      const claims = decodeJwt(res.json.token);
      assert.equal(Number(claims.exp) - Number(claims.iat), 1200);

      const listed = await h.inject({
        method: 'GET',
        url: '/api/v1/workspaces?name_contains=scoped-new',
        token: appToken,
      });
      assert.equal(listed.json.data.length, 1, listed.body);
      const ws = listed.json.data[0];
      assert.equal(ws.name, 'scoped-new');
      assert.equal(ws.status, 'active');

      const again = await mintScoped('scoped-new');
      const info = await h.inject({ method: 'GET', url: INFO_URL, token: again });
      assert.equal(info.json.workspace_id, ws.id);
      const still = await h.inject({
        method: 'GET',
        url: '/api/v1/workspaces?name_contains=scoped-new',
        token: appToken,
      });
      assert.equal(still.json.data.length, 1);
    });

    test('info describes the token: organization, workspace id and name', async () => {
      const scoped = await mintScoped('info-ws');
      const res = await h.inject({ method: 'GET', url: INFO_URL, token: scoped });
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(Object.keys(res.json).sort(), ['organization_id', 'workspace_id', 'workspace_name']);
      assert.equal(res.json.organization_id, h.boot.organization_id);
      assert.equal(res.json.workspace_name, 'info-ws');
      assert.match(res.json.workspace_id, UUID_RE);
      const ws = await h.inject({
        method: 'GET',
        url: `/api/v1/workspaces/${res.json.workspace_id}`,
        token: appToken,
      });
      assert.equal(ws.json.name, 'info-ws');
    });

    test('info with an application token is 403', async () => {
      assertError(await h.inject({ method: 'GET', url: INFO_URL, token: appToken }), 403, 'FORBIDDEN');
    });

    test('a scoped token cannot mint scoped tokens, even for its own workspace', async () => {
      const scoped = await mintScoped('no-mint');
      for (const workspace_name of ['no-mint', 'elsewhere']) {
        const res = await h.inject({
          method: 'POST',
          url: SCOPED_URL,
          token: scoped,
          body: { workspace_name },
        });
        assertError(res, 403, 'FORBIDDEN');
      }
      const list = await h.inject({
        method: 'GET',
        url: '/api/v1/workspaces?name_contains=elsewhere',
        token: appToken,
      });
      assert.equal(list.json.data.length, 0, 'the refused mint must not have created a workspace');
    });

    test('a scoped token cannot list, count, update or delete workspaces (403 FORBIDDEN)', async () => {
      const scoped = await mintScoped('admin-less');
      const info = await h.inject({ method: 'GET', url: INFO_URL, token: scoped });
      const own = `/api/v1/workspaces/${info.json.workspace_id}`;
      assertError(
        await h.inject({ method: 'GET', url: '/api/v1/workspaces', token: scoped }),
        403,
        'FORBIDDEN',
      );
      assertError(
        await h.inject({ method: 'GET', url: '/api/v1/workspaces/stats', token: scoped }),
        403,
        'FORBIDDEN',
      );
      assertError(
        await h.inject({ method: 'PUT', url: own, token: scoped, body: { status: 'inactive' } }),
        403,
        'FORBIDDEN',
      );
      assertError(await h.inject({ method: 'DELETE', url: own, token: scoped }), 403, 'FORBIDDEN');
      const after = await h.inject({ method: 'GET', url: own, token: appToken });
      assert.equal(after.status, 200, 'the workspace survived');
      assert.equal(after.json.status, 'active');
    });

    test('a scoped token reads its own workspace, 403 for a sibling workspace, 404 for another organization', async () => {
      const scoped = await mintScoped('reader');
      const info = await h.inject({ method: 'GET', url: INFO_URL, token: scoped });
      const own = await h.inject({
        method: 'GET',
        url: `/api/v1/workspaces/${info.json.workspace_id}`,
        token: scoped,
      });
      assert.equal(own.status, 200, own.body);
      assert.equal(own.json.name, 'reader');

      const sibling = await h.inject({
        method: 'GET',
        url: `/api/v1/workspaces/${h.boot.workspace_id}`,
        token: scoped,
      });
      assertError(sibling, 403, 'WORKSPACE_SCOPE_VIOLATION');

      const other = await h.otherOrg();
      const otherInfo = await h.inject({
        method: 'POST',
        url: SCOPED_URL,
        token: other.token,
        body: { workspace_name: 'theirs' },
      });
      const theirWs = (await h.inject({ method: 'GET', url: INFO_URL, token: otherInfo.json.token })).json
        .workspace_id;
      const foreign = await h.inject({ method: 'GET', url: `/api/v1/workspaces/${theirWs}`, token: scoped });
      assertError(foreign, 404, 'WORKSPACE_NOT_FOUND');
    });

    test('listing connectors with a scoped token stays inside its workspace', async () => {
      const scoped = await mintScoped('conn-scope');
      const scopedWs = (await h.inject({ method: 'GET', url: INFO_URL, token: scoped })).json
        .workspace_id as string;
      // Seeded straight into the store (no provider check needed to list): one connector here, one in `default`.
      const seed = async (workspaceId: string, name: string) => {
        const id = randomUUID();
        await h.deps.store.connectors.create({
          id,
          organization_id: h.boot.organization_id,
          workspace_id: workspaceId,
          definition_id: GITHUB_ID,
          connector_type: 'github',
          name,
          replication_config: { repositories: ['octo/hello'] },
          credential_option: 'PAT Credentials',
          credentials: h.deps.vault.encrypt(
            '{"personal_access_token":"ghp_x"}',
            connectorAad(h.boot.organization_id, id),
          ),
          now: new Date().toISOString(),
        });
        return id;
      };
      const inDefault = await seed(h.boot.workspace_id, 'in-default');
      const inScoped = await seed(scopedWs, 'in-scoped');

      const all = await h.inject({ method: 'GET', url: '/api/v1/integrations/connectors', token: appToken });
      const allIds = all.json.data.map((c: { id: string }) => c.id);
      assert.ok(allIds.includes(inDefault) && allIds.includes(inScoped), all.body);

      const mine = await h.inject({ method: 'GET', url: '/api/v1/integrations/connectors', token: scoped });
      assert.equal(mine.status, 200, mine.body);
      assert.deepEqual(
        mine.json.data.map((c: { id: string }) => c.id),
        [inScoped],
      );
      assertError(
        await h.inject({ method: 'GET', url: `/api/v1/integrations/connectors/${inDefault}`, token: scoped }),
        403,
        'WORKSPACE_SCOPE_VIOLATION',
      );
      const own = await h.inject({
        method: 'GET',
        url: `/api/v1/integrations/connectors/${inScoped}`,
        token: scoped,
      });
      assert.equal(own.status, 200, own.body);

      const named = await h.inject({
        method: 'GET',
        url: '/api/v1/integrations/connectors?workspace_name=conn-scope',
        token: scoped,
      });
      assert.equal(named.status, 200, named.body);
      assert.deepEqual(
        named.json.data.map((c: { id: string }) => c.id),
        [inScoped],
      );

      const sibling = await h.inject({
        method: 'GET',
        url: '/api/v1/integrations/connectors?workspace_name=default',
        token: scoped,
      });
      assertError(sibling, 403, 'WORKSPACE_SCOPE_VIOLATION');
      const siblingById = await h.inject({
        method: 'GET',
        url: `/api/v1/integrations/connectors?workspace_id=${h.boot.workspace_id}`,
        token: scoped,
      });
      assertError(siblingById, 403, 'WORKSPACE_SCOPE_VIOLATION');
    });

    test('a scoped token of a deleted workspace no longer describes a workspace', async () => {
      const scoped = await mintScoped('short-lived-ws');
      const id = (await h.inject({ method: 'GET', url: INFO_URL, token: scoped })).json.workspace_id;
      const del = await h.inject({ method: 'DELETE', url: `/api/v1/workspaces/${id}`, token: appToken });
      assert.equal(del.status, 200, del.body);
      assertError(
        await h.inject({ method: 'GET', url: INFO_URL, token: scoped }),
        404,
        'WORKSPACE_NOT_FOUND',
      );
      // Re-creating a workspace of that name does not revive the old token's access.
      const fresh = await mintScoped('short-lived-ws');
      const freshId = (await h.inject({ method: 'GET', url: INFO_URL, token: fresh })).json.workspace_id;
      assert.notEqual(freshId, id);
      const cross = await h.inject({ method: 'GET', url: `/api/v1/workspaces/${freshId}`, token: scoped });
      assertError(cross, 403, 'WORKSPACE_SCOPE_VIOLATION');
    });

    test('workspace_name is required, non-empty and at most 200 characters', async () => {
      for (const body of [
        {},
        { workspace_name: '' },
        { workspace_name: 'x'.repeat(201) },
        { workspace_name: 5 },
      ]) {
        const res = await h.inject({ method: 'POST', url: SCOPED_URL, token: appToken, body });
        assertError(res, 422, 'VALIDATION_ERROR');
        assert.ok(errorFields(res).includes('body.workspace_name'), res.body);
      }
    });
  });

  test('client secrets are stored only as a keyed hash', async () => {
    const bytes = await h.storedBytes();
    // The reads below are meaningful: the applications row is in these bytes.
    assert.ok(bytes.includes(Buffer.from(h.boot.client_id)), 'the client_id is not in the database files');
    assert.ok(
      bytes.includes(Buffer.from(hashClientSecret(h.deps.secrets.clientSecretPepper, h.boot.client_secret))),
      'the keyed hash of the secret is not in the database files',
    );
    assert.ok(!bytes.includes(Buffer.from(h.boot.client_secret)), 'the client secret is stored in clear');
    const secretBody = h.boot.client_secret.replace(/^ces_cs_/, '');
    assert.ok(
      !bytes.includes(Buffer.from(secretBody)),
      'the random part of the client secret is stored in clear',
    );
  });

  test('the client secret never reaches the logs', () => {
    assert.ok(!h.logs().includes(h.boot.client_secret));
  });
});
