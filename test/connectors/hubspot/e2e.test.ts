// HubSpot end to end through the HTTP API, against the HubSpot fake (API and token endpoint on one origin, which
// CES_UPSTREAM_OVERRIDES={"hubspot": fake.url} reaches for both): a private-app connector's check, lists paged
// with `after` in the query, gets, searches paged with `after` in the JSON body, writes read back, HubSpot's
// refusals, the Context Store (read through the CRM search, refreshed incrementally on the modification date)
// and the OAuth2.0 option's refresh paths.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  assertNoSecretInUrls,
  type ConnectorApi,
  closeAll,
  connectorApi,
  createConnector,
  startSyncing,
  startWithFake,
} from '../../helpers/connector-api.ts';
import type { Harness } from '../../helpers/harness.ts';
import { waitFor } from '../../helpers/wait.ts';
import { assertError } from '../../http/assertions.ts';
import {
  HUBSPOT_FAKE_CLIENT_ID,
  HUBSPOT_FAKE_CLIENT_SECRET,
  HUBSPOT_FAKE_PRIVATE_APP_TOKEN,
  HUBSPOT_FAKE_REFRESH_TOKEN,
  HUBSPOT_TOKEN_PATH,
  type HubSpotFake,
  type RecordedRequest,
  startHubSpotFake,
} from './fake/index.ts';
import { OBJECT_TYPES } from './fake/model.ts';

const HUBSPOT_ID = '36c891d9-4bd9-43ac-bad2-10e12756272c';
const PAT = HUBSPOT_FAKE_PRIVATE_APP_TOKEN;

const route = (r: RecordedRequest) => `${r.method} ${r.path.split('?')[0]}`;
const query = (r: RecordedRequest) => new URL(r.path, 'http://x').searchParams;
const json = (r: RecordedRequest) => JSON.parse(r.body) as Record<string, unknown>;
const bearer = (r: RecordedRequest) => String(r.headers.authorization ?? '').replace(/^Bearer /, '');

/** POST a HubSpot connector with these credentials. */
const createHubSpot = (h: Harness, token: string, credentials: Record<string, unknown>, name = 'hubspot') =>
  createConnector(h, token, { definition_id: HUBSPOT_ID, name, credentials });

