// The SQLite index tables: their shape, the triggers that keep the full-text table in step, and the query plans
// the compiler's statements get (index use, early-stopping full-text scans).

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type Database from 'better-sqlite3';
import { entityLayout, quoteIdent } from '../../../src/context-store/layout.ts';
import { compileSearch, searchWords, wordsInOrder } from '../../../src/context-store/query.ts';
import {
  analyzeIndexTableSql,
  dropIndexTableDdl,
  INDEX_NAMES_SQL,
  indexTableDdl,
} from '../../../src/store/sqlite/context-index.ts';
import { sqliteSearchDialect } from '../../../src/store/sqlite/search-dialect.ts';
import {
  C1,
  C2,
  definition,
  ids,
  insertRecord,
  layout,
  openIndex,
  type Query,
  range,
  records,
} from './fixture.ts';

const dbs: Database.Database[] = [];
after(() => {
  for (const db of dbs) db.close();
});
function fresh() {
  const db = openIndex();
  dbs.push(db);
  return db;
}

const fts = layout.ftsTable!;
const integrityCheck = (db: Database.Database) =>
  db.prepare(`INSERT INTO ${quoteIdent(fts)} (${quoteIdent(fts)}) VALUES ('integrity-check')`).run();
const col = (name: string) => quoteIdent(layout.fields.get(name)!.column);

