// Gong's OAuth2.0 option through the HTTP API, against the Gong fake on one origin: the API under /v2 and the
// token endpoint at /oauth2/generate-customer-token, which CES_UPSTREAM_OVERRIDES={"gong": fake.url} reaches by
// rewriting the token URL's origin (https://app.gong.io → the fake's). Gong refresh tokens are single-use, so a
// rotation ces failed to store would show as invalid_grant on the next renewal.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Harness, type InjectOptions, type InjectResult, startHarness } from '../../helpers/harness.ts';
import { assertError } from '../../http/assertions.ts';
import {
  GONG_FAKE_CLIENT_ID,
  GONG_FAKE_CLIENT_SECRET,
  GONG_TOKEN_PATH,
  type GongFake,
  type RecordedRequest,
  startGongFake,
} from './fake/index.ts';

const GONG_ID = '32382e40-3b49-4b99-9c5c-4076501914e7';
const CLIENT_BASIC = `Basic ${Buffer.from(`${GONG_FAKE_CLIENT_ID}:${GONG_FAKE_CLIENT_SECRET}`).toString('base64')}`;

const route = (r: RecordedRequest) => `${r.method} ${r.path.split('?')[0]}`;
const bearer = (r: RecordedRequest) => String(r.headers.authorization ?? '').replace(/^Bearer /, '');
const presented = (r: RecordedRequest) => new URLSearchParams(r.body).get('refresh_token');
const oauth = (values: Record<string, string>) => ({
  client_id: GONG_FAKE_CLIENT_ID,
  client_secret: GONG_FAKE_CLIENT_SECRET,
  ...values,
});