describe('HubSpot private app through the HTTP API', () => {
  let fake: HubSpotFake;
  let h: Harness;
  let token: string;
  let api: ConnectorApi;

  before(async () => {
    fake = await startHubSpotFake();
    ({ h, token } = await startWithFake('hubspot', fake.url, { CES_SYNC_ENABLED: 'false' }));
  });
  after(() => closeAll(h, fake));

  test('create: the check reads the account details with the token as Bearer; a token HubSpot refuses is INVALID_CREDENTIALS', async () => {
    const refused = await createHubSpot(h, token, {
      access_token: 'pat-na1-00000000-0000-0000-0000-000000000000',
    });
    assertError(refused, 422, 'INVALID_CREDENTIALS');
    const res = await createHubSpot(h, token, { access_token: PAT });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.connector_type, 'hubspot');
    assert.equal(res.json.credential_option, 'Private App');
    api = connectorApi(h, token, res.json.id);
    assert.deepEqual(fake.requests.map(route), [
      'GET /account-info/v3/details',
      'GET /account-info/v3/details',
    ]);
    assert.equal(fake.requests[1]?.headers.authorization, `Bearer ${PAT}`);
  });

  test('contacts.list follows paging.next.after in the query to the last page, also under the catalog name `after`', async () => {
    const mark = fake.requests.length;
    const ids: string[] = [];
    let res = await api.exec('contacts', 'list', { limit: 25, properties: ['email', 'jobtitle'] });
    for (let page = 1; ; page++) {
      assert.equal(res.status, 200, res.body);
      ids.push(...res.json.result.map((r: { id: string }) => r.id));
      if (!res.json.connector_metadata.has_next_page) break;
      // The hosted catalog's name for the page cursor on every other page.
      const cursor = res.json.connector_metadata.end_cursor;
      res = await api.exec('contacts', 'list', page % 2 === 1 ? { after: cursor } : { cursor });
    }
    assert.equal(ids.length, 61, '64 seeded, 3 archived');
    assert.equal(new Set(ids).size, 61);
    const first = (await api.exec('contacts', 'list', { limit: 1 })).json.result[0];
    assert.deepEqual(Object.keys(first), ['id', 'properties', 'createdAt', 'updatedAt', 'archived']);
    const sent = fake.requests.slice(mark, mark + 3);
    assert.deepEqual(sent.map(route), Array(3).fill('GET /crm/v3/objects/contacts'));
    assert.deepEqual(
      sent.map((r) => [query(r).get('limit'), query(r).get('properties'), query(r).get('after')]),
      [
        ['25', 'email,jobtitle', null],
        // HubSpot's `after` is the id the next page starts at.
        ['25', 'email,jobtitle', ids[25]],
        ['25', 'email,jobtitle', ids[50]],
      ],
    );
  });

  test('contacts.get by email (idProperty) with property history and associations', async () => {
    const res = await api.exec('contacts', 'get', {
      contactId: 'Ada.Nordin0@northwindtraders.example.com',
      idProperty: 'email',
      properties: ['email', 'lifecyclestage'],
      propertiesWithHistory: ['lifecyclestage'],
      associations: ['companies'],
    });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.result.id, '1001');
    assert.equal(res.json.result.properties.lifecyclestage, 'customer');
    assert.equal(res.json.result.propertiesWithHistory.lifecyclestage.length, 2);
    assert.equal(res.json.result.associations.companies.results[0].id, '5001');
    const sent = fake.requests.at(-1) as RecordedRequest;
    assert.equal(
      sent.path.split('?')[0],
      '/crm/v3/objects/contacts/Ada.Nordin0%40northwindtraders.example.com',
    );
    assert.equal(query(sent).get('idProperty'), 'email');
    assert.equal(query(sent).get('associations'), 'companies');
  });

  test("companies.api_search builds HubSpot's search body from flat params and pages with `after` in the body", async () => {
    const mark = fake.requests.length;
    const params = {
      updated_after: '2024-06-01T00:00:00Z',
      filter: { propertyName: 'industry', operator: 'IN', values: ['RETAIL', 'COMPUTER_SOFTWARE'] },
      sorts: [{ propertyName: 'hs_lastmodifieddate', direction: 'ASCENDING' }],
      properties: ['name', 'industry', 'hs_lastmodifieddate'],
      limit: 4,
    };
    const pages = await api.pages('companies', 'api_search', params);
    const records: Array<{ properties: Record<string, string> }> = pages.flatMap((p) => p.result);
    const expected = fake.data.records
      .get('companies')
      ?.filter(
        (r) =>
          !r.archived &&
          r.updatedAt >= '2024-06-01T00:00:00.000Z' &&
          ['RETAIL', 'COMPUTER_SOFTWARE'].includes(r.properties.industry ?? ''),
      );
    assert.ok(expected && expected.length > 4, 'the filter leaves more than one page');
    assert.equal(records.length, expected.length);
    assert.equal(pages.at(-1).connector_metadata.total, expected.length);
    const stamps = records.map((r) => r.properties.hs_lastmodifieddate as string);
    assert.deepEqual(stamps, [...stamps].sort(), 'ascending');

    const sent = fake.requests.slice(mark);
    assert.ok(sent.every((r) => route(r) === 'POST /crm/v3/objects/companies/search'));
    assert.match(String(sent[0]?.headers['content-type']), /^application\/json/);
    assert.deepEqual(json(sent[0] as RecordedRequest), {
      filterGroups: [
        {
          filters: [
            { propertyName: 'hs_lastmodifieddate', operator: 'GTE', value: '2024-06-01T00:00:00Z' },
            { propertyName: 'industry', operator: 'IN', values: ['RETAIL', 'COMPUTER_SOFTWARE'] },
          ],
        },
      ],
      sorts: [{ propertyName: 'hs_lastmodifieddate', direction: 'ASCENDING' }],
      properties: ['name', 'industry', 'hs_lastmodifieddate'],
      limit: 4,
    });
    // Later pages repeat the body with only HubSpot's `after` added.
    const { after: second, ...rest } = json(sent[1] as RecordedRequest);
    assert.equal(second, '4');
    assert.deepEqual(rest, json(sent[0] as RecordedRequest));

    // With nothing but a text query, the template leaves filterGroups out.
    const byName = await api.exec('companies', 'api_search', { query: 'harbor' });
    assert.equal(byName.status, 200, byName.body);
    assert.ok(byName.json.result.length > 0);
    assert.deepEqual(json(fake.requests.at(-1) as RecordedRequest), { query: 'harbor' });
  });

  test('api_search takes the short sort form as `sort` (sent as sorts), never together with sorts', async () => {
    const res = await api.exec('deals', 'api_search', {
      sort: ['-amount'],
      limit: 5,
      properties: ['amount'],
    });
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(json(fake.requests.at(-1) as RecordedRequest), {
      properties: ['amount'],
      limit: 5,
      sorts: ['-amount'],
    });
    const amounts = res.json.result.map((r: { properties: { amount: string } }) =>
      Number(r.properties.amount),
    );
    assert.deepEqual(
      amounts,
      [...amounts].sort((a, b) => b - a),
    );
    const mark = fake.requests.length;
    const both = await api.exec('deals', 'api_search', {
      sort: ['amount'],
      sorts: [{ propertyName: 'amount', direction: 'ASCENDING' }],
    });
    assertError(both, 422, 'INVALID_PARAMS');
    assert.equal(fake.requests.length, mark, 'HubSpot was not asked');
  });

  test('deals.create answers the new deal; get reads it back; update moves its stage', async () => {
    const created = await api.exec('deals', 'create', {
      properties: {
        dealname: 'E2E expansion',
        pipeline: 'default',
        dealstage: 'qualifiedtobuy',
        amount: 4200,
      },
    });
    assert.equal(created.status, 200, created.body);
    const dealId = created.json.result.id as string;
    assert.match(dealId, /^\d+$/);
    const sent = fake.requests.at(-1) as RecordedRequest;
    assert.equal(route(sent), 'POST /crm/v3/objects/deals');
    assert.deepEqual(json(sent), {
      properties: {
        dealname: 'E2E expansion',
        pipeline: 'default',
        dealstage: 'qualifiedtobuy',
        amount: 4200,
      },
    });

    const read = await api.exec('deals', 'get', { dealId, properties: ['dealname', 'amount', 'dealstage'] });
    assert.equal(read.status, 200, read.body);
    assert.equal(read.json.result.properties.dealname, 'E2E expansion');
    assert.equal(read.json.result.properties.amount, '4200');

    const updated = await api.exec('deals', 'update', { dealId, properties: { dealstage: 'closedwon' } });
    assert.equal(updated.status, 200, updated.body);
    assert.equal(route(fake.requests.at(-1) as RecordedRequest), `PATCH /crm/v3/objects/deals/${dealId}`);
    const again = await api.exec('deals', 'get', { dealId, propertiesWithHistory: ['dealstage'] });
    assert.deepEqual(
      again.json.result.propertiesWithHistory.dealstage.map((e: { value: string }) => e.value),
      ['closedwon', 'qualifiedtobuy'],
    );
  });

  test("HubSpot's refusals: 404, 409 and 400 with their message; a 429 without Retry-After is retried after the declared wait", async () => {
    const missing = await api.exec('tickets', 'get', { ticketId: '424242' });
    assertError(missing, 404, 'UPSTREAM_NOT_FOUND');
    assert.equal(missing.json.upstream.status, 404);
    assert.equal(missing.json.upstream.body.category, 'OBJECT_NOT_FOUND');
    assert.equal(typeof missing.json.upstream.body.correlationId, 'string');

    const duplicate = await api.exec('contacts', 'create', {
      properties: { email: 'ada.nordin0@northwindtraders.example.com' },
    });
    assertError(duplicate, 422, 'INVALID_PARAMS');
    assert.match(duplicate.json.message, /Contact already exists\. Existing ID: 1001/);

    const badType = await api.exec('objects', 'list', { objectType: 'widgets' });
    assertError(badType, 422, 'INVALID_PARAMS');
    assert.match(badType.json.message, /Unable to infer object type from: widgets/);

    fake.failNext({ status: 429, match: '/crm/v3/objects/tickets' });
    const mark = fake.requests.length;
    const started = Date.now();
    const res = await api.exec('tickets', 'list', { limit: 3 });
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(fake.requests.slice(mark).map(route), Array(2).fill('GET /crm/v3/objects/tickets'));
    assert.ok(Date.now() - started >= 1900, 'waited retry_after_default_seconds (2 s)');
  });

  test('no request carried a credential in its URL, and every one sent the token as Bearer', () => {
    assert.deepEqual(fake.unhandled, []);
    assertNoSecretInUrls(fake.requests, [PAT]);
    for (const r of fake.requests) assert.ok(r.headers.authorization?.startsWith('Bearer pat-na1-'), r.path);
  });
});

