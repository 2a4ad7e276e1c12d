import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createGithubConnector, type GithubFake, startWithGithub } from '../connectors/github/harness.ts';
import { type Harness, type InjectResult, startHarness } from '../helpers/harness.ts';
import { assertError } from './assertions.ts';

const TOKEN_URL = '/api/v1/account/applications/token';

/** A clock the test moves by hand, so windows and buckets never depend on how fast the machine is. */
function manualClock() {
  let ms = Date.parse('2030-01-01T00:00:00Z');
  return {
    now: () => new Date(ms),
    advance: (seconds: number) => {
      ms += seconds * 1000;
    },
  };
}

const wrap = (res: Awaited<ReturnType<Harness['app']['inject']>>): InjectResult => {
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body: res.body, raw: res.rawPayload, json };
};

describe('failed token requests are throttled per address and per client id', () => {
  let h: Harness;
  const clock = manualClock();

  before(async () => {
    h = await startHarness(
      { CES_TOKEN_FAILURES_PER_ADDRESS: '3', CES_TOKEN_FAILURES_PER_CLIENT: '5' },
      { now: clock.now },
    );
  });
  after(() => h.close());

  const exchange = async (address: string, clientId: string, secret: string) =>
    wrap(
      await h.app.inject({
        method: 'POST',
        url: TOKEN_URL,
        remoteAddress: address,
        payload: { client_id: clientId, client_secret: secret },
      }),
    );
  const good = (address: string) => exchange(address, h.boot.client_id, h.boot.client_secret);

  const expectThrottled = (res: InjectResult, seconds: number) => {
    assertError(res, 429, 'RATE_LIMITED');
    assert.equal(res.headers['retry-after'], String(seconds), res.body);
    assert.equal(res.json.retry_after, seconds);
  };

  test('past the limit an address is refused before its secret is looked at, with the seconds to wait', async () => {
    const addr = '198.51.100.1';
    for (let i = 0; i < 3; i++) {
      assertError(await exchange(addr, `ces_unknown_${i}`, 'guess'), 401, 'INVALID_CLIENT_CREDENTIALS');
      clock.advance(10);
    }
    // Failures at 0, 10 and 20 s: the first leaves the window at 60 s, 30 s from now.
    expectThrottled(await exchange(addr, 'ces_unknown_x', 'guess'), 30);
    // The throttled attempt learns nothing: the right secret of a client new to this address gets the same.
    expectThrottled(await good(addr), 30);
    // Another address is not affected.
    assert.equal((await good('198.51.100.2')).status, 200);

    clock.advance(30);
    // The oldest failure has left the window: one more attempt is allowed.
    assertError(await exchange(addr, 'ces_unknown_y', 'guess'), 401, 'INVALID_CLIENT_CREDENTIALS');
    expectThrottled(await exchange(addr, 'ces_unknown_z', 'guess'), 10);
    clock.advance(61);
    assert.equal((await good(addr)).status, 200);
  });

  test("a valid client is never slowed by its address's failures of other client ids", async () => {
    const addr = '198.51.100.10';
    assert.equal((await good(addr)).status, 200);
    for (let i = 0; i < 6; i++) await exchange(addr, `ces_other_${i}`, 'guess');
    expectThrottled(await exchange(addr, 'ces_other_more', 'guess'), 60);
    for (let i = 0; i < 5; i++) assert.equal((await good(addr)).status, 200);
    clock.advance(61);
  });

  test('failures on one client id from many addresses throttle that client id everywhere', async () => {
    const home = '198.51.100.20';
    assert.equal((await good(home)).status, 200);
    for (let i = 0; i < 5; i++) {
      const res = await exchange(`203.0.113.${i + 1}`, h.boot.client_id, 'wrong-secret');
      assertError(res, 401, 'INVALID_CLIENT_CREDENTIALS');
    }
    // A sixth address: even the right secret is refused, so distributed guessing learns nothing. Where the
    // client exchanged its secret before is no exception: a guesser there would otherwise guess without limit.
    expectThrottled(await good('203.0.113.99'), 60);
    expectThrottled(await good(home), 60);
    clock.advance(61);
    assert.equal((await good('203.0.113.99')).status, 200);
  });

  test('successful exchanges never count', async () => {
    for (let i = 0; i < 20; i++) assert.equal((await good('198.51.100.30')).status, 200);
  });

  test('IPv6 addresses count per /64', async () => {
    for (let i = 1; i <= 3; i++) await exchange(`2001:db8:1:2::${i}`, `ces_v6_${i}`, 'guess');
    expectThrottled(await exchange('2001:db8:1:2:ffff::9', 'ces_v6_x', 'guess'), 60);
    assertError(await exchange('2001:db8:1:3::1', 'ces_v6_y', 'guess'), 401, 'INVALID_CLIENT_CREDENTIALS');
    clock.advance(61);
  });
});

