// Salesforce end to end through the HTTP API, against the Salesforce fake (test/connectors/salesforce/fake): the
// credential check after the refresh token grant, SOQL lists followed through nextRecordsUrl, gets, SOSL, the
// renewal after a 401, REQUEST_LIMIT_EXCEEDED as a rate limit, a ContentVersion over 10 MB streamed, and the
// Context Store filled, searched and refreshed by SystemModstamp.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type ConnectorApi,
  closeAll,
  connectorApi,
  createConnector,
  INCREMENTAL_SYNC_ENV,
  startSyncing,
  startWithFake,
} from '../../helpers/connector-api.ts';
import type { Harness } from '../../helpers/harness.ts';
import { waitFor } from '../../helpers/wait.ts';
import { assertError } from '../../http/assertions.ts';
import { fileBytes } from './fake/dataset.ts';
import {
  type RecordedRequest,
  SALESFORCE_CLIENT_ID,
  SALESFORCE_CLIENT_SECRET,
  SALESFORCE_REFRESH_TOKEN,
  type SalesforceFake,
  startSalesforceFake,
} from './fake/index.ts';
import { DATA_ROOT } from './fake/wire.ts';

const SALESFORCE_ID = 'b117307c-14b6-41aa-9422-947e34922962';
const BIG = 11 * 1024 * 1024 + 17;

// biome-ignore lint/suspicious/noExplicitAny: test convenience for reading JSON records
type Json = Record<string, any>;

const pathOf = (r: RecordedRequest) => r.path.split('?')[0];
const query = (r: RecordedRequest) => new URL(r.path, 'http://x').searchParams;
const oauth = (extra: Json = {}) => ({
  refresh_token: SALESFORCE_REFRESH_TOKEN,
  client_id: SALESFORCE_CLIENT_ID,
  client_secret: SALESFORCE_CLIENT_SECRET,
  ...extra,
});
const createSalesforce = (h: Harness, token: string, credentials: Json) =>
  createConnector(h, token, { definition_id: SALESFORCE_ID, credentials });

