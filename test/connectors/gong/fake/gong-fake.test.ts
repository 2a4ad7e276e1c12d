// The Gong fake itself, spoken to with plain fetch: what it answers is what the connector tests rely on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  GONG_FAKE_ACCESS_KEY,
  GONG_FAKE_ACCESS_KEY_SECRET,
  GONG_FAKE_CLIENT_ID,
  GONG_FAKE_CLIENT_SECRET,
  GONG_TOKEN_PATH,
  type GongFake,
  startGongFake,
} from './index.ts';

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON bodies
type Json = Record<string, any>;

const BASIC = `Basic ${Buffer.from(`${GONG_FAKE_ACCESS_KEY}:${GONG_FAKE_ACCESS_KEY_SECRET}`).toString('base64')}`;

describe('Gong fake', () => {
  let fake: GongFake;

  before(async () => {
    fake = await startGongFake({ pageSize: 10, oauthTokens: ['oauth-token-1'] });
  });
  after(() => fake.close());

  const call = async (method: string, path: string, body?: unknown, authorization: string | null = BASIC) => {
    const headers: Record<string, string> = {};
    if (authorization !== null) headers.authorization = authorization;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${fake.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Json };
  };

  it('answers 401 {requestId, errors} without, or with wrong, credentials; accepts Basic keys and OAuth tokens', async () => {
    for (const auth of [
      null,
      'Basic Zm9vOmJhcg==',
      'Bearer nope',
      `Basic ${Buffer.from(`${GONG_FAKE_ACCESS_KEY}:`).toString('base64')}`,
    ]) {
      const res = await call('GET', '/workspaces', undefined, auth);
      assert.equal(res.status, 401, String(auth));
      assert.deepEqual(res.json.errors, ['Access denied']);
      assert.match(res.json.requestId, /^[0-9a-z]{10,20}$/);
    }
    assert.equal((await call('GET', '/workspaces')).status, 200);
    assert.equal((await call('GET', '/workspaces', undefined, 'Bearer oauth-token-1')).status, 200);
  });

  it('pages users with records.cursor present only while more remain, and refuses a cursor for other inputs', async () => {
    const first = await call('GET', '/users');
    assert.deepEqual(
      { ...first.json.records, cursor: typeof first.json.records.cursor },
      { totalRecords: 230, currentPageSize: 10, currentPageNumber: 0, cursor: 'string' },
    );
    const second = await call('GET', `/users?cursor=${encodeURIComponent(first.json.records.cursor)}`);
    assert.equal(second.json.records.currentPageNumber, 1);
    assert.equal(second.json.users[0].id, '234599484848010');
    const other = await call(
      'GET',
      `/users?includeAvatars=true&cursor=${encodeURIComponent(first.json.records.cursor)}`,
    );
    assert.equal(other.status, 400);
    assert.match(other.json.errors[0], /^Malformed request/);
    let cursor: string | undefined = first.json.records.cursor;
    let pages = 1;
    while (cursor !== undefined) {
      const page = await call('GET', `/users?cursor=${encodeURIComponent(cursor)}`);
      cursor = page.json.records.cursor;
      pages++;
    }
    assert.equal(pages, 23);
  });

  it('POST searches need a filter, keep the body between pages, and 404 when nothing matches', async () => {
    assert.equal((await call('POST', '/calls/extensive', {})).status, 400);
    assert.equal((await call('POST', '/calls/transcript', '{"filter":')).status, 400);
    const filter = { callIds: fake.data.calls.slice(0, 12).map((c) => c.id) };
    const first = await call('POST', '/calls/transcript', { filter });
    assert.equal(first.json.callTranscripts.length, 10);
    const next = await call('POST', '/calls/transcript', { filter, cursor: first.json.records.cursor });
    assert.equal(next.json.callTranscripts.length, 2);
    assert.equal(next.json.records.cursor, undefined);
    const changed = await call('POST', '/calls/transcript', {
      filter: {},
      cursor: first.json.records.cursor,
    });
    assert.equal(changed.status, 400);
    const none = await call('POST', '/calls/extensive', { filter: { fromDateTime: '2031-01-01T00:00:00Z' } });
    assert.deepEqual([none.status, none.json.errors], [404, ['No calls found for the specified period']]);
  });

  it('extensive calls carry only what contentSelector asks for', async () => {
    const filter = { callIds: [fake.data.calls[0]!.id] };
    const bare = await call('POST', '/calls/extensive', { filter });
    assert.deepEqual(Object.keys(bare.json.calls[0]), ['metaData']);
    const full = await call('POST', '/calls/extensive', {
      filter,
      contentSelector: {
        context: 'Extended',
        exposedFields: { parties: true, content: { brief: true }, media: true },
      },
    });
    assert.deepEqual(Object.keys(full.json.calls[0]), ['metaData', 'context', 'parties', 'content', 'media']);
  });

  it('GET /calls requires both dates; unknown routes are 404 and recorded as unhandled', async () => {
    const res = await call('GET', '/calls?fromDateTime=2024-01-01T00:00:00Z');
    assert.equal(res.status, 400);
    assert.equal((await call('GET', '/calls?fromDateTime=2024-01-01&toDateTime=2024-01-02')).status, 400);
    const before = fake.unhandled.length;
    assert.equal((await call('GET', '/calls/extensive')).status, 404);
    assert.equal((await call('GET', '/settings/call-outcomes')).status, 404);
    assert.deepEqual(
      fake.unhandled.slice(before).map((r) => r.path),
      ['/v2/settings/call-outcomes'],
    );
    fake.unhandled.length = before;
  });

  it('failNext and the leaky-bucket limit answer 429 with Retry-After', async () => {
    fake.failNext({ status: 429, headers: { 'Retry-After': '9' }, match: '/v2/users' });
    assert.equal((await call('GET', '/workspaces')).status, 200);
    const limited = await call('GET', '/users');
    assert.deepEqual([limited.status, limited.headers.get('retry-after')], [429, '9']);
    assert.equal((await call('GET', '/users')).status, 200);

    const strict = await startGongFake({ rateLimitPerSecond: 3 });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        const res = await fetch(`${strict.url}/workspaces`, { headers: { authorization: BASIC } });
        statuses.push([res.status, res.headers.get('retry-after')]);
        await res.arrayBuffer();
      }
      assert.deepEqual(statuses, [
        [200, null],
        [200, null],
        [200, null],
        [429, '1'],
      ]);
    } finally {
      await strict.close();
    }
  });
});

