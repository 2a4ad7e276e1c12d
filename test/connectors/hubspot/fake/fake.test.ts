// The HubSpot fake itself, spoken to with plain fetch: what it answers is what the connector tests rely on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SuiteFake } from '../../suite/types.ts';
import {
  CUSTOM_FQN,
  CUSTOM_TYPE_ID,
  HUBSPOT_FAKE_CLIENT_ID,
  HUBSPOT_FAKE_CLIENT_SECRET,
  HUBSPOT_FAKE_PRIVATE_APP_TOKEN,
  HUBSPOT_FAKE_REDIRECT_URI,
  HUBSPOT_FAKE_REFRESH_TOKEN,
  HUBSPOT_TOKEN_PATH,
  type HubSpotFake,
  PORTAL_ID,
  startHubSpotFake,
} from './index.ts';

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON bodies
type Json = Record<string, any>;

const PAT = `Bearer ${HUBSPOT_FAKE_PRIVATE_APP_TOKEN}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('HubSpot fake', () => {
  let fake: HubSpotFake;

  before(async () => {
    fake = await startHubSpotFake({ now: () => new Date('2025-09-01T12:00:00.000Z') });
    const suiteFake: SuiteFake = fake; // what the definition suite needs of it
    assert.ok(suiteFake.requests);
  });
  after(() => fake.close());

  const call = async (method: string, path: string, body?: unknown, authorization: string | null = PAT) => {
    const headers: Record<string, string> = {};
    if (authorization !== null) headers.authorization = authorization;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${fake.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: (text === '' ? {} : JSON.parse(text)) as Json };
  };
  const token = (form: Record<string, string>, contentType = 'application/x-www-form-urlencoded') =>
    fetch(`${fake.origin}${HUBSPOT_TOKEN_PATH}`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: contentType.includes('json') ? JSON.stringify(form) : new URLSearchParams(form).toString(),
    }).then(async (r) => ({ status: r.status, json: (await r.json()) as Json }));

  it('refuses missing or unknown tokens with 401 INVALID_AUTHENTICATION and reports rate-limit headers', async () => {
    for (const auth of [null, 'Bearer pat-na1-00000000-0000-0000-0000-000000000000', 'Basic Zm9vOmJhcg==']) {
      const res = await call('GET', '/crm/v3/objects/contacts', undefined, auth);
      assert.equal(res.status, 401, String(auth));
      assert.equal(res.json.status, 'error');
      assert.equal(res.json.category, 'INVALID_AUTHENTICATION');
      assert.match(res.json.message, /^Authentication credentials not found/);
      assert.match(res.json.correlationId, UUID);
      assert.equal(res.headers.get('x-hubspot-correlation-id'), res.json.correlationId);
    }
    const ok = await call('GET', '/account-info/v3/details');
    assert.equal(ok.status, 200);
    assert.equal(ok.json.portalId, PORTAL_ID);
    assert.equal(ok.headers.get('x-hubspot-ratelimit-daily'), '250000');
    assert.equal(ok.headers.get('x-hubspot-ratelimit-interval-milliseconds'), '10000');
    assert.ok(Number(ok.headers.get('x-hubspot-ratelimit-remaining')) > 0);
  });

  it('pages a list by `after` across every page, with paging.next.link repeating the request', async () => {
    const first = await call('GET', '/crm/v3/objects/contacts?limit=25');
    assert.equal(first.json.results.length, 25);
    assert.deepEqual(Object.keys(first.json.results[0].properties), [
      'createdate',
      'email',
      'firstname',
      'hs_object_id',
      'lastmodifieddate',
      'lastname',
    ]);
    const link = new URL(first.json.paging.next.link);
    assert.equal(link.searchParams.get('after'), first.json.paging.next.after);
    assert.equal(link.searchParams.get('limit'), '25');
    const ids: string[] = first.json.results.map((r: Json) => r.id);
    let next: string | undefined = first.json.paging.next.after;
    let pages = 1;
    while (next !== undefined) {
      const page = await call('GET', `/crm/v3/objects/contacts?limit=25&after=${next}`);
      ids.push(...page.json.results.map((r: Json) => r.id));
      next = page.json.paging?.next.after;
      pages++;
    }
    assert.equal(pages, 3);
    assert.equal(ids.length, 61, '64 seeded, 3 archived');
    assert.equal(new Set(ids).size, ids.length);
    const archived = await call('GET', '/crm/v3/objects/contacts?archived=true');
    assert.equal(archived.json.results.length, 3);
    assert.ok(
      archived.json.results.every((r: Json) => r.archived === true && typeof r.archivedAt === 'string'),
    );
    const deflt = await call('GET', '/crm/v3/objects/tickets');
    assert.equal(deflt.json.results.length, 10, 'HubSpot pages 10 by default');
  });

  it('gets one record with properties, history and associations, or by a unique idProperty', async () => {
    const res = await call(
      'GET',
      '/crm/v3/objects/contacts/1001?properties=email,jobtitle,nope&propertiesWithHistory=lifecyclestage&associations=companies,deals',
    );
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.json.properties), [
      'createdate',
      'email',
      'hs_object_id',
      'jobtitle',
      'lastmodifieddate',
    ]);
    assert.equal(res.json.propertiesWithHistory.lifecyclestage.length, 2);
    assert.deepEqual(res.json.associations.companies.results, [
      { id: '5001', type: 'contact_to_company' },
      { id: '5001', type: 'contact_to_company_unlabeled' },
    ]);
    assert.equal(res.json.associations.deals.results[0].type, 'contact_to_deal');
    const byEmail = await call(
      'GET',
      `/crm/v3/objects/contacts/${encodeURIComponent(res.json.properties.email.toUpperCase())}?idProperty=email`,
    );
    assert.equal(byEmail.json.id, '1001');
    const custom = await call('GET', `/crm/v3/objects/${CUSTOM_TYPE_ID}/20001?properties=vin,make`);
    assert.equal(custom.json.properties.make, 'Volvo');
    assert.ok('hs_createdate' in custom.json.properties);
  });

  it("answers HubSpot's error bodies: 404 OBJECT_NOT_FOUND, 400 for an unknown object type or property", async () => {
    const missing = await call('GET', '/crm/v3/objects/deals/424242');
    assert.equal(missing.status, 404);
    assert.deepEqual(
      { ...missing.json, correlationId: 'x' },
      { status: 'error', message: 'resource not found', correlationId: 'x', category: 'OBJECT_NOT_FOUND' },
    );
    const type = await call('GET', '/crm/v3/objects/widgets');
    assert.equal(type.status, 400);
    assert.equal(type.json.message, 'Unable to infer object type from: widgets');
    assert.equal(type.json.category, undefined);
    const bad = await call('POST', '/crm/v3/objects/companies', { properties: { nope: 'x' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.category, 'VALIDATION_ERROR');
    assert.match(bad.json.message, /^Property values were not valid: .*PROPERTY_DOESNT_EXIST/);
  });

  it('searches with filters on hs_lastmodifieddate (or lastmodifieddate), sorts and offset paging', async () => {
    const since = '2024-09-01T00:00:00.000Z';
    const all = fake.data.records.get('deals')?.filter((r) => !r.archived && r.updatedAt >= since) ?? [];
    assert.ok(all.length > 10 && all.length < 29, 'the modification dates split the deals');
    const body = (after?: string) => ({
      filterGroups: [
        { filters: [{ propertyName: 'hs_lastmodifieddate', operator: 'GTE', value: Date.parse(since) }] },
      ],
      sorts: [{ propertyName: 'hs_lastmodifieddate', direction: 'ASCENDING' }],
      properties: ['dealname', 'amount'],
      limit: 5,
      ...(after === undefined ? {} : { after }),
    });
    const seen: Json[] = [];
    let after: string | undefined;
    do {
      const page = await call('POST', '/crm/v3/objects/deals/search', body(after));
      assert.equal(page.status, 200);
      assert.equal(page.json.total, all.length);
      assert.equal(page.headers.get('x-hubspot-ratelimit-remaining'), null, 'search answers carry none');
      seen.push(...page.json.results);
      after = page.json.paging?.next.after;
    } while (after !== undefined);
    assert.equal(seen.length, all.length);
    const stamps = seen.map((r) => r.properties.hs_lastmodifieddate);
    assert.deepEqual(stamps, [...stamps].sort());
    assert.ok(seen.every((r) => 'dealname' in r.properties && 'createdate' in r.properties));

    const contacts = await call('POST', '/crm/v3/objects/contacts/search', {
      filterGroups: [
        { filters: [{ propertyName: 'lastmodifieddate', operator: 'LT', value: '2024-03-01T00:00:00Z' }] },
        {
          filters: [
            { propertyName: 'email', operator: 'EQ', value: 'ADA.NORDIN0@NORTHWINDTRADERS.EXAMPLE.COM' },
          ],
        },
      ],
    });
    assert.ok(contacts.json.total >= 2);
    assert.ok(contacts.json.results.some((r: Json) => r.id === '1001'));
    const query = await call('POST', '/crm/v3/objects/companies/search', { query: 'harbor' });
    assert.ok(
      query.json.total >= 1 && query.json.results.every((r: Json) => /Harbor/.test(r.properties.name)),
    );
    const beyond = await call('POST', '/crm/v3/objects/contacts/search', { after: '9990', limit: 20 });
    assert.equal(beyond.status, 400);
    assert.equal(beyond.json.category, 'VALIDATION_ERROR');
  });

  it('writes change the dataset: create, read, update, search, archive', async () => {
    const created = await call('POST', '/crm/v3/objects/contacts', {
      properties: { email: 'new.person@example.com', firstname: 'New', lifecyclestage: 'lead' },
    });
    assert.equal(created.status, 201);
    assert.equal(created.json.createdAt, '2025-09-01T12:00:00.000Z');
    const id = created.json.id;
    const read = await call('GET', `/crm/v3/objects/contacts/${id}?properties=lifecyclestage`);
    assert.equal(read.json.properties.lifecyclestage, 'lead');
    const dup = await call('POST', '/crm/v3/objects/contacts', {
      properties: { email: 'new.person@example.com' },
    });
    assert.equal(dup.status, 409);
    assert.equal(dup.json.message, `Contact already exists. Existing ID: ${id}`);
    const patched = await call('PATCH', `/crm/v3/objects/contacts/${id}`, {
      properties: { lastname: 'Person' },
    });
    assert.equal(patched.status, 200);
    const found = await call('POST', '/crm/v3/objects/contacts/search', {
      filterGroups: [{ filters: [{ propertyName: 'lastname', operator: 'EQ', value: 'person' }] }],
    });
    assert.deepEqual(
      found.json.results.map((r: Json) => r.id),
      [id],
    );
    assert.equal((await call('DELETE', `/crm/v3/objects/contacts/${id}`)).status, 204);
    assert.equal((await call('GET', `/crm/v3/objects/contacts/${id}`)).status, 404);
    assert.equal((await call('GET', `/crm/v3/objects/contacts/${id}?archived=true`)).json.archived, true);
  });

  it('serves the custom object schema by fullyQualifiedName and objectTypeId', async () => {
    const list = await call('GET', '/crm/v3/schemas');
    assert.equal(list.json.results.length, 1);
    const schema = list.json.results[0];
    assert.equal(schema.fullyQualifiedName, CUSTOM_FQN);
    assert.equal(schema.objectTypeId, CUSTOM_TYPE_ID);
    assert.ok(schema.properties.some((p: Json) => p.name === 'vin' && p.hasUniqueValue === true));
    assert.equal((await call('GET', `/crm/v3/schemas/${CUSTOM_TYPE_ID}`)).json.name, 'cars');
    assert.equal((await call('GET', '/crm/v3/schemas/widgets')).status, 404);
    const cars = await call('GET', `/crm/v3/objects/${CUSTOM_FQN}?limit=5`);
    assert.equal(cars.json.results.length, 5);
    assert.ok(cars.json.paging.next.after);
  });

  it('injects faults with HubSpot bodies and records unmatched requests as unhandled', async () => {
    fake.failNext({ status: 500, match: '/crm/v3/objects/tickets' });
    const failed = await call('GET', '/crm/v3/objects/tickets');
    assert.equal(failed.status, 500);
    assert.equal(failed.json.status, 'error');
    assert.equal((await call('GET', '/crm/v3/objects/tickets')).status, 200);
    fake.failNext({ status: 429, match: '/crm/v3/objects/deals' });
    const limited = await call('GET', '/crm/v3/objects/deals');
    assert.equal(limited.json.policyName, 'SECONDLY');
    assert.equal(limited.headers.get('x-hubspot-ratelimit-secondly-remaining'), '0');
    const before = fake.unhandled.length;
    const unknown = await call('GET', '/crm/v3/nothing/here');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.message, 'resource not found');
    assert.equal((await call('PUT', '/crm/v3/objects/contacts')).status, 405);
    assert.equal(fake.unhandled.length, before + 2);
  });

  it('token endpoint: refresh and authorization_code grants, expiring access tokens, HubSpot error codes', async () => {
    const refreshed = await token({
      grant_type: 'refresh_token',
      client_id: HUBSPOT_FAKE_CLIENT_ID,
      client_secret: HUBSPOT_FAKE_CLIENT_SECRET,
      refresh_token: HUBSPOT_FAKE_REFRESH_TOKEN,
    });
    assert.equal(refreshed.status, 200);
    assert.deepEqual(Object.keys(refreshed.json).sort(), [
      'access_token',
      'expires_in',
      'refresh_token',
      'token_type',
    ]);
    assert.equal(refreshed.json.expires_in, 1800);
    assert.equal(refreshed.json.refresh_token, HUBSPOT_FAKE_REFRESH_TOKEN, 'HubSpot does not rotate it');
    const bearer = `Bearer ${refreshed.json.access_token}`;
    const ok = await call('GET', '/crm/v3/objects/contacts?limit=1', undefined, bearer);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('x-hubspot-ratelimit-daily'), null, 'OAuth calls get no daily headers');
    fake.oauth.expireAccessTokens();
    const expired = await call('GET', '/crm/v3/objects/contacts?limit=1', undefined, bearer);
    assert.equal(expired.status, 401);
    assert.equal(expired.json.category, 'EXPIRED_AUTHENTICATION');
    assert.match(
      expired.json.message,
      /^The OAuth token used to make this call expired \d+ minute\(s\) ago\.$/,
    );

    const code = fake.oauth.authorize();
    const exchanged = await token({
      grant_type: 'authorization_code',
      client_id: HUBSPOT_FAKE_CLIENT_ID,
      client_secret: HUBSPOT_FAKE_CLIENT_SECRET,
      redirect_uri: HUBSPOT_FAKE_REDIRECT_URI,
      code,
    });
    assert.equal(exchanged.status, 200);
    assert.notEqual(exchanged.json.refresh_token, HUBSPOT_FAKE_REFRESH_TOKEN);
    assert.ok(fake.oauth.issued.includes(exchanged.json.access_token));

    const base = { client_id: HUBSPOT_FAKE_CLIENT_ID, client_secret: HUBSPOT_FAKE_CLIENT_SECRET };
    const cases: Array<[Record<string, string>, string, string?]> = [
      [{ ...base, grant_type: 'refresh_token', refresh_token: 'na1-nope' }, 'BAD_REFRESH_TOKEN'],
      [{ ...base, grant_type: 'refresh_token', client_id: 'other' }, 'BAD_CLIENT_ID'],
      [{ ...base, grant_type: 'refresh_token', client_secret: 'wrong' }, 'BAD_CLIENT_SECRET'],
      [
        { ...base, grant_type: 'authorization_code', code, redirect_uri: HUBSPOT_FAKE_REDIRECT_URI },
        'BAD_AUTH_CODE',
      ],
      [{ ...base, grant_type: 'client_credentials' }, 'BAD_GRANT_TYPE'],
      [
        { ...base, grant_type: 'refresh_token', refresh_token: HUBSPOT_FAKE_REFRESH_TOKEN },
        'BAD_GRANT_TYPE',
        'json',
      ],
    ];
    for (const [form, status, json] of cases) {
      const res = await token(form, json === undefined ? undefined : 'application/json');
      assert.equal(res.status, 400, status);
      assert.equal(res.json.status, status);
      assert.equal(typeof res.json.message, 'string');
    }
    fake.oauth.revokeRefreshTokens();
    const revoked = await token({
      ...base,
      grant_type: 'refresh_token',
      refresh_token: HUBSPOT_FAKE_REFRESH_TOKEN,
    });
    assert.equal(revoked.json.status, 'BAD_REFRESH_TOKEN');
  });
});

describe('HubSpot fake rate limits', () => {
  let fake: HubSpotFake;
  before(async () => {
    fake = await startHubSpotFake({ rateLimitPerSecond: 3, searchRateLimitPerSecond: 1 });
  });
  after(() => fake.close());

  it('answers 429 with policyName and X-HubSpot-RateLimit-* headers once the second is spent', async () => {
    const get = () =>
      fetch(`${fake.url}/crm/v3/objects/companies?limit=1`, { headers: { authorization: PAT } });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get());
    assert.deepEqual(
      answers.map((r) => r.status),
      [200, 200, 200, 429],
    );
    assert.equal(answers[0]?.headers.get('x-hubspot-ratelimit-secondly'), '3');
    assert.equal(answers[2]?.headers.get('x-hubspot-ratelimit-secondly-remaining'), '0');
    const limited = answers[3] as Response;
    assert.equal(limited.headers.get('x-hubspot-ratelimit-secondly-remaining'), '0');
    assert.equal(limited.headers.get('retry-after'), null, 'HubSpot sends none');
    const body = (await limited.json()) as Json;
    assert.deepEqual(
      { ...body, correlationId: 'x' },
      {
        status: 'error',
        message: 'You have reached your secondly limit.',
        errorType: 'RATE_LIMIT',
        correlationId: 'x',
        policyName: 'SECONDLY',
        category: 'RATE_LIMITS',
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.equal((await get()).status, 200);
  });
});
