// The persistence side of OAuth2 refresh (src/core/connectors/credential-store.ts) against the real SQLite
// store, with "another process" simulated by writing the row while a refresh is in progress.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ResolvedCredentials } from '../../src/connectors/credentials.ts';
import { RefreshRejectedError } from '../../src/connectors/runtime/oauth2.ts';
import { connectorCredentialStore } from '../../src/core/connectors/credential-store.ts';
import { DomainError } from '../../src/errors.ts';
import { connectorAad } from '../../src/security/vault.ts';
import { createOAuthConnector, type Harness, oauthCredentials, startWithOAuth } from '../helpers/oauth.ts';

describe('connector credential store (compare-and-swap of refreshed credentials)', () => {
  let h: Harness;
  let close: () => Promise<unknown>;
  let org: string;
  let newConnector: () => Promise<string>;

  before(async () => {
    const started = await startWithOAuth();
    ({ h, close } = started);
    org = h.boot.organization_id;
    const token = await h.token();
    newConnector = async () => {
      const res = await createOAuthConnector(h, token, oauthCredentials(started.fake, started.fake.grant()));
      assert.equal(res.status, 200, res.body);
      return res.json.id as string;
    };
  });
  after(() => close());

  const load = async (id: string) => {
    const found = await h.deps.store.connectors.getWithCredentials(org, id);
    assert.ok(found);
    return found;
  };
  const plain = async (id: string) =>
    JSON.parse(
      h.deps.vault.decrypt((await load(id)).credentials, connectorAad(org, id)),
    ) as ResolvedCredentials;
  const seal = (id: string, c: ResolvedCredentials) =>
    h.deps.vault.encrypt(JSON.stringify(c), connectorAad(org, id));
  const withToken = (c: ResolvedCredentials, access: string): ResolvedCredentials => ({
    option: c.option,
    values: { ...c.values, access_token: access, refresh_token: `rt-of-${access}` },
  });
  const storeFor = async (id: string) =>
    connectorCredentialStore(h.deps, org, id, (await load(id)).credentials);

  test('a refresh is stored, and marks nothing', async () => {
    const id = await newConnector();
    const store = await storeFor(id);
    const current = await plain(id);
    const next = await store.refresh(current, async (c) => withToken(c, 'mine'));
    assert.equal(next.values.access_token, 'mine');
    assert.equal((await plain(id)).values.refresh_token, 'rt-of-mine');
    assert.equal((await load(id)).connector.credentials_status, 'valid');
  });

  test('credentials changed since the execute read them: used as they are, without a token request', async () => {
    const id = await newConnector();
    const store = await storeFor(id);
    const current = await plain(id);
    // Another process refreshed in between.
    const theirs = withToken(current, 'theirs');
    assert.ok(
      await h.deps.store.connectors.replaceCredentialsIfUnchanged(
        org,
        id,
        (await load(id)).credentials,
        seal(id, theirs),
      ),
    );
    let called = false;
    const got = await store.refresh(current, async (c) => {
      called = true;
      return withToken(c, 'mine');
    });
    assert.equal(called, false);
    assert.equal(got.values.access_token, 'theirs');
  });

  test('losing the swap to another process: its credentials are kept and used', async () => {
    const id = await newConnector();
    const store = await storeFor(id);
    const current = await plain(id);
    const got = await store.refresh(current, async (c) => {
      const theirs = seal(id, withToken(c, 'theirs'));
      assert.ok(
        await h.deps.store.connectors.replaceCredentialsIfUnchanged(
          org,
          id,
          (await load(id)).credentials,
          theirs,
        ),
      );
      return withToken(c, 'mine');
    });
    assert.equal(got.values.access_token, 'theirs');
    assert.equal((await plain(id)).values.access_token, 'theirs');
  });

  test('a re-encryption (key rotation) during the refresh does not lose the rotated refresh token', async () => {
    const id = await newConnector();
    const store = await storeFor(id);
    const current = await plain(id);
    const got = await store.refresh(current, async (c) => {
      // Same plaintext, new ciphertext: what `ces keys rotate` writes.
      await h.deps.store.connectors.replaceCredentialsForRotation(id, seal(id, c));
      return withToken(c, 'mine');
    });
    assert.equal(got.values.access_token, 'mine');
    assert.equal((await plain(id)).values.refresh_token, 'rt-of-mine');
  });

  test('a refusal marks needs_reauth; but not when another process refreshed meanwhile', async () => {
    const id = await newConnector();
    const store = await storeFor(id);
    await assert.rejects(
      store.refresh(await plain(id), async () => {
        throw new RefreshRejectedError('Refused (HTTP 400 invalid_grant).');
      }),
      (e: unknown) =>
        e instanceof DomainError && e.code === 'CONNECTOR_REAUTH_REQUIRED' && /PUT/.test(e.message),
    );
    const marked = (await load(id)).connector;
    assert.equal(marked.credentials_status, 'needs_reauth');
    assert.equal(marked.credentials_error, 'Refused (HTTP 400 invalid_grant).');
    // Once marked, no refresh is attempted at all.
    await assert.rejects(
      (await storeFor(id)).refresh(await plain(id), async () => assert.fail('refreshed')),
      {
        code: 'CONNECTOR_REAUTH_REQUIRED',
      },
    );

    // The single-use refresh token was spent by another process that stored its result first.
    const other = await newConnector();
    const otherStore = await storeFor(other);
    const got = await otherStore.refresh(await plain(other), async (c) => {
      await h.deps.store.connectors.replaceCredentialsIfUnchanged(
        org,
        other,
        (await load(other)).credentials,
        seal(other, withToken(c, 'theirs')),
      );
      throw new RefreshRejectedError('Refused (HTTP 400 invalid_grant).');
    });
    assert.equal(got.values.access_token, 'theirs');
    assert.equal((await load(other)).connector.credentials_status, 'valid');
  });

  test('the store methods compare the ciphertext', async () => {
    const id = await newConnector();
    const { credentials } = await load(id);
    const stale = { ...credentials, ciphertext: `${credentials.ciphertext}x` };
    const next = seal(id, await plain(id));
    assert.equal(await h.deps.store.connectors.replaceCredentialsIfUnchanged(org, id, stale, next), false);
    assert.equal(await h.deps.store.connectors.markCredentialsNeedReauth(org, id, stale, 'x'), false);
    assert.equal(
      await h.deps.store.connectors.markCredentialsNeedReauth('other-org', id, credentials, 'x'),
      false,
    );
    assert.equal((await load(id)).connector.credentials_status, 'valid');
    assert.equal(await h.deps.store.connectors.markCredentialsNeedReauth(org, id, credentials, 'why'), true);
    assert.equal(
      await h.deps.store.connectors.replaceCredentialsIfUnchanged(org, id, credentials, next),
      true,
    );
    const row = (await load(id)).connector;
    assert.equal(row.credentials_status, 'valid', 'stored refreshed credentials are valid again');
    assert.equal(row.credentials_error, null);
  });
});