describe('Gong fake: OAuth token endpoint', () => {
  let fake: GongFake;
  const CLIENT = `Basic ${Buffer.from(`${GONG_FAKE_CLIENT_ID}:${GONG_FAKE_CLIENT_SECRET}`).toString('base64')}`;

  before(async () => {
    fake = await startGongFake();
  });
  after(() => fake.close());

  /** POST /oauth2/generate-customer-token with the params as a form body (default) or in the query. */
  const refresh = async (
    refreshToken: string,
    opts: { in?: 'body' | 'query'; authorization?: string | null; grantType?: string } = {},
  ) => {
    const params = new URLSearchParams({
      grant_type: opts.grantType ?? 'refresh_token',
      refresh_token: refreshToken,
    });
    const headers: Record<string, string> = {};
    const authorization = opts.authorization === undefined ? CLIENT : opts.authorization;
    if (authorization !== null) headers.authorization = authorization;
    const query = opts.in === 'query';
    if (!query) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(`${fake.origin}${GONG_TOKEN_PATH}${query ? `?${params}` : ''}`, {
      method: 'POST',
      headers,
      ...(query ? {} : { body: params.toString() }),
    });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Json };
  };
  const api = (token: string) =>
    fetch(`${fake.url}/users`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => {
      await r.arrayBuffer();
      return r.status;
    });

  it('renews with a single-use refresh token (form body or query) and answers Gong token fields', async () => {
    const grant = fake.oauth.grant();
    const first = await refresh(grant.refresh_token);
    assert.equal(first.status, 200, JSON.stringify(first.json));
    assert.equal(first.headers.get('cache-control'), 'no-store');
    assert.deepEqual(Object.keys(first.json).sort(), [
      'access_token',
      'api_base_url_for_customer',
      'expires_in',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    assert.equal(first.json.expires_in, 86400);
    assert.equal(first.json.api_base_url_for_customer, fake.origin);
    assert.notEqual(first.json.refresh_token, grant.refresh_token);
    // Single-use: the presented refresh token is spent.
    const reused = await refresh(grant.refresh_token);
    assert.deepEqual([reused.status, reused.json.error], [400, 'invalid_grant']);
    // The rotated one works once more, here with the params in the query string as Gong's page shows them.
    const second = await refresh(first.json.refresh_token, { in: 'query' });
    assert.equal(second.status, 200, JSON.stringify(second.json));
    assert.equal(fake.tokenRequests().length, 3);
    assert.deepEqual(fake.unhandled, []);
  });

  it('refuses bad client authentication, other grants, unknown and revoked refresh tokens', async () => {
    const grant = fake.oauth.grant();
    for (const authorization of [null, 'Basic Zm9vOmJhcg==', `Bearer ${grant.access_token}`]) {
      const res = await refresh(grant.refresh_token, { authorization });
      assert.deepEqual([res.status, res.json.error], [401, 'invalid_client'], String(authorization));
    }
    const other = await refresh(grant.refresh_token, { grantType: 'authorization_code' });
    assert.deepEqual([other.status, other.json.error], [400, 'unsupported_grant_type']);
    const unknown = await refresh('eyJhbGciOiJIUzI1NiJ9.not-issued.x');
    assert.deepEqual([unknown.status, unknown.json.error], [400, 'invalid_grant']);
    fake.oauth.revokeRefreshTokens();
    const revoked = await refresh(grant.refresh_token);
    assert.deepEqual([revoked.status, revoked.json.error], [400, 'invalid_grant']);
    assert.equal(typeof revoked.json.error_description, 'string');
  });

  it('the API takes issued access tokens as Bearer until they expire, next to Basic access keys', async () => {
    const grant = fake.oauth.grant();
    assert.equal(await api(grant.access_token), 200);
    const refreshed = await refresh(grant.refresh_token);
    assert.equal(await api(refreshed.json.access_token), 200);
    fake.oauth.expireAccessTokens();
    assert.equal(await api(refreshed.json.access_token), 401);
    const res = await fetch(`${fake.url}/users`, { headers: { authorization: BASIC } });
    await res.arrayBuffer();
    assert.equal(res.status, 200);
  });
});
