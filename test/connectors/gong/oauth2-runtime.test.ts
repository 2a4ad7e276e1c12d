// Gong's OAuth2.0 option driven through the runtime against the Gong fake, whose token endpoint follows Gong's
// OAuth docs (https://help.gong.io/docs/create-an-app-for-gong): POST /oauth2/generate-customer-token with
// grant_type=refresh_token, HTTP Basic client_id:client_secret, single-use refresh tokens rotated on every
// refresh, invalid_grant for a spent or revoked one. The override `gong: fake.url` also moves the token URL.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import {
  EXPIRES_AT,
  type ResolvedCredentials,
  resolveCredentials,
} from '../../../src/connectors/credentials.ts';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import { ConnectorRuntime } from '../../../src/connectors/runtime/executor.ts';
import {
  type CredentialStore,
  RefreshRejectedError,
  refreshSettings,
  tokenTarget,
} from '../../../src/connectors/runtime/oauth2.ts';
import { parseRecords } from '../../../src/connectors/runtime/payload.ts';
import { DomainError } from '../../../src/errors.ts';
import { FakeClock } from '../../helpers/fake-clock.ts';
import {
  GONG_FAKE_ACCESS_KEY,
  GONG_FAKE_ACCESS_KEY_SECRET,
  GONG_FAKE_CLIENT_ID,
  GONG_FAKE_CLIENT_SECRET,
  GONG_TOKEN_PATH,
  type GongFake,
  startGongFake,
} from './fake/index.ts';

const gong = DefinitionRegistry.default().bySlug('gong')!;
const option = gong.credential_options.find((o) => o.title === 'OAuth2.0')!;
const CLIENT_BASIC = `Basic ${Buffer.from(`${GONG_FAKE_CLIENT_ID}:${GONG_FAKE_CLIENT_SECRET}`).toString('base64')}`;

const oauthCredentials = (values: Record<string, string>) =>
  resolveCredentials(gong, {
    client_id: GONG_FAKE_CLIENT_ID,
    client_secret: GONG_FAKE_CLIENT_SECRET,
    ...values,
  });
const bearer = (r: { headers: Record<string, unknown> }) =>
  String(r.headers.authorization ?? '').replace(/^Bearer /, '');
const presented = (r: { body: string }) => new URLSearchParams(r.body).get('refresh_token');
const route = (r: { method: string; path: string }) => `${r.method} ${r.path.split('?')[0]}`;

/** What core does, in memory: keeps the newest credentials and counts what a refresh stored. */
class MemoryStore implements CredentialStore {
  saves = 0;
  constructor(public current: ResolvedCredentials) {}
  async refresh(
    current: ResolvedCredentials,
    doRefresh: (c: ResolvedCredentials) => Promise<ResolvedCredentials>,
  ): Promise<ResolvedCredentials> {
    // Someone else already refreshed: use theirs rather than spend the refresh token again.
    if (this.current !== current) return this.current;
    this.current = await doRefresh(current);
    this.saves++;
    return this.current;
  }
}

