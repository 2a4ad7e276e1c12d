// The Gong entities of the hosted catalog that ces added for parity, through the HTTP API against the Gong fake
// (test/connectors/gong/fake): settings, library, coaching, stats (POST searches paged by a cursor in the body), and the
// call_audio/call_video downloads, whose file lives on Gong's media storage (another origin, fetched without
// the connector's credentials).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type ConnectorApi,
  closeAll,
  connectorApi,
  createConnectorOk,
  sourceDefinition,
  startWithFake,
} from '../../helpers/connector-api.ts';
import type { Harness } from '../../helpers/harness.ts';
import { hostedConnector } from '../../helpers/hosted-catalog.ts';
import {
  GONG_FAKE_ACCESS_KEY,
  GONG_FAKE_ACCESS_KEY_SECRET,
  type GongFake,
  startGongFake,
} from './fake/index.ts';

const GONG_ID = '32382e40-3b49-4b99-9c5c-4076501914e7';

describe('Gong parity entities through the HTTP API', () => {
  let h: Harness;
  let fake: GongFake;
  let token: string;
  let api: ConnectorApi;

  const sent = (mark: number) => fake.requests.slice(mark);
  /** Every page of a list, following connector_metadata.end_cursor. */
  const walk = (entity: string, params: Record<string, unknown>) => api.pages(entity, 'list', params);

  before(async () => {
    fake = await startGongFake({ pageSize: 15, calls: 120 });
    // The media storage is another local server; loopback is refused unless allowed (as an operator would
    // allow an on-premises file host), and the allowance names only that host and port.
    ({ h, token } = await startWithFake('gong', fake.url, {
      CES_EGRESS_ALLOW: new URL(fake.media.origin).host,
    }));
    const id = await createConnectorOk(h, token, {
      definition_id: GONG_ID,
      name: 'gong',
      credentials: { access_key: GONG_FAKE_ACCESS_KEY, access_key_secret: GONG_FAKE_ACCESS_KEY_SECRET },
    });
    api = connectorApi(h, token, id);
  });
  after(async () => {
    assert.deepEqual(fake.unhandled, [], 'every request reached a route of the fake');
    assert.deepEqual(fake.media.unhandled, []);
    await closeAll(h, fake);
  });

  test('every Gong entity-action of the hosted catalog is declared, with the catalog param names', async () => {
    const definition = await sourceDefinition(h, token, GONG_ID);
    const ours = new Map<string, string[]>();
    for (const e of definition.entities as Array<{
      name: string;
      actions: Array<{ name: string; params: Array<{ name: string }>; paginated?: boolean }>;
    }>) {
      for (const a of e.actions) {
        const names = a.params.map((p) => p.name);
        if (a.paginated) names.push('cursor');
        ours.set(`${e.name}.${a.name}`, names);
      }
    }
    for (const [entity, actions] of Object.entries(hostedConnector('gong').entities)) {
      for (const [action, spec] of Object.entries(actions)) {
        const accepted = ours.get(`${entity}.${action}`);
        assert.ok(accepted, `${entity}.${action} is missing`);
        for (const name of [...spec.params, ...(spec.body ?? [])])
          assert.ok(accepted.includes(name), `${entity}.${action} does not accept '${name}'`);
      }
    }
  });

  test('calls.list answers an empty window as an empty list, not UPSTREAM_NOT_FOUND', async () => {
    const mark = fake.requests.length;
    const res = await api.exec('calls', 'list', {
      fromDateTime: '2031-01-01T00:00:00Z',
      toDateTime: '2031-02-01T00:00:00Z',
    });
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(res.json.result, []);
    assert.equal(res.json.connector_metadata.has_next_page, false);
    assert.equal(res.json.connector_metadata.end_cursor, null);
    // Gong was asked and said 404; ces did not skip the call.
    assert.equal(sent(mark).length, 1);
    // A 404 elsewhere keeps its meaning.
    const missing = await api.exec('calls', 'get', { id: '123' });
    assert.equal(missing.json.code, 'UPSTREAM_NOT_FOUND');
  });

  test('settings_scorecards and settings_trackers list, filtered by workspace', async () => {
    const ws = fake.data.workspaces[0]!.id;
    const cards = await api.exec('settings_scorecards', 'list', {});
    assert.equal(cards.status, 200, cards.body);
    assert.equal(cards.json.result.length, 3);
    assert.ok(cards.json.result[0].questions.length > 0);
    const one = await api.exec('settings_scorecards', 'list', { workspaceId: ws });
    assert.deepEqual(
      one.json.result.map((c: { workspaceId: number }) => String(c.workspaceId)),
      [ws],
    );
    const mark = fake.requests.length;
    const trackers = await api.exec('settings_trackers', 'list', { workspaceId: ws });
    assert.equal(trackers.status, 200, trackers.body);
    assert.ok(trackers.json.result.length > 0);
    assert.ok(trackers.json.result.every((t: { workspaceId: string }) => t.workspaceId === ws));
    assert.equal(sent(mark)[0]?.path, `/v2/settings/trackers?workspaceId=${ws}`);
    const bad = await api.exec('settings_trackers', 'list', { workspaceId: 'abc' });
    assert.equal(bad.status, 422, bad.body);
    assert.equal(bad.json.code, 'INVALID_PARAMS');
    fake.failNext({ status: 403, match: '/v2/settings/scorecards' });
    const denied = await api.exec('settings_scorecards', 'list', {});
    assert.equal(denied.status, 424, denied.body);
    assert.equal(denied.json.code, 'UPSTREAM_FORBIDDEN');
  });

  test('library_folders and library_folder_content; an unknown folder is UPSTREAM_NOT_FOUND', async () => {
    const ws = fake.data.workspaces[1]!.id;
    const folders = await api.exec('library_folders', 'list', { workspaceId: ws });
    assert.equal(folders.status, 200, folders.body);
    assert.equal(folders.json.result.length, 2);
    const root = folders.json.result.find(
      (f: { parentFolderId: string | null }) => f.parentFolderId === null,
    );
    const mark = fake.requests.length;
    const content = await walk('library_folder_content', { folderId: root.id });
    assert.equal(content.length, 1);
    const calls = content[0].result as Array<{ id: string; url: string }>;
    assert.ok(calls.length > 0);
    assert.ok(calls.every((c) => fake.data.callById(c.id)?.workspaceId === ws));
    assert.equal(sent(mark)[0]?.path, `/v2/library/folder-content?folderId=${root.id}`);
    const missing = await api.exec('library_folder_content', 'list', { folderId: '42' });
    assert.equal(missing.status, 404, missing.body);
    assert.equal(missing.json.code, 'UPSTREAM_NOT_FOUND');
    const unknownWs = await api.exec('library_folders', 'list', { workspaceId: '1' });
    assert.equal(unknownWs.status, 422, unknownWs.body);
    assert.equal(unknownWs.json.code, 'INVALID_PARAMS');
  });

  test("coaching takes the catalog's hyphenated names and sends them as Gong's query params", async () => {
    const manager = fake.data.users[1]!;
    const mark = fake.requests.length;
    const res = await api.exec('coaching', 'list', {
      'workspace-id': fake.data.workspaces[0]!.id,
      'manager-id': manager.id,
      from: '2024-01-01T00:00:00Z',
      to: '2024-03-01T00:00:00Z',
    });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.result[0].manager.id, manager.id);
    const reports = fake.data.users.filter((u) => u.managerId === manager.id).map((u) => u.id);
    assert.deepEqual(
      res.json.result[0].directReportsMetrics.map((r: { report: { id: string } }) => r.report.id),
      reports,
    );
    const url = new URL(sent(mark)[0]!.path, 'http://x');
    assert.equal(url.pathname, '/v2/coaching');
    assert.equal(url.searchParams.get('manager-id'), manager.id);
    const unknown = await api.exec('coaching', 'list', {
      'workspace-id': fake.data.workspaces[0]!.id,
      'manager-id': '1',
      from: '2024-01-01T00:00:00Z',
      to: '2024-03-01T00:00:00Z',
    });
    assert.equal(unknown.status, 422, unknown.body);
    assert.equal(unknown.json.code, 'INVALID_PARAMS');
    assert.match(unknown.json.message, /Malformed request/);
  });

  for (const [entity, key] of [
    ['stats_activity_aggregate', 'userAggregateActivityStats'],
    ['stats_activity_day_by_day', 'userDailyActivityStats'],
    ['stats_interaction', 'personInteractionStats'],
  ] as const) {
    test(`${entity} pages with the cursor in the POST body; a future toDate is INVALID_PARAMS`, async () => {
      const filter = { fromDate: '2024-01-01', toDate: '2024-01-31' };
      const mark = fake.requests.length;
      const pages = await walk(entity, { filter });
      assert.ok(pages.length >= 2, `${entity} spans several pages`);
      const users = pages.flatMap((p) => p.result.map((r: { userId: string }) => r.userId));
      assert.equal(new Set(users).size, users.length);
      assert.equal(users.length, pages[0].connector_metadata.total_records);
      for (const r of pages[0].result) assert.ok(r[key] !== undefined, `${entity} record has ${key}`);
      for (const [i, r] of sent(mark).entries()) {
        assert.equal(r.method, 'POST');
        const { cursor, ...rest } = JSON.parse(r.body);
        assert.deepEqual(rest, { filter });
        assert.equal(cursor === undefined, i === 0);
      }
      const future = await api.exec(entity, 'list', {
        filter: { fromDate: '2024-01-01', toDate: '2999-01-01' },
      });
      assert.equal(future.status, 422, future.body);
      assert.equal(future.json.code, 'INVALID_PARAMS');
      const local = await api.exec(entity, 'list', { filter: { fromDate: '2024-01-01' } });
      assert.equal(local.status, 422);
      assert.match(local.json.message, /filter\.toDate' is required/);
    });
  }

  test('stats_activity_scorecards sends filter {} by default and pages to the end', async () => {
    const mark = fake.requests.length;
    const pages = await walk('stats_activity_scorecards', {});
    assert.ok(pages.length >= 2);
    const all = pages.flatMap((p) => p.result);
    assert.equal(all.length, Math.ceil(120 / 3));
    assert.deepEqual(JSON.parse(sent(mark)[0]!.body), { filter: {} });
    const host = fake.data.calls[0]!.primaryUserId;
    const one = await walk('stats_activity_scorecards', { filter: { reviewedUserIds: [host] } });
    assert.ok(
      one
        .flatMap((p) => p.result)
        .every((r: { reviewedUserId: number }) => String(r.reviewedUserId) === host),
    );
    const bad = await api.exec('stats_activity_scorecards', 'list', {
      filter: { callFromDate: '01/02/2024' },
    });
    assert.equal(bad.status, 422, bad.body);
    fake.failNext({ status: 429, headers: { 'Retry-After': '90' }, match: '/v2/stats' });
    const limited = await api.exec('stats_activity_scorecards', 'list', {});
    assert.equal(limited.status, 429, limited.body);
    assert.equal(limited.json.code, 'UPSTREAM_RATE_LIMITED');
  });

  test('call_audio streams the recording from the media host, without the credentials', async () => {
    const call = fake.data.calls[4]!;
    const apiMark = fake.requests.length;
    const mediaMark = fake.media.requests.length;
    const res = await api.exec('call_audio', 'download', { filter: { callIds: [call.id] } });
    assert.equal(res.status, 200, res.body);
    assert.equal(res.headers['content-type'], 'audio/mpeg');
    assert.ok(res.raw.equals(fake.media.bytesOf(call.id, 'audio')), 'the bytes Gong stores');
    // The metadata request asked Gong for the media URLs whatever the client sent.
    const [meta] = sent(apiMark);
    assert.equal(meta?.path, '/v2/calls/extensive');
    assert.deepEqual(JSON.parse(meta!.body), {
      filter: { callIds: [call.id] },
      contentSelector: { exposedFields: { media: true } },
    });
    assert.ok(meta?.headers.authorization?.startsWith('Basic '));
    const [file] = fake.media.requests.slice(mediaMark);
    assert.match(file!.path, new RegExp(`^/calls/${call.id}/audio\\.mp3\\?Expires=`));
    assert.equal(file!.headers.authorization, undefined, 'no credential on the media host');
    assert.ok(!JSON.stringify(file!.headers).includes(GONG_FAKE_ACCESS_KEY_SECRET));

    // The client's own contentSelector is kept, with media forced on.
    const mark = fake.requests.length;
    const own = await api.exec('call_audio', 'download', {
      filter: { callIds: [call.id] },
      contentSelector: { context: 'Extended', exposedFields: { parties: true, media: false } },
    });
    assert.equal(own.status, 200, own.body);
    assert.deepEqual(JSON.parse(sent(mark)[0]!.body).contentSelector, {
      context: 'Extended',
      exposedFields: { parties: true, media: true },
    });
  });

  test('call_video: ranges, a call without video and an unknown call are 404s', async () => {
    const video = fake.data.calls.find((c) => c.media === 'Video')!;
    const part = await api.exec(
      'call_video',
      'download',
      { filter: { callIds: [video.id] } },
      { range: 'bytes=0-99' },
    );
    assert.equal(part.status, 206, part.body);
    assert.equal(part.headers['content-type'], 'video/mp4');
    assert.ok(part.raw.equals(fake.media.bytesOf(video.id, 'video').subarray(0, 100)));
    const audioOnly = fake.data.calls.find((c) => c.media === 'Audio')!;
    const none = await api.exec('call_video', 'download', { filter: { callIds: [audioOnly.id] } });
    assert.equal(none.status, 404, none.body);
    assert.equal(none.json.code, 'UPSTREAM_NOT_FOUND');
    const unknown = await api.exec('call_video', 'download', { filter: { callIds: ['1'] } });
    assert.equal(unknown.status, 404, unknown.body);
    assert.match(unknown.json.message, /No calls found/);
    const noFilter = await api.exec('call_audio', 'download', {});
    assert.equal(noFilter.status, 422);
    assert.equal(noFilter.json.code, 'INVALID_PARAMS');
  });
});
