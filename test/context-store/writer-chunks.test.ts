// The SQLite writer's batches: one transaction while nobody else wants the write lock; when a request-path
// write waits, the rows so far are committed after the current chunk and it goes first. Either way the batch
// ends the same: every row, the checkpoint after them, an exact entity count.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type BetterSqlite3 from 'better-sqlite3';
import { parseDefinition } from '../../src/connectors/load.ts';
import { definitionLayouts, type EntityLayout } from '../../src/context-store/layout.ts';
import type { Store, SyncCheckpoint } from '../../src/store/port.ts';
import { openSqliteFile } from '../../src/store/sqlite/connection.ts';
import { ContextStoreWrites } from '../../src/store/sqlite/context-writes.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { encodeRows } from '../../src/store/sqlite/record-rows.ts';
import { newConnector, newOrg, newWorkspace, T0, T1 } from '../contract/fixtures.ts';
import { indexedEntityYaml, testDefinitionYaml } from '../helpers/definition-yaml.ts';

const def = parseDefinition(
  testDefinitionYaml(
    '6a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    'chunky',
    indexedEntityYaml('issues', [
      ['id', 'string'],
      ['title', 'string'],
      ['number', 'integer'],
    ]),
  ),
  'chunky.yaml',
);
const issues = definitionLayouts(def)[0] as EntityLayout;
const STATE = { status: 'Building Preview' as const, ready_for_search: true, count: true };

