// Gong's detailed call data in the Context Store, read through calls_extensive.api_search: POST /v2/calls/extensive
// with the filter and content selector built from flat params, so the incremental bound (fromDateTime) and the
// pass's end (toDateTime) can be sent; each pass asks for [from, the time the pass started).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ConnectorApi, closeAll, startSyncing } from '../../helpers/connector-api.ts';
import type { Harness } from '../../helpers/harness.ts';
import { waitFor } from '../../helpers/wait.ts';
import {
  GONG_FAKE_ACCESS_KEY,
  GONG_FAKE_ACCESS_KEY_SECRET,
  type GongFake,
  startGongFake,
} from './fake/index.ts';

interface SearchBody {
  filter?: { fromDateTime?: string; toDateTime?: string };
  contentSelector?: { exposedFields?: { parties?: boolean; content?: { brief?: boolean } } };
}

describe('context store sync of Gong calls_extensive through its flat-param search', () => {
  let h: Harness;
  let fake: GongFake;
  let api: ConnectorApi;
  const searches = (): SearchBody[] =>
    fake
      .apiRequests()
      .filter((r) => r.method === 'POST' && r.path.startsWith('/v2/calls/extensive'))
      .map((r) => JSON.parse(r.body) as SearchBody);

  before(async () => {
    fake = await startGongFake({ calls: 30, pageSize: 8 });
    ({ h, api } = await startSyncing('gong', fake.url, {
      connector_type: 'gong',
      credentials: { access_key: GONG_FAKE_ACCESS_KEY, access_key_secret: GONG_FAKE_ACCESS_KEY_SECRET },
    }));
  });
  after(() => closeAll(h, fake));

  test('the backfill reads every call with its parties and brief, from the earliest bound', async () => {
    await api.waitReady('calls_extensive', 30);
    // Search opens once the connector's whole Context Store is searchable (its other entities too).
    await waitFor('the Context Store searchable', async () => {
      const probe = await api.search('calls_extensive', { query: {} });
      return probe.status === 200 ? true : undefined;
    });
    const first = searches()[0];
    assert.equal(first?.filter?.fromDateTime, '2000-01-01T00:00:00Z');
    assert.ok(first?.filter?.toDateTime, 'the pass sends its end');
    assert.equal(first?.contentSelector?.exposedFields?.parties, true);
    assert.equal(first?.contentSelector?.exposedFields?.content?.brief, true);
    const call = fake.data.calls[3];
    assert.ok(call);
    const found = await api.search('calls_extensive', {
      query: { filter: { eq: { 'metaData.id': call.id } } },
    });
    assert.equal(found.status, 200, found.body);
    assert.deepEqual(
      found.json.result.map((r: { metaData: { id: string } }) => r.metaData.id),
      [call.id],
    );
  });

  test('a refresh asks only for calls started since the newest stored, and picks up a new one', async () => {
    const newest = fake.data.calls.at(-1);
    assert.ok(newest);
    const mark = searches().length;
    fake.seedCalls(1);
    await api.waitCount('calls_extensive', 31);
    const refreshes = searches().slice(mark);
    assert.ok(refreshes.length > 0);
    assert.ok(
      refreshes.every((b) => b.filter?.fromDateTime !== '2000-01-01T00:00:00Z'),
      JSON.stringify(refreshes.map((b) => b.filter)),
    );
  });
});
