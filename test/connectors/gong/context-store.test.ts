// Gong calls in the Context Store: GET /v2/calls lists a time window and requires both ends, so each pass asks
// for [from, the time the pass started), and an empty window (Gong's 404) is an empty page, not a failure.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ConnectorApi, closeAll, startSyncing } from '../../helpers/connector-api.ts';
import type { Harness } from '../../helpers/harness.ts';
import { waitFor } from '../../helpers/wait.ts';
import { Dataset } from './fake/dataset.ts';
import {
  GONG_FAKE_ACCESS_KEY,
  GONG_FAKE_ACCESS_KEY_SECRET,
  type GongFake,
  startGongFake,
} from './fake/index.ts';

const GONG_ID = '32382e40-3b49-4b99-9c5c-4076501914e7';

describe('context store sync of Gong calls', () => {
  let h: Harness;
  let fake: GongFake;
  let api: ConnectorApi;

  const callRequests = () =>
    fake
      .apiRequests()
      .filter((r) => r.path.startsWith('/v2/calls?'))
      .map((r) => new URL(r.path, 'http://x').searchParams);

  before(async () => {
    fake = await startGongFake({ calls: 150, pageSize: 60 });
    ({ h, api } = await startSyncing('gong', fake.url, {
      definition_id: GONG_ID,
      credentials: { access_key: GONG_FAKE_ACCESS_KEY, access_key_secret: GONG_FAKE_ACCESS_KEY_SECRET },
    }));
  });
  after(() => closeAll(h, fake));

  test('the backfill reads the whole history up to when it started, page by page', async () => {
    const started = Date.now();
    const state = await api.waitReady('calls');
    assert.equal(state.entity_count, 150);
    const [first, ...rest] = callRequests();
    assert.equal(first?.get('fromDateTime'), '2000-01-01T00:00:00Z');
    const until = Date.parse(first?.get('toDateTime') ?? '');
    assert.ok(until <= Date.now() && until >= started - 60_000, `toDateTime ${first?.get('toDateTime')}`);
    // The later pages of the pass repeat the same window with Gong's cursor.
    assert.ok(rest.length >= 2);
    for (const page of rest.slice(0, 2)) {
      assert.equal(page.get('fromDateTime'), first?.get('fromDateTime'));
      assert.equal(page.get('toDateTime'), first?.get('toDateTime'));
      assert.ok(page.get('cursor'));
    }
    // Searchable by the declared fields, once the connector's other entities (calls_extensive) are too.
    const host = fake.data.calls[0]?.primaryUserId;
    await waitFor('the Context Store searchable', async () =>
      (await api.search('calls', { query: {} })).status === 200 ? true : undefined,
    );
    const res = await api.search('calls', {
      query: { filter: { eq: { primaryUserId: host } } },
      limit: 1000,
      fields: ['id'],
    });
    assert.equal(res.status, 200, res.body);
    const expected = fake.data.calls.filter((c) => c.primaryUserId === host).map((c) => c.id);
    assert.deepEqual((res.json.result as Array<{ id: string }>).map((r) => r.id).sort(), expected.sort());
  });

  test('a refresh asks only from the last call start seen; an empty window is not a failure', async () => {
    const latestStart = Math.max(...fake.data.calls.map((c) => Date.parse(c.started)));
    const before = callRequests().length;
    // The newest of the two is a web conference: Gong dates it by its scheduled time, before its start.
    fake.seedCalls(2);
    await api.waitCount('calls', 152);
    const refresh = callRequests()[before];
    assert.equal(refresh?.get('fromDateTime'), new Date(latestStart).toISOString().replace('.000Z', 'Z'));
    // Nothing new: the next refresh's window [newest start, now) holds no call, which Gong answers 404.
    const seen = callRequests().length;
    await waitFor(
      'another refresh',
      async () => (callRequests().length > seen + 1 ? true : undefined),
      30_000,
    );
    const last = callRequests().at(-1);
    const inWindow = fake.data.calls.filter(
      (c) => Dataset.filterDate(c) >= Date.parse(last?.get('fromDateTime') ?? ''),
    );
    assert.equal(inWindow.length, 0);
    const state = await api.state('calls');
    // Refreshes run every second: it may be between two or inside one, but never failing.
    assert.ok(state?.status === 'Ready' || state?.status === 'Updating', String(state?.status));
    assert.equal(state?.last_error, null);
    assert.equal(state?.entity_count, 152);
  });
});
