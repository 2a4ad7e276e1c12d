// The store contract on the PostgreSQL adapter: a database of this run's own, and a fresh schema (migrated) in
// it for every test.
import { after, before } from 'node:test';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { storeContract } from './store-contract.ts';

let db: TestDatabase;
before(async () => {
  db = await createTestDatabase();
});
after(async () => {
  await db?.drop();
});

storeContract('PostgreSQL', async () => {
  const { store } = await openPostgresStore({ url: db.url, schema: db.schema(), migrate: true });
  return { store, close: () => store.close() };
});