describe('HubSpot in the Context Store', () => {
  let fake: HubSpotFake;
  let h: Harness;
  let api: ConnectorApi;

  before(async () => {
    fake = await startHubSpotFake();
    ({ h, api } = await startSyncing('hubspot', fake.url, {
      definition_id: HUBSPOT_ID,
      name: 'hubspot',
      credentials: { access_token: PAT },
    }));
  });
  after(() => closeAll(h, fake));

  const searches = (entity: string) =>
    fake.requests.filter((r) => route(r) === `POST /crm/v3/objects/${entity}/search`);

  test('companies, contacts, deals and tickets are read in full through their searches, 200 per page, oldest change first', async () => {
    const counts = await Promise.all(
      ['companies', 'contacts', 'deals', 'tickets'].map(async (e) => (await api.waitReady(e)).entity_count),
    );
    assert.deepEqual(counts, [27, 61, 29, 26]);
    assert.ok(
      !fake.requests.some((r) => r.method === 'GET' && r.path.startsWith('/crm/v3/objects/')),
      'no list is read',
    );
    // The backfill: no bound (no start_date), ascending by the modification date, the indexed properties named.
    const first = (entity: string) => json(searches(entity)[0] as RecordedRequest);
    assert.deepEqual(first('contacts'), {
      properties: [
        'email',
        'firstname',
        'lastname',
        'phone',
        'company',
        'jobtitle',
        'lifecyclestage',
        'createdate',
        'lastmodifieddate',
      ],
      limit: 200,
      sorts: ['lastmodifieddate'],
    });
    for (const entity of ['companies', 'deals', 'tickets']) {
      const body = first(entity);
      assert.deepEqual(Object.keys(body).sort(), ['limit', 'properties', 'sorts'], entity);
      assert.deepEqual(body.sorts, ['hs_lastmodifieddate'], entity);
      assert.equal(body.limit, 200, entity);
      assert.ok((body.properties as string[]).includes('hs_lastmodifieddate'), entity);
    }
    // A non-default property is indexed: a contact's phone, as the fake seeded it.
    const seeded = fake.data.records.get('contacts')?.find((r) => r.id === '1003');
    const byPhone = await api.search('contacts', {
      query: { filter: { eq: { 'properties.phone': seeded?.properties.phone } } },
    });
    assert.equal(byPhone.status, 200, byPhone.body);
    assert.deepEqual(
      byPhone.json.result.map((r: { id: string }) => r.id),
      ['1003'],
    );
  });

  test('a contact modified in HubSpot reaches the index with the next refresh, which asks only for changes since the last one seen', async () => {
    const type = OBJECT_TYPES.find((t) => t.key === 'contacts');
    const live = (fake.data.records.get('contacts') ?? []).filter((r) => !r.archived);
    const newest = Math.max(...live.map((r) => Date.parse(r.properties.lastmodifieddate as string)));
    const record = live.find((r) => r.id === '1002');
    assert.ok(type && record && record.properties.lifecyclestage !== 'evangelist');
    fake.data.update(type, record, { phone: '+1 617 555 0199', lifecyclestage: 'evangelist' }, new Date());

    const found = await waitFor(
      'the modified contact in the index',
      async () => {
        const res = await api.search('contacts', {
          query: { filter: { eq: { 'properties.phone': '+1 617 555 0199' } } },
        });
        assert.equal(res.status, 200, res.body);
        return res.json.result.length > 0 ? res.json.result : undefined;
      },
      30_000,
    );
    assert.deepEqual(
      found.map((r: { id: string; properties: Record<string, string> }) => [
        r.id,
        r.properties.lifecyclestage,
      ]),
      [['1002', 'evangelist']],
    );
    assert.equal((await api.waitReady('contacts')).entity_count, 61, 'upserted, not added');

    // Every request after the backfill is a refresh bounded by the newest lastmodifieddate stored, less the
    // declared 300 s lookback, to the second (HubSpot's GTE filter on the same property), still ascending.
    const refreshes = searches('contacts').slice(1);
    assert.ok(refreshes.length > 0);
    const bound = new Date(Math.floor((newest - 300_000) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    assert.deepEqual(json(refreshes[0] as RecordedRequest).filterGroups, [
      { filters: [{ propertyName: 'lastmodifieddate', operator: 'GTE', value: bound }] },
    ]);
    for (const r of refreshes) {
      const body = json(r);
      assert.deepEqual(body.sorts, ['lastmodifieddate']);
      const filters = (body.filterGroups as Array<{ filters: Array<Record<string, string>> }>)[0]?.filters;
      assert.equal(filters?.length, 1);
      assert.ok((filters?.[0]?.value ?? '') >= bound, 'the bound never goes back');
    }
    assert.deepEqual(fake.unhandled, []);
  });

  test('search finds records by a property (exact email, words of a ticket subject) and sorts by a date', async () => {
    const search = (entity: string, q: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      api.search(entity, { query: q, ...extra });
    const byEmail = await search('contacts', {
      filter: { eq: { 'properties.email': 'ada.nordin0@northwindtraders.example.com' } },
    });
    assert.equal(byEmail.status, 200, byEmail.body);
    assert.deepEqual(
      byEmail.json.result.map((r: { id: string }) => r.id),
      ['1001'],
    );
    const bySubject = await search(
      'tickets',
      {
        filter: { fuzzy: { 'properties.subject': 'invoice mismatch' } },
        sort: [{ 'properties.hs_lastmodifieddate': 'desc' }],
      },
      { limit: 100 },
    );
    assert.equal(bySubject.status, 200, bySubject.body);
    const expected = fake.data.records
      .get('tickets')
      ?.filter((t) => !t.archived && t.properties.subject?.startsWith('Invoice mismatch'));
    assert.ok(expected && expected.length > 1);
    const found = bySubject.json.result as Array<{ id: string; properties: { hs_lastmodifieddate: string } }>;
    assert.deepEqual(found.map((t) => t.id).sort(), expected.map((t) => t.id).sort());
    const stamps = found.map((t) => t.properties.hs_lastmodifieddate);
    assert.deepEqual(stamps, [...stamps].sort().reverse());
  });
});

describe('HubSpot OAuth2.0 through the HTTP API', () => {
  let fake: HubSpotFake;
  let h: Harness;
  let token: string;
  let api: ConnectorApi;
  const oauth = (values: Record<string, string>) => ({
    client_id: HUBSPOT_FAKE_CLIENT_ID,
    client_secret: HUBSPOT_FAKE_CLIENT_SECRET,
    ...values,
  });
  const listCompanies = () => api.exec('companies', 'list', { limit: 2 });

  before(async () => {
    fake = await startHubSpotFake();
    ({ h, token } = await startWithFake('hubspot', fake.url, { CES_SYNC_ENABLED: 'false' }));
  });
  after(() => closeAll(h, fake));

  test("create with only a refresh token: ces renews it at HubSpot's token endpoint (form body, client in the body)", async () => {
    const res = await createHubSpot(h, token, oauth({ refresh_token: HUBSPOT_FAKE_REFRESH_TOKEN }));
    assert.equal(res.status, 200, res.body);
    api = connectorApi(h, token, res.json.id);
    assert.equal(res.json.credential_option, 'OAuth2.0');
    assert.equal(res.json.credentials_status, 'valid');
    assert.deepEqual(fake.requests.map(route), [
      `POST ${HUBSPOT_TOKEN_PATH}`,
      'GET /account-info/v3/details',
    ]);
    const [tokenReq, check] = fake.requests as [RecordedRequest, RecordedRequest];
    assert.equal(tokenReq.path, HUBSPOT_TOKEN_PATH, 'nothing in the URL');
    assert.equal(tokenReq.headers.authorization, undefined);
    assert.match(String(tokenReq.headers['content-type']), /^application\/x-www-form-urlencoded/);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(tokenReq.body)), {
      grant_type: 'refresh_token',
      refresh_token: HUBSPOT_FAKE_REFRESH_TOKEN,
      client_id: HUBSPOT_FAKE_CLIENT_ID,
      client_secret: HUBSPOT_FAKE_CLIENT_SECRET,
    });
    assert.equal(bearer(check), fake.oauth.log.at(-1)?.access_token);

    const list = await listCompanies();
    assert.equal(list.status, 200, list.body);
    assert.equal(list.json.result.length, 2);
    assert.equal(fake.tokenRequests().length, 1, 'a fresh token is not renewed');
  });

  test('an access token HubSpot reports expired (401 EXPIRED_AUTHENTICATION): one renewal, one retry', async () => {
    const previous = fake.oauth.log.at(-1)?.access_token as string;
    fake.oauth.expireAccessTokens();
    const mark = fake.requests.length;
    const res = await listCompanies();
    assert.equal(res.status, 200, res.body);
    const sent = fake.requests.slice(mark);
    assert.deepEqual(sent.map(route), [
      'GET /crm/v3/objects/companies',
      `POST ${HUBSPOT_TOKEN_PATH}`,
      'GET /crm/v3/objects/companies',
    ]);
    assert.equal(bearer(sent[0] as RecordedRequest), previous);
    assert.equal(bearer(sent[2] as RecordedRequest), fake.oauth.log.at(-1)?.access_token);
    assert.notEqual(bearer(sent[2] as RecordedRequest), previous);
  });

  test('create refuses a refresh token or client secret HubSpot refuses (BAD_REFRESH_TOKEN, BAD_CLIENT_SECRET)', async () => {
    const unknown = await createHubSpot(
      h,
      token,
      oauth({ refresh_token: 'na1-0000-0000-0000-000000000000' }),
      'bad',
    );
    assertError(unknown, 422, 'INVALID_CREDENTIALS');
    assert.match(unknown.json.message, /BAD_REFRESH_TOKEN/);
    const badSecret = await createHubSpot(
      h,
      token,
      oauth({ refresh_token: HUBSPOT_FAKE_REFRESH_TOKEN, client_secret: 'not-the-secret' }),
      'bad secret',
    );
    assertError(badSecret, 422, 'INVALID_CREDENTIALS');
    assert.ok(!badSecret.body.includes('not-the-secret'));
  });

  test('the token endpoint\'s own failure (500 {status: "error"}) is not a refused grant: UPSTREAM_ERROR, the connector stays valid', async () => {
    fake.oauth.expireAccessTokens();
    // HubSpot's error body on any status: `response.error: status` reads "error" there, not a reauth code.
    const body = {
      status: 'error',
      message: 'internal error',
      correlationId: 'c0ffee00-0000-4000-8000-000000000000',
    };
    fake.failNext({ status: 500, match: HUBSPOT_TOKEN_PATH, body });
    const mark = fake.requests.length;
    const failed = await listCompanies();
    assertError(failed, 502, 'UPSTREAM_ERROR');
    assert.match(failed.json.message, /HTTP 500 error/);
    assert.deepEqual(fake.requests.slice(mark).map(route), [
      'GET /crm/v3/objects/companies',
      `POST ${HUBSPOT_TOKEN_PATH}`,
    ]);
    const record = await api.record();
    assert.equal(record.json.credentials_status, 'valid');
    const again = await listCompanies();
    assert.equal(again.status, 200, again.body);
  });

  test('a grant HubSpot revoked (app uninstalled) marks the connector needs_reauth; executes stop calling HubSpot', async () => {
    fake.oauth.revokeRefreshTokens();
    fake.oauth.expireAccessTokens();
    const mark = fake.requests.length;
    const refused = await listCompanies();
    assertError(refused, 424, 'CONNECTOR_REAUTH_REQUIRED');
    assert.deepEqual(fake.requests.slice(mark).map(route), [
      'GET /crm/v3/objects/companies',
      `POST ${HUBSPOT_TOKEN_PATH}`,
    ]);
    const record = await api.record();
    assert.equal(record.json.credentials_status, 'needs_reauth');
    assert.match(record.json.credentials_error, /BAD_REFRESH_TOKEN/);
    const quiet = fake.requests.length;
    assertError(await listCompanies(), 424, 'CONNECTOR_REAUTH_REQUIRED');
    assert.equal(fake.requests.length, quiet, 'HubSpot was not called');
  });

  test('tokens and the client secret travel only in headers and form bodies, never in a URL', () => {
    assert.deepEqual(fake.unhandled, []);
    assertNoSecretInUrls(fake.requests, [...fake.oauth.issued, HUBSPOT_FAKE_CLIENT_SECRET]);
  });
});