describe('Gong OAuth2.0 through the runtime', () => {
  let fake: GongFake;
  let rt: ConnectorRuntime;
  let clock: FakeClock;

  beforeEach(async () => {
    fake = await startGongFake({ pageSize: 100 });
    clock = new FakeClock();
    rt = new ConnectorRuntime({
      cursorKey: new Uint8Array(32).fill(9),
      upstreamOverrides: { gong: fake.url },
      timeoutMs: 5000,
      clock,
    });
  });
  afterEach(async () => {
    const unhandled = fake.unhandled.map(route);
    await rt.close();
    await fake.close();
    assert.deepEqual(unhandled, [], 'the fake received requests it has no route for');
  });

  const listUsers = (credentials: ResolvedCredentials, store?: CredentialStore, connectorId = 'gong-oauth') =>
    rt.execute({
      connectorId,
      definition: gong,
      credentials,
      config: {},
      entity: 'users',
      action: 'list',
      params: {},
      credentialStore: store,
    });

  it('is chosen by its keys; the token URL is Gong’s, and an override moves only its origin', () => {
    const creds = oauthCredentials({ refresh_token: 'r' });
    assert.equal(creds.option, 'OAuth2.0');
    assert.equal(
      resolveCredentials(gong, {
        access_key: GONG_FAKE_ACCESS_KEY,
        access_key_secret: GONG_FAKE_ACCESS_KEY_SECRET,
      }).option,
      'Access Key',
    );
    assert.throws(
      () => resolveCredentials(gong, { refresh_token: 'r', client_id: GONG_FAKE_CLIENT_ID }),
      (err: unknown) => err instanceof DomainError && err.code === 'INVALID_CREDENTIALS',
    );
    const settings = refreshSettings(option.refresh!);
    assert.deepEqual(
      [settings.clientAuth, settings.bodyFormat, settings.grantType],
      ['basic', 'form', 'refresh_token'],
    );
    const real = tokenTarget(gong, settings, {}, {}, creds);
    assert.equal(real.url.href, 'https://app.gong.io/oauth2/generate-customer-token');
    assert.equal(real.guarded, true);
    const overridden = tokenTarget(gong, settings, {}, { gong: fake.url }, creds);
    assert.equal(overridden.url.href, `${fake.origin}${GONG_TOKEN_PATH}`);
    assert.equal(overridden.guarded, false);
  });

  it('the check with only a refresh token renews first and returns the rotated grant', async () => {
    const grant = fake.oauth.grant();
    const checked = await rt.checkCredentials(
      gong,
      oauthCredentials({ refresh_token: grant.refresh_token }),
      {},
    );
    assert.deepEqual(fake.requests.map(route), [`POST ${GONG_TOKEN_PATH}`, 'GET /v2/workspaces']);
    const [tokenReq, check] = fake.requests;
    assert.equal(tokenReq!.headers.authorization, CLIENT_BASIC);
    assert.match(String(tokenReq!.headers['content-type']), /^application\/x-www-form-urlencoded/);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(tokenReq!.body)), {
      grant_type: 'refresh_token',
      refresh_token: grant.refresh_token,
    });
    assert.equal(tokenReq!.path, GONG_TOKEN_PATH, 'nothing in the URL');
    // The check used the new access token, and the rotated refresh token is what the caller must store.
    const [newAccess, newRefresh] = fake.oauth.issued.slice(-2);
    assert.equal(bearer(check!), newAccess);
    assert.equal(checked.option, 'OAuth2.0');
    assert.equal(checked.values.access_token, newAccess);
    assert.equal(checked.values.refresh_token, newRefresh);
    assert.notEqual(newRefresh, grant.refresh_token);
    const expiresIn = Date.parse(checked.values[EXPIRES_AT]!) - clock.now();
    assert.ok(expiresIn > 86_000_000 && expiresIn <= 86_400_000, String(expiresIn));
  });

  it('users list sends the access token as Bearer; a fresh token is not renewed', async () => {
    const grant = fake.oauth.grant();
    const checked = await rt.checkCredentials(
      gong,
      oauthCredentials({ refresh_token: grant.refresh_token }),
      {},
    );
    const before = fake.requests.length;
    const out = await listUsers(checked);
    assert.equal((parseRecords(out.payload) as unknown[]).length, 100);
    assert.equal(out.connector_metadata.total_records, 230);
    const sent = fake.requests.slice(before);
    assert.deepEqual(sent.map(route), ['GET /v2/users']);
    assert.equal(sent[0]!.headers.authorization, `Bearer ${checked.values.access_token}`);
  });

  it('an access token about to expire is renewed exactly once, and the store keeps the rotated refresh token', async () => {
    const grant = fake.oauth.grant();
    const checked = await rt.checkCredentials(
      gong,
      oauthCredentials({ refresh_token: grant.refresh_token }),
      {},
    );
    const store = new MemoryStore(checked);
    // ces's clock passes the token's expiry (Gong would still take it: the renewal comes before the call).
    clock.advance(86_400_000);
    let before = fake.requests.length;
    await listUsers(store.current, store);
    let sent = fake.requests.slice(before);
    assert.deepEqual(sent.map(route), [`POST ${GONG_TOKEN_PATH}`, 'GET /v2/users']);
    assert.equal(presented(sent[0]!), checked.values.refresh_token);
    assert.equal(store.saves, 1);
    assert.equal(bearer(sent[1]!), store.current.values.access_token);
    assert.notEqual(store.current.values.refresh_token, checked.values.refresh_token);

    // Expired again: the next renewal presents the rotated token, which Gong still takes.
    clock.advance(86_400_000);
    before = fake.requests.length;
    await listUsers(store.current, store);
    sent = fake.requests.slice(before);
    assert.deepEqual(sent.map(route), [`POST ${GONG_TOKEN_PATH}`, 'GET /v2/users']);
    assert.equal(store.saves, 2);

    // Presenting a spent one (what forgetting the rotation would do) is refused: re-authorisation required.
    const stale = {
      option: 'OAuth2.0',
      values: { ...checked.values, [EXPIRES_AT]: new Date(0).toISOString() },
    };
    await assert.rejects(listUsers(stale, undefined, 'other'), (err: unknown) => {
      assert.ok(err instanceof RefreshRejectedError);
      assert.equal(err.code, 'CONNECTOR_REAUTH_REQUIRED');
      assert.match(err.reason, /HTTP 400 invalid_grant/);
      return true;
    });
  });

  it('an access token Gong expired early: one 401, one renewal, one retry', async () => {
    const grant = fake.oauth.grant();
    // A client-supplied access token: ces does not know its expiry, so it is used until Gong refuses it.
    const store = new MemoryStore(oauthCredentials({ ...grant }));
    fake.oauth.expireAccessTokens();
    const out = await listUsers(store.current, store);
    assert.equal((parseRecords(out.payload) as unknown[]).length, 100);
    assert.deepEqual(fake.requests.map(route), ['GET /v2/users', `POST ${GONG_TOKEN_PATH}`, 'GET /v2/users']);
    assert.equal(bearer(fake.requests[0]!), grant.access_token);
    assert.equal(presented(fake.requests[1]!), grant.refresh_token);
    assert.equal(bearer(fake.requests[2]!), store.current.values.access_token);
    assert.equal(fake.tokenRequests().length, 1);
  });

  it('concurrent calls that find the token stale share one renewal', async () => {
    const grant = fake.oauth.grant();
    const store = new MemoryStore(oauthCredentials({ refresh_token: grant.refresh_token }));
    fake.oauth.tokenDelayMs = 50;
    const outs = await Promise.all(Array.from({ length: 6 }, () => listUsers(store.current, store)));
    for (const out of outs) assert.equal((parseRecords(out.payload) as unknown[]).length, 100);
    assert.equal(fake.tokenRequests().length, 1);
    assert.equal(new Set(fake.apiRequests().map(bearer)).size, 1);
    assert.equal(fake.apiRequests().length, 6);
  });

  it('a refused refresh token: CONNECTOR_REAUTH_REQUIRED at execute, INVALID_CREDENTIALS at the check', async () => {
    const grant = fake.oauth.grant();
    fake.oauth.revokeRefreshTokens();
    fake.oauth.expireAccessTokens();
    await assert.rejects(listUsers(oauthCredentials({ ...grant })), (err: unknown) => {
      assert.ok(err instanceof RefreshRejectedError);
      assert.match(
        err.message,
        /Gong's token endpoint refused to renew the access token \(HTTP 400 invalid_grant/,
      );
      assert.ok(!err.message.includes(grant.refresh_token));
      return true;
    });
    await assert.rejects(
      rt.checkCredentials(gong, oauthCredentials({ refresh_token: grant.refresh_token }), {}),
      (err: unknown) => {
        assert.ok(err instanceof DomainError);
        assert.equal(err.code, 'INVALID_CREDENTIALS');
        assert.match(err.message, /invalid_grant/);
        return true;
      },
    );
    // A wrong client secret is a refusal too (401 invalid_client).
    await assert.rejects(
      rt.checkCredentials(
        gong,
        oauthCredentials({
          refresh_token: fake.oauth.grant().refresh_token,
          client_secret: 'not-the-secret',
        }),
        {},
      ),
      (err: unknown) => err instanceof DomainError && err.code === 'INVALID_CREDENTIALS',
    );
  });

  it('an unavailable token endpoint is not a refusal, and its refresh token stays usable', async () => {
    const grant = fake.oauth.grant();
    fake.failNext({ status: 503, body: { error: 'temporarily_unavailable' }, match: GONG_TOKEN_PATH });
    await assert.rejects(
      listUsers(oauthCredentials({ refresh_token: grant.refresh_token })),
      (err: unknown) => err instanceof DomainError && err.code === 'UPSTREAM_UNAVAILABLE',
    );
    assert.equal(fake.tokenRequests().length, 1, 'the refresh request is never repeated');
    const out = await listUsers(oauthCredentials({ refresh_token: grant.refresh_token }));
    assert.equal((parseRecords(out.payload) as unknown[]).length, 100);
  });
});