describe('Salesforce through the HTTP API', () => {
  let fake: SalesforceFake;
  let h: Harness;
  let token: string;
  let api: ConnectorApi;

  before(async () => {
    fake = await startSalesforceFake({ batchSize: 2, perObject: 5, fileBytes: BIG });
    ({ h, token } = await startWithFake('salesforce', fake.url));
  });
  after(() => closeAll(h, fake));

  test('a refresh token Salesforce refuses is INVALID_CREDENTIALS at create, and nothing reaches the API', async () => {
    const before = fake.requests.length;
    const res = await createSalesforce(h, token, oauth({ refresh_token: '5Aep861not-a-known-token' }));
    assertError(res, 422, 'INVALID_CREDENTIALS');
    const sent = fake.requests.slice(before);
    assert.deepEqual(sent.map(pathOf), ['/services/oauth2/token']);
  });

  test('create with only a refresh token: ces obtains a session at /services/oauth2/token, then reads /sobjects', async () => {
    const before = fake.requests.length;
    const res = await createSalesforce(h, token, oauth());
    assert.equal(res.status, 200, res.body);
    api = connectorApi(h, token, res.json.id);
    const [grant, check] = fake.requests.slice(before);
    assert.equal(grant?.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.deepEqual(Object.fromEntries(new URLSearchParams(grant?.body)), {
      grant_type: 'refresh_token',
      refresh_token: SALESFORCE_REFRESH_TOKEN,
      client_id: SALESFORCE_CLIENT_ID,
      client_secret: SALESFORCE_CLIENT_SECRET,
    });
    assert.equal(pathOf(check as RecordedRequest), `${DATA_ROOT}/sobjects`);
    assert.equal(check?.headers.authorization, `Bearer ${fake.token.issued.at(-1)}`);
  });

  test('a SOQL list is followed through nextRecordsUrl to the end, each batch by its locator alone', async () => {
    const before = fake.requests.length;
    const pages = await api.pages('accounts', 'list', { q: 'SELECT Id, Name FROM Account ORDER BY Name' });
    assert.equal(pages.length, 3);
    const ids = pages.flatMap((p) => p.result.map((r: Json) => r.Id));
    assert.deepEqual(
      ids,
      (fake.data.of('Account') ?? []).map((r) => r.Id),
    );
    assert.deepEqual(Object.keys(pages[0]?.result[0]).sort(), ['Id', 'Name', 'attributes']);
    assert.equal(pages[0]?.connector_metadata.totalSize, 5);
    assert.equal(pages[2]?.connector_metadata.done, true);
    const sent = fake.requests.slice(before);
    assert.equal(query(sent[0] as RecordedRequest).get('q'), 'SELECT Id, Name FROM Account ORDER BY Name');
    assert.match(sent[1]?.path ?? '', new RegExp(`^${DATA_ROOT}/query/01g\\w+-2$`));
    assert.match(sent[2]?.path ?? '', new RegExp(`^${DATA_ROOT}/query/01g\\w+-4$`));
  });

  test('without q, a list sends the default query; since asks for changes oldest first', async () => {
    const before = fake.requests.length;
    const res = await api.exec('contacts', 'list');
    assert.equal(res.status, 200, res.body);
    assert.equal(
      query(fake.requests[before] as RecordedRequest).get('q'),
      'SELECT FIELDS(STANDARD) FROM Contact ORDER BY LastModifiedDate DESC LIMIT 200',
    );
    const since = await api.exec('leads', 'list', { since: '2026-01-05T12:00:00Z' });
    assert.equal(since.status, 200, since.body);
    assert.equal(
      query(fake.requests.at(-1) as RecordedRequest).get('q'),
      'SELECT FIELDS(STANDARD) FROM Lead WHERE SystemModstamp >= 2026-01-05T12:00:00Z ORDER BY SystemModstamp ASC',
    );
    const stamps = since.json.result.map((r: Json) => Date.parse(r.SystemModstamp));
    assert.ok(stamps.length > 0 && stamps.every((t: number) => t >= Date.parse('2026-01-05T12:00:00Z')));
    assert.deepEqual(
      stamps,
      [...stamps].sort((a, b) => a - b),
    );
    assertError(
      await api.exec('leads', 'list', { q: 'SELECT Id FROM Lead', since: '2026-01-05T12:00:00Z' }),
      422,
      'INVALID_PARAMS',
    );
    // A bound that is not a SOQL datetime literal is refused before it could change the query.
    assertError(
      await api.exec('leads', 'list', { since: '2026-01-05T12:00:00Z OR Name != null' }),
      422,
      'INVALID_PARAMS',
    );
  });

  test('get reads one record (with fields), SOSL searches, and Salesforce’s error array comes through', async () => {
    const account = fake.data.of('Account')?.[1] as Json;
    const got = await api.exec('accounts', 'get', { id: account.Id, fields: 'Name,Industry' });
    assert.equal(got.status, 200, got.body);
    assert.deepEqual(
      { Id: got.json.result.Id, Name: got.json.result.Name, Industry: got.json.result.Industry },
      { Id: account.Id, Name: account.Name, Industry: account.Industry },
    );
    const found = await api.exec('accounts', 'api_search', {
      q: `FIND {${account.Name}} RETURNING Account(Id, Name)`,
    });
    assert.equal(found.status, 200, found.body);
    assert.deepEqual(
      found.json.result.map((r: Json) => r.Id),
      [account.Id],
    );
    const missing = await api.exec('accounts', 'get', { id: '001Dn0000099999AAA' });
    assertError(missing, 404, 'UPSTREAM_NOT_FOUND');
    assert.match(missing.json.message, /The requested resource does not exist/);
    const bad = await api.exec('query', 'list', { q: 'SELECT Id FROM Nope' });
    assertError(bad, 422, 'INVALID_PARAMS');
    assert.match(bad.json.message, /sObject type 'Nope' is not supported/);
  });

  test('an expired session (401 INVALID_SESSION_ID) is renewed once and the call retried', async () => {
    fake.token.expireAccessTokens();
    const tokens = fake.tokenRequests().length;
    const res = await api.exec('users', 'get', { id: fake.data.of('User')?.[0]?.Id });
    assert.equal(res.status, 200, res.body);
    assert.equal(fake.tokenRequests().length, tokens + 1);
    const last = fake.requests.at(-1) as RecordedRequest;
    assert.equal(last.headers.authorization, `Bearer ${fake.token.issued.at(-1)}`);
  });

  test('403 REQUEST_LIMIT_EXCEEDED is a rate limit with Salesforce’s words, not a refusal', async () => {
    fake.failNext({
      status: 403,
      match: `${DATA_ROOT}/query`,
      times: 3,
      body: [{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }],
    });
    const res = await api.exec('query', 'list', { q: 'SELECT Id FROM Organization' });
    assertError(res, 429, 'UPSTREAM_RATE_LIMITED');
    assert.match(res.json.message, /TotalRequests Limit exceeded/);
    assert.equal(res.headers['retry-after'], '60');
    assert.match(String(fake.requests.at(-1)?.path), /\/query\?q=/);
  });

  test('a ContentVersion over 10 MB streams with its exact bytes; an unknown id is 404', async () => {
    const file = fake.data.of('ContentVersion')?.[0] as Json;
    assert.equal(file.ContentSize, BIG);
    const res = await api.exec('content_versions', 'download', { id: file.Id });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.raw.length, BIG);
    assert.ok(res.raw.equals(fileBytes(BIG, 1)), 'the file’s bytes');
    assert.equal(
      pathOf(fake.requests.at(-1) as RecordedRequest),
      `${DATA_ROOT}/sobjects/ContentVersion/${file.Id}/VersionData`,
    );
    const attachment = fake.data.of('Attachment')?.[0] as Json;
    const body = await api.exec('attachments', 'download', { id: attachment.Id });
    assert.equal(body.status, 200, body.body);
    assert.ok(body.raw.equals(fileBytes(attachment.BodyLength, 101)));
    assertError(
      await api.exec('attachments', 'download', { id: '00PDn0000099999AAA' }),
      404,
      'UPSTREAM_NOT_FOUND',
    );
    assert.deepEqual(fake.unhandled, []);
  });
});