describe('Gong OAuth2.0 through the HTTP API', () => {
  let h: Harness;
  let fake: GongFake;
  let token: string;
  /** Every response of the suite, checked for leaked token values at the end. */
  const responses: InjectResult[] = [];
  const inject = async (opts: InjectOptions) => {
    const res = await h.inject(opts);
    responses.push(res);
    return res;
  };
  const create = (credentials: Record<string, unknown>, name = 'gong oauth') =>
    inject({
      method: 'POST',
      url: '/api/v1/integrations/connectors',
      token,
      body: { workspace_name: 'default', definition_id: GONG_ID, name, credentials },
    });
  const listUsers = (id: string) =>
    inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token,
      body: { entity: 'users', action: 'list' },
    });
  /** Gong's token endpoint presented with a refresh token directly, as another client would. */
  const redeem = async (refreshToken: string) => {
    const res = await fetch(`${fake.origin}${GONG_TOKEN_PATH}`, {
      method: 'POST',
      headers: { authorization: CLIENT_BASIC, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    });
    const body = (await res.json()) as { error?: string };
    return { status: res.status, error: body.error };
  };
  /** A connector whose stored access token expires within ces's refresh margin (expires_in 30 at create). */
  const createStale = async (name: string) => {
    fake.oauth.expiresIn = 30;
    try {
      const res = await create(oauth({ refresh_token: fake.oauth.grant().refresh_token }), name);
      assert.equal(res.status, 200, res.body);
      return { id: res.json.id as string, refreshToken: fake.oauth.issued.at(-1)! };
    } finally {
      fake.oauth.expiresIn = 86_400;
    }
  };

  before(async () => {
    fake = await startGongFake();
    h = await startHarness({ CES_UPSTREAM_OVERRIDES: JSON.stringify({ gong: fake.url }) });
    token = await h.token();
  });
  after(async () => {
    await h.close();
    await fake.close();
  });

  let connectorId: string;
  let createdAccess: string;

  test('create with only a refresh token: the check renews it at the override origin and stores the rotation', async () => {
    const grant = fake.oauth.grant();
    const res = await create(oauth({ refresh_token: grant.refresh_token }));
    assert.equal(res.status, 200, res.body);
    connectorId = res.json.id;
    assert.equal(res.json.connector_type, 'gong');
    assert.equal(res.json.credential_option, 'OAuth2.0');
    assert.equal(res.json.credentials_status, 'valid');
    assert.equal(res.json.credentials_error, null);
    assert.deepEqual(fake.requests.map(route), [`POST ${GONG_TOKEN_PATH}`, 'GET /v2/workspaces']);
    const [tokenReq, check] = fake.requests;
    assert.equal(tokenReq!.path, GONG_TOKEN_PATH, 'no parameter in the URL');
    assert.equal(tokenReq!.headers.authorization, CLIENT_BASIC);
    assert.match(String(tokenReq!.headers['content-type']), /^application\/x-www-form-urlencoded/);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(tokenReq!.body)), {
      grant_type: 'refresh_token',
      refresh_token: grant.refresh_token,
    });
    [createdAccess] = fake.oauth.issued.slice(-2) as [string, string];
    assert.equal(check!.headers.authorization, `Bearer ${createdAccess}`);
    // The refresh token the client sent is spent now: Gong refuses it to anyone.
    assert.deepEqual(await redeem(grant.refresh_token), { status: 400, error: 'invalid_grant' });
  });

  test('users list sends the stored access token as Bearer, without a renewal while it is fresh', async () => {
    const before = fake.requests.length;
    const res = await listUsers(connectorId);
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.result.length, 100);
    assert.equal(res.json.connector_metadata.total_records, 230);
    assert.equal(res.json.connector_metadata.has_next_page, true);
    const sent = fake.requests.slice(before);
    assert.deepEqual(sent.map(route), ['GET /v2/users']);
    assert.equal(sent[0]!.headers.authorization, `Bearer ${createdAccess}`);
  });

  test('an expiring access token is renewed exactly once per expiry, each time with the stored rotated token', async () => {
    const { id, refreshToken } = await createStale('stale');
    const presentedTokens: string[] = [];
    for (let i = 0; i < 2; i++) {
      // Tokens issued now expire within the margin too, so the second execute renews again.
      fake.oauth.expiresIn = 30;
      const before = fake.requests.length;
      let res: InjectResult;
      try {
        res = await listUsers(id);
      } finally {
        fake.oauth.expiresIn = 86_400;
      }
      assert.equal(res.status, 200, res.body);
      const sent = fake.requests.slice(before);
      assert.deepEqual(sent.map(route), [`POST ${GONG_TOKEN_PATH}`, 'GET /v2/users']);
      presentedTokens.push(presented(sent[0]!)!);
      assert.equal(bearer(sent[1]!), fake.oauth.issued.at(-2));
    }
    // The first renewal presented the token the create check stored; the second the one the first stored
    // (Gong would have answered invalid_grant to a reused one).
    assert.equal(presentedTokens[0], refreshToken);
    assert.notEqual(presentedTokens[1], presentedTokens[0]);
    for (const spent of presentedTokens)
      assert.deepEqual(await redeem(spent), { status: 400, error: 'invalid_grant' });
    const record = await inject({ method: 'GET', url: `/api/v1/integrations/connectors/${id}`, token });
    assert.equal(record.json.credentials_status, 'valid');
  });

  test('an access token Gong expired early: one 401, one renewal, one retry', async () => {
    fake.oauth.expireAccessTokens();
    const tokenRequests = fake.tokenRequests().length;
    const before = fake.requests.length;
    const res = await listUsers(connectorId);
    assert.equal(res.status, 200, res.body);
    const sent = fake.requests.slice(before);
    assert.deepEqual(sent.map(route), ['GET /v2/users', `POST ${GONG_TOKEN_PATH}`, 'GET /v2/users']);
    assert.equal(bearer(sent[0]!), createdAccess);
    assert.equal(bearer(sent[2]!), fake.oauth.issued.at(-2));
    assert.equal(fake.tokenRequests().length - tokenRequests, 1);
  });

  test('concurrent executes with a stale token make one token request', async () => {
    const { id } = await createStale('concurrent');
    const tokenRequests = fake.tokenRequests().length;
    const apiBefore = fake.apiRequests().length;
    fake.oauth.tokenDelayMs = 50;
    let results: InjectResult[];
    try {
      results = await Promise.all(Array.from({ length: 5 }, () => listUsers(id)));
    } finally {
      fake.oauth.tokenDelayMs = 0;
    }
    for (const r of results) assert.equal(r.status, 200, r.body);
    assert.equal(fake.tokenRequests().length - tokenRequests, 1);
    const api = fake.apiRequests().slice(apiBefore);
    assert.equal(api.length, 5);
    assert.deepEqual([...new Set(api.map(bearer))], [fake.oauth.issued.at(-2)]);
  });

  test('create refuses a refresh token Gong refuses; nothing is stored', async () => {
    const count = async () =>
      (await inject({ method: 'GET', url: '/api/v1/integrations/connectors', token })).json.data.length;
    const n = await count();
    const spent = fake.oauth.grant().refresh_token;
    assert.equal((await redeem(spent)).status, 200);
    const refused = await create(oauth({ refresh_token: spent }), 'refused');
    assertError(refused, 422, 'INVALID_CREDENTIALS');
    assert.match(refused.json.message, /invalid_grant/);
    const badClient = await create(
      oauth({ refresh_token: fake.oauth.grant().refresh_token, client_secret: 'wrong-client-secret' }),
      'bad client',
    );
    assertError(badClient, 422, 'INVALID_CREDENTIALS');
    assert.equal(await count(), n);
  });

  test('invalid_grant marks the connector needs_reauth; executes answer 424 without calling Gong until a PUT', async () => {
    const url = `/api/v1/integrations/connectors/${connectorId}`;
    fake.oauth.revokeRefreshTokens();
    fake.oauth.expireAccessTokens();

    const before = fake.requests.length;
    const refused = await listUsers(connectorId);
    assertError(refused, 424, 'CONNECTOR_REAUTH_REQUIRED');
    assert.match(refused.json.message, /invalid_grant/);
    assert.equal(refused.json.credentials_status, 'needs_reauth');
    assert.deepEqual(fake.requests.slice(before).map(route), ['GET /v2/users', `POST ${GONG_TOKEN_PATH}`]);

    const record = await inject({ method: 'GET', url, token });
    assert.equal(record.status, 200, record.body);
    assert.equal(record.json.credentials_status, 'needs_reauth');
    assert.match(record.json.credentials_error, /Gong's token endpoint refused to renew the access token/);
    assert.match(record.json.credentials_error, /HTTP 400 invalid_grant/);

    const quiet = fake.requests.length;
    assertError(await listUsers(connectorId), 424, 'CONNECTOR_REAUTH_REQUIRED');
    assertError(await listUsers(connectorId), 424, 'CONNECTOR_REAUTH_REQUIRED');
    assert.equal(fake.requests.length, quiet, 'Gong was not called');

    // The admin authorised the app again: PUT the new refresh token.
    const fresh = fake.oauth.grant();
    const put = await inject({
      method: 'PUT',
      url,
      token,
      body: { credentials: oauth({ refresh_token: fresh.refresh_token }) },
    });
    assert.equal(put.status, 200, put.body);
    assert.equal(put.json.credentials_status, 'valid');
    assert.equal(put.json.credentials_error, null);
    const putAccess = fake.oauth.issued.at(-2);
    const ok = await listUsers(connectorId);
    assert.equal(ok.status, 200, ok.body);
    assert.deepEqual(fake.requests.slice(quiet).map(route), [
      `POST ${GONG_TOKEN_PATH}`,
      'GET /v2/workspaces',
      'GET /v2/users',
    ]);
    assert.equal(bearer(fake.apiRequests().at(-1)!), putAccess);
  });

  test('no token or client secret appears in any response, the logs or the database file', async () => {
    assert.deepEqual(fake.unhandled, []);
    const secrets = [...fake.oauth.issued, GONG_FAKE_CLIENT_SECRET];
    assert.ok(secrets.length > 20, String(secrets.length));
    const texts = [
      ...responses.map((r) => r.body),
      ...responses.map((r) => JSON.stringify(r.headers)),
      h.logs(),
    ];
    const stored = await h.storedBytes();
    assert.ok(stored.length > 0);
    texts.push(stored.toString('latin1'));
    for (const secret of secrets) {
      for (const text of texts) assert.ok(!text.includes(secret), 'a token value leaked');
    }
    // Refresh tokens never travelled in a URL either.
    for (const r of fake.tokenRequests()) assert.equal(r.path, GONG_TOKEN_PATH);
  });
});
