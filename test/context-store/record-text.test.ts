// The sync keeps each record's JSON as the provider wrote it (executor.ts recordTexts) instead of serialising
// the parsed record again: the store writes the text it is given, and serialises only records without one.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { definitionLayouts } from '../../src/context-store/layout.ts';
import type { SyncJob } from '../../src/store/port.ts';
import {
  createGithubConnector,
  GITHUB_DEFINITION_ID,
  type Harness,
  startWithGithub,
} from '../connectors/github/harness.ts';

describe("the provider's record text", () => {
  let h: Harness;
  let close: () => Promise<unknown>;

  before(async () => {
    ({ h, close } = await startWithGithub(undefined, { CES_SYNC_ENABLED: 'false' }));
  });
  after(() => close());

  test('is stored as given, and a record without one is serialised', async () => {
    const token = await h.token();
    const created = await createGithubConnector(h, token);
    assert.equal(created.status, 200, created.body);
    const store = h.deps.store.contextStore;
    const now = new Date().toISOString();
    const until = new Date(Date.now() + 60_000).toISOString();
    let job: SyncJob | undefined;
    for (let i = 0; i < 50 && job?.entity !== 'issues'; i++) job = await store.claim('test', now, until);
    assert.equal(job?.entity, 'issues');
    const layout = definitionLayouts(h.deps.registry.byId(GITHUB_DEFINITION_ID)!).find(
      (l) => l.entity === 'issues',
    )!;
    // As a provider may write them: a key order, number forms and escapes JSON.stringify would not keep.
    const texts = [
      '{"number":7,"id":41,"title":"caf\\u00e9","score":1.50}',
      '{"id":42,"number":8,"title":"b"}',
    ];
    const records = texts.map((t) => JSON.parse(t));
    records.push({ id: 43, number: 9, title: 'c' });
    const encoded = store.encode(job!.connector_id, layout, records, 1, now, [...texts]);
    const held = await store.commitPage(
      job!,
      { layout, pages: [encoded] },
      { cursor: null } as never,
      { status: 'Preview', ready_for_search: true, count: true },
      now,
      until,
    );
    assert.equal(held, true);
    const rows = await h.query(`SELECT data FROM "${layout.table}"`);
    const stored = rows.map((r) => (typeof r.data === 'string' ? r.data : JSON.stringify(r.data))).sort();
    if (h.database === 'sqlite') {
      assert.deepEqual(stored, [...texts, '{"id":43,"number":9,"title":"c"}'].sort());
    } else {
      // PostgreSQL keeps the data as JSONB: the same values, in its own layout.
      assert.deepEqual(
        stored.map((s) => JSON.parse(s)).sort((a, b) => a.id - b.id),
        records,
      );
    }
    const title = await h.query(`SELECT f2_title FROM "${layout.table}" ORDER BY f0_id`);
    assert.equal(title[0]?.f2_title, 'café');
  });
});