describe('Salesforce in the Context Store', () => {
  let fake: SalesforceFake;
  let h: Harness;
  let api: ConnectorApi;
  const search = (entity: string, filter: unknown) => api.search(entity, { query: { filter }, limit: 1000 });

  before(async () => {
    fake = await startSalesforceFake({ batchSize: 2, perObject: 5 });
    ({ h, api } = await startSyncing(
      'salesforce',
      fake.url,
      { definition_id: SALESFORCE_ID, credentials: oauth() },
      INCREMENTAL_SYNC_ENV,
    ));
  });
  after(() => closeAll(h, fake));

  test('accounts are indexed through the since query and searchable', async () => {
    await api.waitReady('accounts', 5);
    await api.waitReady('users', 5);
    const first = fake.requests.find(
      (r) => pathOf(r) === `${DATA_ROOT}/query` && /FROM Account/.test(query(r).get('q') ?? ''),
    );
    assert.equal(
      query(first as RecordedRequest).get('q'),
      'SELECT FIELDS(STANDARD) FROM Account WHERE SystemModstamp >= 1970-01-01T00:00:00Z ORDER BY SystemModstamp ASC',
    );
    const found = await search('accounts', { eq: { Industry: 'Energy' } });
    assert.equal(found.status, 200, found.body);
    assert.deepEqual(
      found.json.result.map((r: Json) => r.Id).sort(),
      (fake.data.of('Account') ?? [])
        .filter((r) => r.Industry === 'Energy')
        .map((r) => r.Id)
        .sort(),
    );
  });

  test('a refresh asks for what changed since the newest SystemModstamp stored, and indexes an edit', async () => {
    await api.waitReady('accounts', 5);
    const newest = (fake.data.of('Account') ?? [])
      .map((r) => String(r.SystemModstamp))
      .sort()
      .at(-1) as string;
    const bound = new Date(Date.parse(newest.replace('+0000', 'Z'))).toISOString().replace('.000Z', 'Z');
    const account = fake.data.of('Account')?.[0] as Json;
    fake.data.touch('Account', account.Id, { Description: 'Renewal signed for the enterprise plan.' });
    const hit = await waitFor(
      'the edited account searchable',
      async () => {
        const res = await search('accounts', { fuzzy: { Description: 'enterprise plan' } });
        return res.json.result?.length === 1 ? res.json.result : undefined;
      },
      30_000,
    );
    assert.equal(hit[0].Id, account.Id);
    const refreshes = fake.requests.filter((r) =>
      (query(r).get('q') ?? '').includes(`FROM Account WHERE SystemModstamp >= ${bound}`),
    );
    assert.ok(refreshes.length > 0, `a query bounded by ${bound}`);
    assert.equal((await api.state('accounts'))?.entity_count, 5);
    assert.deepEqual(fake.unhandled, []);
  });
});
