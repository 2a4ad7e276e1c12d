// A query compiled once and run with other values (src/store/prepared.ts) answers what Kysely's own query does.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { PreparedQuery } from '../../../src/store/prepared.ts';

interface Db {
  t: { id: string; org: string; gone: number | null; n: number };
}

it('runs the compiled SQL with each call’s values in their places, constants kept', async () => {
  const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
  await db.schema
    .createTable('t')
    .addColumn('id', 'text')
    .addColumn('org', 'text')
    .addColumn('gone', 'integer')
    .addColumn('n', 'integer')
    .execute();
  await db
    .insertInto('t')
    .values([
      { id: 'a', org: 'o1', gone: null, n: 1 },
      { id: 'a', org: 'o2', gone: null, n: 2 },
      { id: 'b', org: 'o1', gone: 1, n: 3 },
    ])
    .execute();
  let builds = 0;
  const q = new PreparedQuery(2, (org: string, id: string) => {
    builds++;
    return db
      .selectFrom('t')
      .select('n')
      .where('org', '=', org)
      .where('n', '<', 100)
      .where('id', '=', id)
      .where('gone', 'is', null);
  });
  const any = db as unknown as Parameters<typeof q.first>[0];
  assert.deepEqual(await q.first(any, 'o1', 'a'), { n: 1 });
  assert.deepEqual(await q.first(any, 'o2', 'a'), { n: 2 });
  assert.equal(await q.first(any, 'o1', 'b'), undefined);
  assert.equal(await q.first(any, "o1' OR 1=1 --", 'a'), undefined);
  assert.equal(builds, 1);
  const unused = new PreparedQuery(1, (_id: string) => db.selectFrom('t').select('n'));
  await assert.rejects(unused.first(any, 'x'), /argument 0 is not a parameter/);
  await db.destroy();
});