describe('requests per second per organization', () => {
  let h: Harness;
  let token: string;
  const clock = manualClock();

  before(async () => {
    h = await startHarness({ CES_MAX_REQUESTS_PER_SECOND: '2' }, { now: clock.now });
    token = await h.token();
  });
  after(() => h.close());

  const list = (t = token) => h.inject({ method: 'GET', url: '/api/v1/workspaces', token: t });

  test('a burst of twice the rate passes, then 429 RATE_LIMITED with Retry-After; the bucket refills', async () => {
    for (let i = 0; i < 4; i++) assert.equal((await list()).status, 200, `request ${i + 1}`);
    const limited = await list();
    assertError(limited, 429, 'RATE_LIMITED');
    assert.equal(limited.headers['retry-after'], '1');
    assert.match(limited.json.message, /CES_MAX_REQUESTS_PER_SECOND/);

    // Another organization has its own bucket; public routes are not counted.
    const other = await h.otherOrg();
    assert.equal((await list(other.token)).status, 200);
    assert.equal((await h.inject({ method: 'GET', url: '/healthz' })).status, 200);
    // A request without a valid token is refused by authentication, before it is counted.
    assertError(await list('not-a-token'), 401, 'UNAUTHENTICATED');

    clock.advance(1);
    assert.equal((await list()).status, 200);
    assert.equal((await list()).status, 200);
    assertError(await list(), 429, 'RATE_LIMITED');
  });
});

describe('workspaces per organization', () => {
  let h: Harness;
  let token: string;

  before(async () => {
    h = await startHarness({ CES_MAX_WORKSPACES_PER_ORGANIZATION: '3' });
    token = await h.token();
  });
  after(() => h.close());

  const scoped = (name: string, t = token) =>
    h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/scoped-token',
      token: t,
      body: { workspace_name: name },
    });

  test('a scoped token for a new workspace past the limit is 403 QUOTA_EXCEEDED naming the variable', async () => {
    // `default` is the first of three.
    assert.equal((await scoped('w2')).status, 200);
    assert.equal((await scoped('w3')).status, 200);
    const over = await scoped('w4');
    assertError(over, 403, 'QUOTA_EXCEEDED');
    assert.match(over.json.message, /CES_MAX_WORKSPACES_PER_ORGANIZATION/);
    assert.equal(over.json.errors[0].details.limit, 3);
    // Existing workspaces still get tokens; other organizations have their own count.
    assert.equal((await scoped('w2')).status, 200);
    const other = await h.otherOrg();
    assert.equal((await scoped('w4', other.token)).status, 200);

    const listed = await h.inject({ method: 'GET', url: '/api/v1/workspaces?name_contains=w', token });
    const w3 = listed.json.data.find((w: { name: string }) => w.name === 'w3');
    const del = await h.inject({ method: 'DELETE', url: `/api/v1/workspaces/${w3.id}`, token });
    assert.equal(del.status, 200, del.body);
    assert.equal((await scoped('w4')).status, 200);
  });

  test('creations racing each other stop exactly at the limit', async () => {
    const other = await h.otherOrg();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => scoped(`race-${i}-${randomUUID()}`, other.token)),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 200, 403, 403, 403, 403], results.map((r) => r.body).join('\n'));
  });
});

describe('connectors per organization', () => {
  let h: Harness;
  let fake: GithubFake;
  let close: () => Promise<unknown>;
  let token: string;

  before(async () => {
    ({ h, fake, close } = await startWithGithub(undefined, { CES_MAX_CONNECTORS_PER_ORGANIZATION: '2' }));
    token = await h.token();
  });
  after(() => close());

  test('past the limit a create is 403 QUOTA_EXCEEDED, before any call to the provider', async () => {
    const first = await createGithubConnector(h, token);
    assert.equal(first.status, 200, first.body);
    assert.equal((await createGithubConnector(h, token)).status, 200);
    const before = fake.requests.length;
    const over = await createGithubConnector(h, token);
    assertError(over, 403, 'QUOTA_EXCEEDED');
    assert.match(over.json.message, /CES_MAX_CONNECTORS_PER_ORGANIZATION/);
    assert.equal(fake.requests.length, before, 'the credential check was called for a refused create');

    const del = await h.inject({
      method: 'DELETE',
      url: `/api/v1/integrations/connectors/${first.json.id}`,
      token,
    });
    assert.equal(del.status, 202, del.body);
    assert.equal((await createGithubConnector(h, token)).status, 200);
  });

  test('creations racing each other stop exactly at the limit', async () => {
    const other = await h.otherOrg();
    const results = await Promise.all(Array.from({ length: 5 }, () => createGithubConnector(h, other.token)));
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 200, 403, 403, 403], results.map((r) => r.body).join('\n'));
  });
});
