// A provider may send one record twice within a batch (a page boundary that shifts during a pass, a fake with
// colliding ids). The second write of a row the batch itself inserted used to fire the full-text update trigger
// for an entry the batch's fill had not made yet, which corrupts SQLite's external-content FTS5 index: every
// later write of the entity then failed with "database disk image is malformed". (PostgreSQL refuses an upsert
// that touches one row twice.)
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { claimGithubIssues, type Harness, startWithGithub } from '../connectors/github/harness.ts';

describe('a batch holding one record twice', () => {
  let h: Harness;
  let close: () => Promise<unknown>;

  before(async () => {
    ({ h, close } = await startWithGithub(undefined, { CES_SYNC_ENABLED: 'false' }));
  });
  after(() => close());

  test('keeps the last copy, and the full-text index stays sound', async () => {
    const { job: claimed, layout, store, now, commit } = await claimGithubIssues(h);
    const issue = (title: string) => ({ database_id: 42, number: 7, title, body: title, state: 'open' });
    const encoded = store.encode(
      claimed.connector_id,
      layout,
      [issue('first copy'), issue('second copy')],
      1,
      now,
    );
    const held = await commit([encoded]);
    assert.equal(held.held, true);

    const rows = await h.query(`SELECT data FROM "${layout.table}"`);
    assert.deepEqual(
      rows.map((r) => JSON.parse(String(r.data)).title),
      ['second copy'],
    );
    if (h.database === 'sqlite') {
      const rw = new Database(path.join(h.dataDir, 'ces.db'));
      try {
        // FTS5's own consistency check of an external-content index against its table; throws when corrupt.
        rw.prepare(`INSERT INTO "${layout.ftsTable}"("${layout.ftsTable}") VALUES ('integrity-check')`).run();
      } finally {
        rw.close();
      }
    }
  });
});
