// The Gong connector through the HTTP API: create with an access key pair (checked live against the Gong
// fake), execute lists with cursor paging (query cursors for GET lists, body cursors for POST searches), errors.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type ConnectorApi,
  closeAll,
  connectorApi,
  countConnectors,
  createConnector,
  sourceDefinition,
  startWithFake,
} from '../../helpers/connector-api.ts';
import type { Harness } from '../../helpers/harness.ts';
import {
  GONG_FAKE_ACCESS_KEY,
  GONG_FAKE_ACCESS_KEY_SECRET,
  type GongFake,
  startGongFake,
} from './fake/index.ts';

const GONG_ID = '32382e40-3b49-4b99-9c5c-4076501914e7';
const BASIC = `Basic ${Buffer.from(`${GONG_FAKE_ACCESS_KEY}:${GONG_FAKE_ACCESS_KEY_SECRET}`).toString('base64')}`;

describe('Gong through the HTTP API', () => {
  let h: Harness;
  let fake: GongFake;
  let token: string;
  let api: ConnectorApi;

  const create = (credentials: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    createConnector(h, token, { definition_id: GONG_ID, name: 'gong', credentials, ...extra });
  const exec = (body: unknown) => api.send(body);

  /** Every page of a list, following connector_metadata.end_cursor: a string on every page but the last, null there. */
  async function walk(entity: string, params: Record<string, unknown>) {
    const pages = await api.pages(entity, 'list', params);
    for (const page of pages.slice(0, -1)) assert.equal(typeof page.connector_metadata.end_cursor, 'string');
    assert.equal(pages.at(-1).connector_metadata.end_cursor, null);
    return pages;
  }

  before(async () => {
    // Small pages keep the walks short; the definition's own 3 requests/s limit applies in real time here.
    fake = await startGongFake({ pageSize: 80, calls: 170 });
    ({ h, token } = await startWithFake('gong', fake.url));
  });
  after(() => closeAll(h, fake));

  test('create checks the access key pair live and never returns it', async () => {
    const res = await create({
      access_key: GONG_FAKE_ACCESS_KEY,
      access_key_secret: GONG_FAKE_ACCESS_KEY_SECRET,
    });
    assert.equal(res.status, 200, res.body);
    api = connectorApi(h, token, res.json.id);
    assert.equal(res.json.connector_type, 'gong');
    assert.equal(res.json.definition_id, GONG_ID);
    assert.equal(res.json.credential_option, 'Access Key');
    assert.ok(!res.body.includes(GONG_FAKE_ACCESS_KEY_SECRET));
    assert.deepEqual(
      fake.requests.map((r) => [r.method, r.path, r.headers.authorization]),
      [['GET', '/v2/workspaces', BASIC]],
    );
  });

  test('a rejected key pair is refused at create with INVALID_CREDENTIALS, and nothing is stored', async () => {
    const count = await countConnectors(h, token);
    const res = await create(
      { access_key: GONG_FAKE_ACCESS_KEY, access_key_secret: 'not-the-secret-77' },
      { name: 'bad' },
    );
    assert.equal(res.status, 422, res.body);
    assert.equal(res.json.code, 'INVALID_CREDENTIALS');
    assert.ok(!res.body.includes('not-the-secret-77'));
    assert.equal(await countConnectors(h, token), count);
    const missing = await create({ access_key: GONG_FAKE_ACCESS_KEY }, { name: 'half' });
    assert.equal(missing.status, 422, missing.body);
    assert.match(missing.body, /access_key_secret/);
  });

  test('users list pages to the end by cursor (Gong cursor in the query)', async () => {
    const mark = fake.requests.length;
    const pages = await walk('users', {});
    assert.deepEqual(
      pages.map((p) => p.result.length),
      [80, 80, 70],
    );
    const ids = pages.flatMap((p) => p.result.map((u: { id: string }) => u.id));
    assert.equal(new Set(ids).size, 230);
    assert.equal(pages[0].connector_metadata.total_records, 230);
    const sent = fake.requests.slice(mark);
    assert.equal(sent.length, 3);
    assert.equal(sent[0]!.path, '/v2/users');
    for (const r of sent.slice(1)) assert.match(r.path, /^\/v2\/users\?cursor=eyJhbGciOiJIUzI1NiJ9\./);
  });

  test('calls_extensive pages with the cursor in the POST body; select_fields trims the records', async () => {
    const mark = fake.requests.length;
    const filter = { fromDateTime: '2024-01-01T00:00:00Z', toDateTime: '2024-02-01T00:00:00Z' };
    const contentSelector = { exposedFields: { parties: true } };
    const first = await exec({
      entity: 'calls_extensive',
      action: 'list',
      params: { filter, contentSelector },
      select_fields: ['metaData.id', 'metaData.started'],
    });
    assert.equal(first.status, 200, first.body);
    assert.deepEqual(Object.keys(first.json.result[0]), ['metaData']);
    assert.deepEqual(Object.keys(first.json.result[0].metaData).sort(), ['id', 'started']);
    const pages = await walk('calls_extensive', { filter, contentSelector });
    const expected = fake.data.calls.filter((c) => c.started < '2024-02-01T00:00:00Z').map((c) => c.id);
    assert.equal(pages.length, 2);
    assert.deepEqual(
      pages.flatMap((p) => p.result.map((c: { metaData: { id: string } }) => c.metaData.id)),
      expected,
    );
    const sent = fake.requests.slice(mark + 1);
    assert.equal(sent.length, pages.length);
    for (const [i, r] of sent.entries()) {
      assert.equal(r.path, '/v2/calls/extensive');
      const { cursor, ...rest } = JSON.parse(r.body);
      assert.deepEqual(rest, { filter, contentSelector });
      assert.equal(cursor === undefined, i === 0);
    }
  });

  test('transcripts, calls by date and workspaces answer through execute', async () => {
    const transcripts = await walk('call_transcripts', { filter: { callIds: ['7782342274025937005'] } });
    assert.equal(transcripts.length, 1);
    assert.equal(transcripts[0].result[0].callId, '7782342274025937005');
    assert.ok(transcripts[0].result[0].transcript[0].sentences.length > 0);

    const calls = await walk('calls', {
      fromDateTime: '2024-01-02T00:00:00Z',
      toDateTime: '2024-01-03T00:00:00Z',
    });
    const day = fake.data.calls.filter((c) => c.started.startsWith('2024-01-02')).map((c) => c.id);
    assert.equal(day.length, 4);
    assert.deepEqual(
      calls.flatMap((p) => p.result.map((c: { id: string }) => c.id)),
      day,
    );
    const one = await exec({ entity: 'calls', action: 'get', params: { id: calls[0].result[0].id } });
    assert.equal(one.status, 200, one.body);
    assert.equal(one.json.result.id, calls[0].result[0].id);

    const workspaces = await exec({ entity: 'workspaces', action: 'list', params: {} });
    assert.equal(workspaces.status, 200, workspaces.body);
    assert.equal(workspaces.json.result.length, 3);
    assert.deepEqual(workspaces.json.connector_metadata, { has_next_page: false, end_cursor: null });
  });

  test('errors: bad params before any request, Gong 404/401/429 mapped with its error text', async () => {
    const mark = fake.requests.length;
    const bad = await exec({
      entity: 'calls_extensive',
      action: 'list',
      params: { filter: { callIDs: ['1'] } },
    });
    assert.equal(bad.status, 422, bad.body);
    assert.equal(bad.json.code, 'INVALID_PARAMS');
    assert.match(
      bad.json.message,
      /unknown member 'callIDs'.*accepted: fromDateTime, toDateTime, workspaceId, callIds, primaryUserIds/,
    );
    const noDates = await exec({ entity: 'calls', action: 'list', params: {} });
    assert.equal(noDates.status, 422, noDates.body);
    assert.match(noDates.json.message, /missing required param 'fromDateTime'/);
    assert.equal(fake.requests.length, mark, 'no request reached Gong');

    const missing = await exec({ entity: 'calls', action: 'get', params: { id: '123' } });
    assert.equal(missing.status, 404, missing.body);
    assert.equal(missing.json.code, 'UPSTREAM_NOT_FOUND');
    assert.match(missing.json.message, /Call ID was not found/);

    fake.failNext({ status: 401 });
    const denied = await exec({ entity: 'workspaces', action: 'list', params: {} });
    assert.equal(denied.status, 424, denied.body);
    assert.equal(denied.json.code, 'UPSTREAM_AUTH_FAILED');
    assert.match(denied.json.message, /Access denied/);

    fake.failNext({ status: 429, headers: { 'Retry-After': '120' } });
    const limited = await exec({ entity: 'workspaces', action: 'list', params: {} });
    assert.equal(limited.status, 429, limited.body);
    assert.equal(limited.json.code, 'UPSTREAM_RATE_LIMITED');
    assert.equal(limited.headers['retry-after'], '120');
    assert.deepEqual(fake.unhandled, []);
  });

  test('the catalog shows the Gong entities and the members of the filter object', async () => {
    const definition = await sourceDefinition(h, token, GONG_ID);
    assert.deepEqual(
      definition.entities.map((e: { name: string }) => e.name),
      [
        'users',
        'calls',
        'calls_extensive',
        'call_transcripts',
        'workspaces',
        'call_audio',
        'call_video',
        'stats_activity_aggregate',
        'stats_activity_day_by_day',
        'stats_interaction',
        'stats_activity_scorecards',
        'settings_scorecards',
        'settings_trackers',
        'library_folders',
        'library_folder_content',
        'coaching',
      ],
    );
    const extensive = definition.entities.find((e: { name: string }) => e.name === 'calls_extensive');
    const list = extensive.actions.find((a: { name: string }) => a.name === 'list');
    assert.equal(list.paginated, true);
    const filter = list.params.find((p: { name: string }) => p.name === 'filter');
    assert.equal(filter.type, 'object');
    assert.equal(filter.required, true);
    assert.deepEqual(Object.keys(filter.properties), [
      'fromDateTime',
      'toDateTime',
      'workspaceId',
      'callIds',
      'primaryUserIds',
    ]);
    const option = definition.credential_options[0];
    assert.equal(option.option_title, 'Access Key');
    assert.deepEqual(option.schema.required, ['access_key', 'access_key_secret']);
    assert.equal(option.schema.properties.access_key_secret['x-secret'], true);
  });
});