describe('index table DDL', () => {
  it('creates the table, its indexes and the full-text table, idempotently', () => {
    const db = fresh();
    for (const statement of indexTableDdl(layout)) db.exec(statement);
    const columns = db.prepare(`PRAGMA table_info(${quoteIdent(layout.table)})`).all() as {
      name: string;
      type: string;
    }[];
    assert.deepEqual(
      columns.map((c) => `${c.name} ${c.type}`),
      [
        'rid INTEGER',
        'connector_key INTEGER',
        'record_key TEXT',
        'data TEXT',
        'sync_generation INTEGER',
        'synced_at TEXT',
        'f0_number REAL',
        'f1_title TEXT',
        'f2_body TEXT',
        'f3_state TEXT',
        'f4_score REAL',
        'f5_locked REAL',
        'f6_created_at REAL',
        'f7_user_login TEXT',
        'f8_tags TEXT',
        'f9_labels TEXT',
      ],
    );
    const indexes = (
      db
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`)
        .all(layout.table) as { name: string }[]
    ).map((r) => r.name);
    const expected = [
      'connector_key',
      'sync_generation',
      'f0_number',
      'f1_title',
      'f3_state',
      'f4_score',
      'f5_locked',
    ]
      .concat(['f6_created_at', 'f7_user_login'])
      .map((c) => `${layout.table}__${c}`);
    assert.deepEqual(indexes.sort(), expected.sort());
    const ftsColumns = (db.prepare(`PRAGMA table_info(${quoteIdent(fts)})`).all() as { name: string }[]).map(
      (c) => c.name,
    );
    assert.deepEqual(ftsColumns, ['connector_token', 'f1_title', 'f2_body', 'f3_state', 'f7_user_login']);
  });

  it('refuses a record of an unknown connector and a second copy of a record', () => {
    const db = fresh();
    assert.throws(() => insertRecord(db, 99, records[0]), /FOREIGN KEY/);
    assert.throws(() => insertRecord(db, C1, records[0]), /UNIQUE/);
  });

  it('drops everything it created, and can create it again', () => {
    const db = fresh();
    for (const statement of dropIndexTableDdl(layout)) db.exec(statement);
    const left = db.prepare(`SELECT name FROM sqlite_master WHERE name LIKE 'cs_tracker%'`).all();
    assert.deepEqual(left, []);
    for (const statement of indexTableDdl(layout)) db.exec(statement);
    insertRecord(db, C1, records[0]);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'login bug' } } }), [1]);
  });

  it('quotes only plain identifiers', () => {
    assert.equal(quoteIdent('cs_x__y'), '"cs_x__y"');
    for (const bad of ['a"b', 'a b', '', 'a;', 'é', 'a-b']) assert.throws(() => quoteIdent(bad), /unsafe/);
  });
});

describe('full-text table follows the index table', () => {
  it('on update of the text', () => {
    const db = fresh();
    db.prepare(
      `UPDATE ${quoteIdent(layout.table)} SET ${col('title')} = ? WHERE connector_key = ? AND record_key = '1'`,
    ).run('Password reset broken', C1);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'login bug' } } }), []);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'password reset' } } }), [1]);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'login bug' } } }, C2), [101]);
    integrityCheck(db);
    // rebuilding from the index table (what FTS5 reads there) gives the index the triggers maintained
    db.prepare(`INSERT INTO ${quoteIdent(fts)} (${quoteIdent(fts)}) VALUES ('rebuild')`).run();
    integrityCheck(db);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'password reset' } } }), [1]);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'login bug' } } }, C2), [101]);
  });

  it('on upsert and on delete', () => {
    const db = fresh();
    const table = quoteIdent(layout.table);
    db.prepare(`DELETE FROM ${table} WHERE connector_key = ? AND record_key = '2'`).run(C1);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'bug login' } } }), []);
    db.prepare(
      `INSERT INTO ${table} (connector_key, record_key, data, sync_generation, synced_at, ${col('title')})
       VALUES (?, '3', '{"id":3}', 2, 'now', 'Outage resolved') ON CONFLICT (connector_key, record_key)
       DO UPDATE SET ${col('title')} = excluded.${col('title')}, sync_generation = excluded.sync_generation`,
    ).run(C1);
    assert.deepEqual(ids(db, { filter: { keyword: { title: 'refund' } } }), []);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'outage resolved' } } }), [3]);
    integrityCheck(db);
  });

  it('when a sync pass only marks records as seen, and when the connector goes', () => {
    const db = fresh();
    db.prepare(`UPDATE ${quoteIdent(layout.table)} SET sync_generation = 2 WHERE connector_key = ?`).run(C1);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'login' } } }), [1, 2, 8, 9]);
    integrityCheck(db);
    db.prepare('DELETE FROM connectors WHERE id = ?').run('conn-1');
    assert.deepEqual(ids(db, {}), []);
    assert.deepEqual(ids(db, { filter: { fuzzy: { title: 'login' } } }, C2), [101, 102, 108, 109]);
    integrityCheck(db);
  });
});

describe('words', () => {
  it('splits on anything but letters and digits, lower-cased', () => {
    assert.deepEqual(searchWords('Login-bug, ÉTÉ 2024! x_y'), ['login', 'bug', 'été', '2024', 'x', 'y']);
    assert.deepEqual(searchWords(' *"(): '), []);
  });

  it('checks whole words in order, ignoring case and diacritics', () => {
    assert.equal(wordsInOrder('The login page shows a bug', 'login bug'), true);
    assert.equal(wordsInOrder('bug in login', 'login bug'), false);
    assert.equal(wordsInOrder('logins with bugs', 'login bug'), false);
    assert.equal(wordsInOrder('Crème Brûlée', 'creme brulee'), true);
    assert.equal(wordsInOrder('Cafe\u0301', 'café'), true);
    assert.equal(wordsInOrder(null, 'x'), false);
    assert.equal(wordsInOrder('x', ''), false);
  });
});

describe('query plans', () => {
  const db = fresh();
  const plan = (q: Query) => {
    const c = compileSearch(
      layout,
      C1,
      { filter: q.filter, sort: q.sort, limit: 10, offset: 0 },
      sqliteSearchDialect,
    );
    return (db.prepare(`EXPLAIN QUERY PLAN ${c.sql}`).all(...c.params) as { detail: string }[]).map(
      (r) => r.detail,
    );
  };

  it('eq on an indexed field searches its index in row order', () => {
    const steps = plan({ filter: { eq: { state: 'open' } } });
    assert.match(
      steps[0]!,
      new RegExp(`USING INDEX ${layout.table}__f3_state \\(connector_key=\\? AND f3_state=\\?\\)`),
    );
    assert.ok(!steps.some((s) => s.includes('TEMP B-TREE')), steps.join('\n'));
  });

  it('a field declared index: false has no B-tree index, and eq and sort on it still answer right', () => {
    const fields = definition.entities[0]!.context_store!.fields.map((f) =>
      f.name === 'state' ? { ...f, index: false } : f,
    );
    const entity = {
      ...definition.entities[0]!,
      context_store: { ...definition.entities[0]!.context_store!, fields },
    };
    const unindexed = entityLayout(definition, entity)!;
    const same = entityLayout(definition, {
      ...entity,
      context_store: {
        ...entity.context_store,
        fields: fields.map((f) => (f.name === 'state' ? { ...f, index: true } : f)),
      },
    })!;
    // The switch shapes the tables (a change rebuilds them); a field left at its default keeps the shape it had.
    assert.notEqual(unindexed.hash, layout.hash);
    assert.equal(same.hash, layout.hash);
    const ddl = indexTableDdl(unindexed).join('\n');
    assert.ok(!ddl.includes(`${layout.table}__f3_state`), ddl);
    assert.ok(ddl.includes(`${layout.table}__f6_created_at`), ddl);
    // The fixture's records, searched with and without the field's index: the same answer.
    const search = (l: typeof layout, db: Database.Database) => {
      const c = compileSearch(
        l,
        C1,
        {
          filter: { eq: { state: 'open' } },
          sort: [{ state: 'desc' }, { number: 'asc' }],
          limit: 100,
          offset: 0,
        },
        sqliteSearchDialect,
      );
      return (db.prepare(c.sql).all(...c.params) as { data: string }[]).map((r) => JSON.parse(r.data).id);
    };
    const expected = search(layout, fresh());
    assert.ok(expected.length > 1);
    const db = fresh();
    db.exec(`DROP INDEX ${quoteIdent(`${layout.table}__f3_state`)}`);
    assert.deepEqual(search(unindexed, db), expected);
  });

  it('a sort on an indexed field reads its index in either direction', () => {
    for (const dir of ['asc', 'desc']) {
      const steps = plan({ sort: [{ created_at: dir }] });
      assert.match(steps[0]!, new RegExp(`INDEX ${layout.table}__f6_created_at \\(connector_key=\\?\\)`));
      assert.ok(!steps.some((s) => s.includes('TEMP B-TREE')), steps.join('\n'));
    }
  });

  it('a full-text filter without a sort is driven by the full-text index in row order', () => {
    const steps = plan({ filter: { fuzzy: { title: 'login bug' }, eq: { state: 'open' } } });
    assert.match(steps[0]!, new RegExp(`SCAN ${fts} VIRTUAL TABLE`));
    assert.match(steps[1]!, /INTEGER PRIMARY KEY \(rowid=\?\)/);
    assert.ok(!steps.some((s) => s.includes('TEMP B-TREE')), steps.join('\n'));
  });

  it('with statistics, in on an indexed field searches its index', () => {
    const analyzed = fresh();
    const fill = analyzed.transaction(() => {
      for (let id = 1001; id <= 3000; id++)
        insertRecord(analyzed, C1, { id, number: id, title: `Filler ${id}` });
    });
    fill();
    const indexes = (analyzed.prepare(INDEX_NAMES_SQL).all(layout.table) as { name: string }[]).map(
      (r) => r.name,
    );
    assert.ok(indexes.length > 1, 'an index table has indexes');
    for (const statement of analyzeIndexTableSql(layout, indexes)) analyzed.exec(statement);
    const c = compileSearch(
      layout,
      C1,
      { filter: { in: { number: [3, 5] } }, limit: 10, offset: 0 },
      sqliteSearchDialect,
    );
    const steps = (
      analyzed.prepare(`EXPLAIN QUERY PLAN ${c.sql}`).all(...c.params) as { detail: string }[]
    ).map((r) => r.detail);
    assert.match(
      steps[0]!,
      new RegExp(`INDEX ${layout.table}__f0_number \\(connector_key=\\? AND f0_number=\\?\\)`),
    );
    assert.deepEqual(ids(analyzed, { filter: { in: { number: [5, 3] } } }), [3, 5]);
  });

  it('every record of a connector comes straight from an index', () => {
    const steps = plan({});
    assert.match(steps[0]!, /SEARCH t USING (COVERING )?INDEX/);
    assert.deepEqual(ids(db, { limit: 3 }), range(1, 3));
  });
});