describe('SQLite writer batches', () => {
  let dir: string;
  let store: Store;
  let raw: BetterSqlite3.Database;
  let connectorId: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ces-chunks-'));
    const file = path.join(dir, 'ces.db');
    ({ store } = await openSqliteStore({ file, migrate: true }));
    const cs = store.contextStore;
    await cs.ensureLayouts([issues], T0);
    const org = await newOrg(store);
    const ws = await newWorkspace(store, org, 'Main');
    connectorId = (await newConnector(store, org, ws.id, { definition_id: def.id })).id;
    await cs.initConnector(org, connectorId, ['issues'], T0);
    const job = await cs.claim('w1', T0, T1);
    assert.equal(job?.connector_id, connectorId);
    // An empty page through the store makes the index tables (created at first use).
    const empty = cs.encode(connectorId, issues, [], 1, T0);
    const first = await cs.commitPage(
      job!,
      { layout: issues, pages: [empty] },
      checkpointAt(0),
      STATE,
      T0,
      T1,
    );
    assert.equal(first.held, true);
    raw = openSqliteFile(file);
  });
  after(async () => {
    raw?.close();
    await store?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function checkpointAt(read: number): SyncCheckpoint {
    return {
      partitions: [{}],
      partition: 0,
      cursor: `after-${read}`,
      generation: 1,
      highs: {},
      bounds: {},
      start: null,
      until: null,
      read,
    };
  }
  const records = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: `r${from + i}`,
      title: `Issue ${from + i}`,
      number: from + i,
    }));
  const synced = () =>
    raw.prepare("SELECT entity_count, checkpoint FROM cs_syncs WHERE entity = 'issues'").get() as {
      entity_count: number;
      checkpoint: string;
    };

  /** Commits `n` records from `from` with a writer whose request path waits (or not); counts its transactions. */
  function commit(from: number, n: number, othersWaiting: boolean) {
    let transactions = 0;
    const writes = new ContextStoreWrites(
      raw,
      (transaction) => {
        transactions++;
        return transaction();
      },
      () => othersWaiting,
    );
    const done = writes.commitPage({
      lease: { connector_id: connectorId, entity: 'issues', lease_owner: 'w1' },
      layout: issues,
      rows: encodeRows(connectorId, issues, records(from, n), 1, T0),
      checkpoint: checkpointAt(from + n),
      state: STATE,
      now: T0,
      leaseUntil: T1,
    });
    return { done, transactions };
  }

  test('nobody waiting: one transaction', () => {
    assert.deepEqual(commit(0, 250, false), { done: { held: true, records: 250 }, transactions: 1 });
    assert.equal(synced().entity_count, 250);
    assert.equal(JSON.parse(synced().checkpoint).cursor, 'after-250');
  });

  test('a request-path write waiting: one transaction per chunk, the same end', () => {
    assert.deepEqual(commit(250, 250, true), { done: { held: true, records: 250 }, transactions: 3 });
    assert.equal(synced().entity_count, 500);
    assert.equal(JSON.parse(synced().checkpoint).cursor, 'after-500');
    const rows = raw.prepare(`SELECT count(*) AS n FROM "${issues.table}"`).get() as { n: number };
    assert.equal(rows.n, 500);
    // Full-text entries for every row, whichever transaction wrote it.
    const found = raw
      .prepare(`SELECT count(*) AS n FROM "${issues.ftsTable}" WHERE "${issues.ftsTable}" MATCH 'issue'`)
      .get() as { n: number };
    assert.equal(found.n, 500);
  });

  test('records seen again are not counted again', () => {
    assert.deepEqual(commit(200, 100, true).done, { held: true, records: 100 });
    assert.equal(synced().entity_count, 500);
  });

  test('the end of a pass: count and reconcile in one short transaction, then one per index for its statistics', () => {
    commit(500, 700, false);
    let transactions = 0;
    const writes = new ContextStoreWrites(raw, (transaction) => {
      transactions++;
      return transaction();
    });
    // Generation 2 saw only the first 1,000 records: the reconcile drops the other 200.
    raw.prepare(`UPDATE "${issues.table}" SET sync_generation = 2 WHERE rid <= 1000`).run();
    const done = writes.finishPass({
      lease: { connector_id: connectorId, entity: 'issues', lease_owner: 'w1' },
      layout: issues,
      next: { pass: 'incremental', run_after: T1, high_water: null, generation: 2, reconcile: true },
      now: T1,
    });
    assert.deepEqual(done, { held: true, analyzed: true });
    assert.equal(synced().entity_count, 1000);
    const indexes = raw
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?")
      .all(issues.table) as { name: string }[];
    assert.ok(indexes.length >= 3, 'primary key, connector and field indexes');
    // The pass's own writes, then one transaction per index, then the size the statistics were taken at.
    assert.equal(transactions, 1 + indexes.length + 1);
    const analyzed = raw
      .prepare('SELECT idx FROM sqlite_stat1 WHERE tbl = ? ORDER BY idx')
      .all(issues.table) as {
      idx: string;
    }[];
    assert.deepEqual(
      analyzed.map((r) => r.idx),
      indexes.map((r) => r.name).sort(),
    );
  });

  test('deleting the connector: its syncs, then its rows a chunk per transaction, then its key', () => {
    const count = (sql: string) => (raw.prepare(sql).get(connectorId) as { n: number }).n;
    const syncs = () => count('SELECT count(*) AS n FROM cs_syncs WHERE connector_id = ?');
    const keys = () => count('SELECT count(*) AS n FROM cs_connectors WHERE connector_id = ?');
    const rows = () => (raw.prepare(`SELECT count(*) AS n FROM "${issues.table}"`).get() as { n: number }).n;
    assert.equal(rows(), 1000);
    // What each transaction found when it began: [syncs, rows, key].
    const seen: number[][] = [];
    const writes = new ContextStoreWrites(raw, (transaction) => {
      seen.push([syncs(), rows(), keys()]);
      return transaction();
    });
    const org = (
      raw.prepare('SELECT organization_id AS o FROM connectors WHERE id = ?').get(connectorId) as {
        o: string;
      }
    ).o;
    writes.dropConnector({ organizationId: org, connectorId, tables: [issues.table] });
    // 1,000 rows, 500 a transaction: a request-path write waits for one chunk, not the whole connector.
    assert.deepEqual(seen, [
      [1, 1000, 1],
      [0, 1000, 1],
      [0, 500, 1],
      [0, 0, 1],
      [0, 0, 1],
    ]);
    assert.deepEqual([syncs(), rows(), keys()], [0, 0, 0]);
    const fts = raw
      .prepare(`SELECT count(*) AS n FROM "${issues.ftsTable}" WHERE "${issues.ftsTable}" MATCH 'issue'`)
      .get() as { n: number };
    assert.equal(fts.n, 0);
  });
});
