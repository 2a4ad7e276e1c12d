// The time budget of a search stops the SQLite statement itself: the guard the compiler puts on every row read
// throws past the deadline, the statement ends there (far fewer rows checked than a complete run checks), and
// the connection answers the next search at once.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Kysely, SqliteDialect } from 'kysely';
import { compileSearch } from '../../../src/context-store/query.ts';
import { DomainError } from '../../../src/errors.ts';
import type { Database } from '../../../src/store/schema.ts';
import { SearchBudgetExceeded, withinSearchBudget } from '../../../src/store/sqlite/search-budget.ts';
import { sqliteSearchDialect } from '../../../src/store/sqlite/search-dialect.ts';
import { SearchReader } from '../../../src/store/sqlite/search-reader.ts';
import { LocalSearchReaders } from '../../../src/store/sqlite/search-readers.ts';
import { C1, C2, insertRecord, layout, openIndex } from '../context-store/fixture.ts';

const BULK = 20_000;
const db = openIndex();
db.transaction(() => {
  for (let i = 0; i < BULK; i++) {
    const id = 1000 + i;
    insertRecord(db, C1, { id, number: id, title: `Bulk record ${i}`, body: 'lorem ipsum '.repeat(30) });
  }
})();
// The owner check of a search reads the connector's organization.
db.exec('ALTER TABLE connectors ADD COLUMN organization_id TEXT');
db.prepare("UPDATE connectors SET organization_id = 'org-1'").run();
const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: db }) });
after(async () => {
  await kysely.destroy();
});

const compile = (filter: unknown, connectorKey = C1) =>
  compileSearch(layout, connectorKey, { filter, limit: 10, offset: 0 }, sqliteSearchDialect);
/** Ten `like`s no record matches: every row of the connector is read. */
const heavy = { or: Array.from({ length: 10 }, (_, i) => ({ like: { body: `%zzq${i}%` } })) };

/** A clock that moves one millisecond each time it is read, counting the reads. */
function tickingClock() {
  const clock = { reads: 0, now: () => clock.reads++ };
  return clock;
}

/** Runs the statement within `budgetMs` of a ticking clock: what it returned or threw, and how often it checked. */
function run(filter: unknown, budgetMs: number) {
  const { sql, params } = compile(filter);
  const clock = tickingClock();
  try {
    const rows = withinSearchBudget(budgetMs, () => db.prepare(sql).all(...params), clock.now);
    // The first read sets the deadline; each later one is a row's check.
    return { rows, checks: clock.reads - 1 };
  } catch (err) {
    return { err, checks: clock.reads - 1 };
  }
}

describe('search time budget (SQLite)', () => {
  it('stops a statement at the first row checked past its deadline, long before its end', () => {
    const complete = run(heavy, Number.MAX_SAFE_INTEGER);
    assert.deepEqual(complete.rows, []);
    // One row in 64 is checked, at random: ~313 of the 20,020 rows.
    assert.ok(complete.checks > 150, `a complete run checks ${complete.checks} rows`);

    const stopped = run(heavy, 50);
    assert.ok(stopped.err instanceof SearchBudgetExceeded, String(stopped.err));
    assert.equal(stopped.err.budgetMs, 50);
    // The clock reads 1, 2, … 51 at the checks: the 51st is past the deadline (50) and the statement ends there.
    assert.equal(stopped.checks, 51);

    // The connection, and the very statement, work again at once.
    assert.deepEqual(run(heavy, Number.MAX_SAFE_INTEGER).rows, []);
    assert.equal(run({ eq: { number: 1005 } }, 1).rows?.length, 1);
  });

  it('also stops the list of full-text matches built under not/or, however few index rows are read', () => {
    // One index row (by its number), but every bulk record's full-text match is listed before it is tested.
    const filter = { and: [{ eq: { number: 1005 } }, { not: { keyword: { body: 'lorem' } } }] };
    const { sql, params } = compile(filter);
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>;
    assert.ok(
      plan.some((step) => /LIST SUBQUERY/.test(step.detail)),
      JSON.stringify(plan),
    );
    const complete = run(filter, Number.MAX_SAFE_INTEGER);
    assert.deepEqual(complete.rows, []);
    assert.ok(complete.checks > 150, `a complete run checks ${complete.checks} rows`);
    const stopped = run(filter, 20);
    assert.ok(stopped.err instanceof SearchBudgetExceeded, String(stopped.err));
    assert.equal(stopped.checks, 21);
  });

  it('a search that fits its budget is not disturbed', () => {
    const { rows } = run({ eq: { number: 1005 } }, 1000);
    assert.equal(rows?.length, 1);
  });

  it('in-thread searches (in-memory databases) answer SEARCH_TIMEOUT and only read their organization', async () => {
    const { sql, params } = compile(heavy);
    const job = { organizationId: 'org-1', connectorId: 'conn-1', connectorKey: C1, sql, params };
    // A complete run takes tens of milliseconds; a budget of 1 ms stops it on the real clock.
    const local = new LocalSearchReaders(db, kysely, 1);
    await assert.rejects(local.run(job), (err: unknown) => {
      assert.ok(err instanceof DomainError);
      assert.equal(err.code, 'SEARCH_TIMEOUT');
      assert.ok(err.message.includes('1 ms'), err.message);
      assert.equal(err.errors[0]?.field, 'params.query.filter');
      return true;
    });
    const roomy = new LocalSearchReaders(db, kysely, 60_000);
    const eq = compile({ eq: { number: 3 } });
    const eqJob = { ...job, ...eq };
    assert.equal((await roomy.run(eqJob)).length, 1);
    // Another organization's id, or a key that is no longer this connector's, reads nothing.
    assert.deepEqual(await roomy.run({ ...eqJob, organizationId: 'org-2' }), []);
    assert.deepEqual(await roomy.run({ ...eqJob, connectorId: 'conn-2' }), []);
    const other = compile({ eq: { number: 3 } }, C2);
    assert.equal((await roomy.run({ ...job, ...other, connectorId: 'conn-2', connectorKey: C2 })).length, 1);
  });

  it('a reader keeps no statement or transaction open after a stopped search', () => {
    const reader = new SearchReader(db);
    const { sql, params } = compile(heavy);
    const job = { organizationId: 'org-1', connectorId: 'conn-1', connectorKey: C1, sql, params };
    assert.throws(() => reader.run(job, 0), SearchBudgetExceeded);
    assert.equal(db.inTransaction, false);
    assert.equal(reader.run({ ...job, ...compile({ eq: { number: 1 } }) }, 1000).length, 1);
  });
});
