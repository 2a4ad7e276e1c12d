// The reference's bring-your-own OAuth app: PUT /api/v1/oauth/credentials and
// DELETE /api/v1/oauth/credentials/connector_type/{connector_type}. The client secret is encrypted, never
// answered, and re-encrypted by a key rotation.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { rotateKeys } from '../../src/core/admin/rotate-keys.ts';
import { masterKey } from '../../src/security/keyring.ts';
import { oauthAppAad, Vault } from '../../src/security/vault.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { assertMatchesReference } from '../helpers/reference-spec.ts';
import { assertError } from './assertions.ts';

const URL = '/api/v1/oauth/credentials';
const HUBSPOT = 'hubspot';

describe('OAuth apps of an organization', () => {
  let h: Harness;
  let token: string;
  const secret = `hubspot-app-secret-${randomBytes(8).toString('hex')}`;

  before(async () => {
    h = await startHarness({ CES_SYNC_ENABLED: 'false' });
    token = await h.token();
  });
  after(() => h.close());

  const put = (body: unknown, t = token) => h.inject({ method: 'PUT', url: URL, token: t, body });

  test('PUT stores the app (the secret encrypted, never answered); a second PUT replaces it', async () => {
    const first = await put({
      connector_type: HUBSPOT,
      configuration: { client_id: 'app-1', client_secret: secret },
    });
    assert.equal(first.status, 200, first.body);
    assertMatchesReference('PUT', URL, 200, first.json);
    assert.equal(first.json.scope_type, 'organization');
    assert.equal(first.json.scope_id, h.boot.organization_id);
    assert.ok(!first.body.includes(secret) && !first.body.includes('app-1'));
    const definitionId = first.json.connector_definition_id as string;

    const again = await put({
      connector_definition_id: definitionId,
      connector_type: null,
      configuration: { client_id: 'app-2', client_secret: `${secret}-2` },
    });
    assert.equal(again.status, 200, again.body);
    assert.equal(again.json.id, first.json.id);
    const stored = await h.deps.store.oauthApps.get(h.boot.organization_id, definitionId);
    assert.equal(stored?.client_id, 'app-2');
    assert.equal(
      h.deps.vault.decrypt(stored!.secret, oauthAppAad(h.boot.organization_id, definitionId)),
      `${secret}-2`,
    );
    const bytes = await h.storedBytes();
    assert.equal(bytes.indexOf(secret), -1, 'the secret is stored in clear');
    assert.ok(!h.logs().includes(secret), 'the secret reached the logs');

    // A key rotation re-encrypts it.
    const fresh = masterKey(randomBytes(32));
    const result = await rotateKeys(h.deps.store, h.deps.keyring.keys, fresh);
    assert.equal(result.oauthApps, 1);
    const rotated = await h.deps.store.oauthApps.get(h.boot.organization_id, definitionId);
    assert.equal(rotated?.secret.key_id, fresh.id);
    assert.equal(
      new Vault([fresh]).decrypt(rotated!.secret, oauthAppAad(h.boot.organization_id, definitionId)),
      `${secret}-2`,
    );
    await rotateKeys(h.deps.store, [fresh], h.deps.keyring.keys[0]!);

    const del = await h.inject({ method: 'DELETE', url: `${URL}/connector_type/${HUBSPOT}`, token });
    assert.equal(del.status, 204, del.body);
    assert.equal(await h.deps.store.oauthApps.get(h.boot.organization_id, definitionId), undefined);
    const again204 = await h.inject({ method: 'DELETE', url: `${URL}/connector_type/${HUBSPOT}`, token });
    assert.equal(again204.status, 204, 'idempotent');
  });

  test('bad bodies are 422; a type without an OAuth app or an unknown type is refused', async () => {
    for (const body of [
      { configuration: { client_id: 'a', client_secret: 'b' } },
      {
        connector_type: HUBSPOT,
        connector_definition_id: '00000000-0000-4000-8000-000000000000',
        configuration: { client_id: 'a', client_secret: 'b' },
      },
      { connector_type: HUBSPOT, configuration: { client_id: 'a' } },
      { connector_type: HUBSPOT, configuration: { client_id: 'a', client_secret: 7 } },
      { connector_type: HUBSPOT, configuration: { client_id: 'a', client_secret: 'b', redirect: 'x' } },
      { connector_type: HUBSPOT, configuration: { client_id: 'a', client_secret: 'b' }, extra: 1 },
      { connector_type: 'github', configuration: { client_id: 'a', client_secret: 'b' } },
    ]) {
      assertError(await put(body), 422, 'VALIDATION_ERROR');
    }
    assertError(
      await put({ connector_type: 'no-such-type', configuration: { client_id: 'a', client_secret: 'b' } }),
      404,
      'DEFINITION_NOT_FOUND',
    );
  });

  test('a workspace-scoped token may not set or remove OAuth apps; a token is required; organizations are apart', async () => {
    const scoped = await h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/scoped-token',
      token,
      body: { workspace_name: 'default' },
    });
    const scopedToken = scoped.json.token as string;
    assertError(
      await put(
        { connector_type: HUBSPOT, configuration: { client_id: 'a', client_secret: 'b' } },
        scopedToken,
      ),
      403,
      'FORBIDDEN',
    );
    assertError(
      await h.inject({ method: 'DELETE', url: `${URL}/connector_type/${HUBSPOT}`, token: scopedToken }),
      403,
      'FORBIDDEN',
    );
    assertError(await h.inject({ method: 'PUT', url: URL, body: {} }), 401, 'UNAUTHENTICATED');
    const mine = await put({
      connector_type: HUBSPOT,
      configuration: { client_id: 'a', client_secret: 'b' },
    });
    const other = await h.otherOrg();
    const theirs = await put(
      { connector_type: HUBSPOT, configuration: { client_id: 'c', client_secret: 'd' } },
      other.token,
    );
    assert.notEqual(theirs.json.id, mine.json.id);
    await h.inject({ method: 'DELETE', url: `${URL}/connector_type/${HUBSPOT}`, token: other.token });
    const still = await h.deps.store.oauthApps.get(h.boot.organization_id, mine.json.connector_definition_id);
    assert.equal(still?.client_id, 'a', "another organization's delete left this one's app alone");
  });
});
