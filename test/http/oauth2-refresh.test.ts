import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions, InjectResult } from '../helpers/harness.ts';
import {
  createOAuthConnector,
  type Harness,
  type OAuthFake,
  oauthCredentials,
  startWithOAuth,
} from '../helpers/oauth.ts';
import { assertError } from './assertions.ts';

const bearer = (r: { headers: Record<string, unknown> }) =>
  String(r.headers.authorization ?? '').replace(/^Bearer /, '');
const presented = (r: { body: string }) => new URLSearchParams(r.body).get('refresh_token');

describe('OAuth2 credentials with refresh', () => {
  let h: Harness;
  let fake: OAuthFake;
  let close: () => Promise<unknown>;
  let token: string;
  /** Every response of the suite, checked for leaked token values at the end. */
  const responses: InjectResult[] = [];
  const inject = async (opts: InjectOptions) => {
    const res = await h.inject(opts);
    responses.push(res);
    return res;
  };
  const execute = (id: string) =>
    inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${id}/execute`,
      token,
      body: { entity: 'items', action: 'list' },
    });
  const create = async (credentials: Record<string, unknown>) => {
    const res = await createOAuthConnector(h, token, credentials);
    responses.push(res);
    return res;
  };
  /** A connector whose stored access token expires within the refresh margin (issued with expires_in 30). */
  const createStale = async () => {
    fake.expiresIn = 30;
    try {
      const res = await create(oauthCredentials(fake, { refresh_token: fake.grant().refresh_token }));
      assert.equal(res.status, 200, res.body);
      return res.json.id as string;
    } finally {
      fake.expiresIn = 3600;
    }
  };

  before(async () => {
    ({ h, fake, close } = await startWithOAuth());
    token = await h.token();
  });
  after(() => close());

  test('create with only a refresh token: the check obtains an access token (RFC 6749 refresh request)', async () => {
    const grant = fake.grant();
    const before = fake.requests.length;
    const res = await create(oauthCredentials(fake, { refresh_token: grant.refresh_token }));
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.credential_option, 'OAuth2.0');
    assert.equal(res.json.credentials_status, 'valid');
    assert.equal(res.json.credentials_error, null);
    const sent = fake.requests.slice(before);
    assert.deepEqual(
      sent.map((r) => `${r.method} ${r.path}`),
      ['POST /oauth/token', 'GET /api/me'],
    );
    const tokenReq = sent[0]!;
    assert.match(String(tokenReq.headers['content-type']), /^application\/x-www-form-urlencoded/);
    const basic = Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64');
    assert.equal(tokenReq.headers.authorization, `Basic ${basic}`);
    const form = new URLSearchParams(tokenReq.body);
    assert.equal(form.get('grant_type'), 'refresh_token');
    assert.equal(form.get('refresh_token'), grant.refresh_token);
    assert.equal(form.has('client_secret'), false, 'client_secret only in the Basic header');
  });

  test('an access token about to expire is renewed before the call, with the rotated refresh token', async () => {
    const id = await createStale();
    const issuedAtCreate = fake.issued.slice(-2);
    const before = fake.requests.length;
    const res = await execute(id);
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(res.json.result, [
      { id: 1, name: 'first' },
      { id: 2, name: 'second' },
    ]);
    const sent = fake.requests.slice(before);
    assert.deepEqual(
      sent.map((r) => `${r.method} ${r.path}`),
      ['POST /oauth/token', 'GET /api/items'],
      'refreshed first, so the stale token was never sent',
    );
    // The refresh token issued at create (rotated by the create check) is the one presented now.
    assert.equal(presented(sent[0]!), issuedAtCreate[1]);
    assert.equal(bearer(sent[1]!), fake.issued.at(-2));
  });

  test('a 401 triggers one refresh and one retry', async () => {
    const grant = fake.grant();
    const created = await create(oauthCredentials(fake, grant));
    assert.equal(created.status, 200, created.body);
    fake.revokeAccessTokens();
    const before = fake.requests.length;
    const res = await execute(created.json.id);
    assert.equal(res.status, 200, res.body);
    const sent = fake.requests.slice(before);
    assert.deepEqual(
      sent.map((r) => `${r.method} ${r.path}`),
      ['GET /api/items', 'POST /oauth/token', 'GET /api/items'],
    );
    assert.equal(bearer(sent[0]!), grant.access_token);
    assert.equal(presented(sent[1]!), grant.refresh_token);
    assert.notEqual(bearer(sent[2]!), grant.access_token);
  });

  test('20 concurrent executes with an expired token make exactly one token request and all succeed', async () => {
    const id = await createStale();
    const tokenRequests = fake.tokenRequests().length;
    const apiBefore = fake.apiRequests().length;
    fake.tokenDelayMs = 50;
    let results: InjectResult[];
    try {
      results = await Promise.all(Array.from({ length: 20 }, () => execute(id)));
    } finally {
      fake.tokenDelayMs = 0;
    }
    for (const r of results) assert.equal(r.status, 200, r.body);
    assert.equal(fake.tokenRequests().length - tokenRequests, 1);
    const used = new Set(fake.apiRequests().slice(apiBefore).map(bearer));
    assert.equal(used.size, 1, 'every execute used the one new access token');
    assert.equal(fake.apiRequests().length - apiBefore, 20, 'no request was retried');
  });

  test('every refresh presents the newest refresh token; the provider refuses reuse of an old one', async () => {
    const grant = fake.grant();
    const created = await create(oauthCredentials(fake, grant));
    const id = created.json.id as string;
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      fake.revokeAccessTokens();
      const start = fake.tokenRequests().length;
      const res = await execute(id);
      assert.equal(res.status, 200, res.body);
      const reqs = fake.tokenRequests().slice(start);
      assert.equal(reqs.length, 1);
      seen.push(presented(reqs[0]!) as string);
    }
    assert.equal(seen[0], grant.refresh_token);
    assert.equal(new Set(seen).size, 3, 'a new refresh token each time');
    // The fake really is single-use: the first refresh token no longer works.
    const reuse = await fetch(`${fake.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: grant.refresh_token }),
    });
    assert.equal(reuse.status, 400);
    assert.equal(((await reuse.json()) as { error: string }).error, 'invalid_grant');
  });

  test('a refused refresh marks the connector needs_reauth until new credentials are PUT', async () => {
    const created = await create(oauthCredentials(fake, fake.grant()));
    const id = created.json.id as string;
    const url = `/api/v1/integrations/connectors/${id}`;
    fake.revokeAccessTokens();
    fake.revokeRefreshTokens();

    const refused = await execute(id);
    assertError(refused, 424, 'CONNECTOR_REAUTH_REQUIRED');
    assert.match(refused.json.message, /PUT the new credentials to \/api\/v1\/integrations\/connectors\//);
    assert.match(refused.json.message, /invalid_grant/);
    assert.equal(refused.json.credentials_status, 'needs_reauth');

    const record = await inject({ method: 'GET', url, token });
    assert.equal(record.json.credentials_status, 'needs_reauth');
    assert.match(record.json.credentials_error, /token endpoint refused to renew the access token/);
    assert.match(record.json.credentials_error, /HTTP 400 invalid_grant/);
    const listed = await inject({ method: 'GET', url: '/api/v1/integrations/connectors', token });
    const row = listed.json.data.find((c: { id: string }) => c.id === id);
    assert.equal(row.credentials_status, 'needs_reauth');

    // Further executes answer at once, without calling the provider.
    const before = fake.requests.length;
    assertError(await execute(id), 424, 'CONNECTOR_REAUTH_REQUIRED');
    assert.equal(fake.requests.length, before);

    // Renaming alone does not clear it.
    const renamed = await inject({ method: 'PUT', url, token, body: { name: 'renamed' } });
    assert.equal(renamed.status, 200, renamed.body);
    assert.equal(renamed.json.credentials_status, 'needs_reauth');

    const fresh = fake.grant();
    const put = await inject({
      method: 'PUT',
      url,
      token,
      body: { credentials: oauthCredentials(fake, fresh) },
    });
    assert.equal(put.status, 200, put.body);
    assert.equal(put.json.credentials_status, 'valid');
    assert.equal(put.json.credentials_error, null);
    const ok = await execute(id);
    assert.equal(ok.status, 200, ok.body);
    assert.equal(bearer(fake.apiRequests().at(-1)!), fresh.access_token);
  });

  test('an unavailable token endpoint is not a refusal: the grant stays valid and works later', async () => {
    const grant = fake.grant();
    const created = await create(oauthCredentials(fake, grant));
    const id = created.json.id as string;
    fake.revokeAccessTokens();
    fake.failNextToken({ status: 503, body: { error: 'temporarily_unavailable' } });
    assertError(await execute(id), 502, 'UPSTREAM_UNAVAILABLE');
    const record = await inject({ method: 'GET', url: `/api/v1/integrations/connectors/${id}`, token });
    assert.equal(record.json.credentials_status, 'valid');
    const ok = await execute(id);
    assert.equal(ok.status, 200, ok.body);
    assert.equal(presented(fake.tokenRequests().at(-1)!), grant.refresh_token);
  });

  test('create refuses a refresh token the provider refuses, and a client-supplied expires_at', async () => {
    const count = async () =>
      (await inject({ method: 'GET', url: '/api/v1/integrations/connectors', token })).json.data.length;
    const n = await count();
    const refused = await create(oauthCredentials(fake, { refresh_token: 'rt_not_issued_by_the_fake' }));
    assertError(refused, 422, 'INVALID_CREDENTIALS');
    assert.match(refused.json.message, /invalid_grant/);

    const managed = await create({
      ...oauthCredentials(fake, fake.grant()),
      expires_at: '2099-01-01T00:00:00.000Z',
    });
    assertError(managed, 422, 'INVALID_CREDENTIALS');
    assert.match(managed.json.message, /'expires_at' is managed by ces/);

    const missing = await create({ refresh_token: 'x', client_id: fake.clientId });
    assertError(missing, 422, 'INVALID_CREDENTIALS');
    assert.equal(await count(), n, 'nothing was stored');
  });

  test('no token or client secret appears in any response, the logs or the database file', async () => {
    assert.deepEqual(fake.unhandled, []);
    const secrets = [...fake.issued, fake.clientSecret];
    assert.ok(secrets.length > 20);
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
  });
});
