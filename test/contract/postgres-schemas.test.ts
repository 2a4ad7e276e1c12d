// A ces store lives in one schema of a database that may hold others (other deployments, other tests). Opening
// it must not read them: Kysely's own introspection, which its migrator asks whether the migration tables exist,
// reads every schema's tables and parses each name, so a schema another session drops in between failed
// `ces migrate` with "schema … does not exist" (seen in CI, where test files drop their schemas side by side).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Kysely } from 'kysely';
import pg from 'pg';
import { SchemaPostgresDialect } from '../../src/store/postgres/dialect.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';

let db: TestDatabase;
before(async () => {
  db = await createTestDatabase();
});
after(async () => {
  await db?.drop();
});

test("the store's introspection sees its own schema's tables and nothing of the others", async () => {
  const other = new pg.Client({ connectionString: db.url });
  await other.connect();
  const schema = db.schema();
  const pool = new pg.Pool({ connectionString: db.url, options: `-c search_path=${schema}` });
  const kysely = new Kysely<unknown>({ dialect: new SchemaPostgresDialect({ pool }, schema) });
  try {
    await other.query(
      'CREATE SCHEMA neighbour; CREATE TABLE neighbour.kysely_migration (id serial PRIMARY KEY)',
    );
    const { store, applied } = await openPostgresStore({ url: db.url, schema, migrate: true });
    await store.close();
    assert.ok(applied.length > 0, 'the migrations were applied in a database that has another schema');

    const tables = await kysely.introspection.getTables({ withInternalKyselyTables: true });
    assert.ok(tables.length > 0);
    assert.deepEqual(new Set(tables.map((t) => t.schema)), new Set([schema]));
    assert.ok(tables.some((t) => t.name === 'kysely_migration'));
    assert.deepEqual(await kysely.introspection.getSchemas(), [{ name: schema }]);
  } finally {
    await kysely.destroy();
    await other.end();
  }
});

test("a store's exclusive sections are its schema's: another schema's store never waits for them", async () => {
  const schemaA = db.schema();
  const a = await openPostgresStore({ url: db.url, schema: schemaA, migrate: true });
  const b = await openPostgresStore({ url: db.url, schema: db.schema(), migrate: true });
  const sameAsA = await openPostgresStore({ url: db.url, schema: schemaA, migrate: false });
  const watcher = new pg.Client({ connectionString: db.url });
  await watcher.connect();
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => {
    entered = resolve;
  });
  try {
    const holding = a.store.exclusive('ces.bootstrap', async () => {
      entered();
      await held;
    });
    await inside;
    // Another schema's store enters at once; a second store of the same schema waits for the first.
    assert.equal(await b.store.exclusive('ces.bootstrap', async () => 'entered'), 'entered');
    let sameEntered = false;
    const same = sameAsA.store.exclusive('ces.bootstrap', async () => {
      sameEntered = true;
    });
    // Until its session waits for the advisory lock A holds.
    for (;;) {
      const { rows } = await watcher.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'advisory'",
      );
      if (rows[0].n > 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(sameEntered, false, 'a store of the same schema waited');
    release();
    await holding;
    await same;
    assert.equal(sameEntered, true);
  } finally {
    release();
    await watcher.end();
    await Promise.all([a.store.close(), b.store.close(), sameAsA.store.close()]);
  }
});
