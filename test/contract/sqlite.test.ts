// The store contract on the SQLite adapter: a fresh in-memory database (migrated) for every test.
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { storeContract } from './store-contract.ts';

storeContract('SQLite', async () => {
  const { store } = await openSqliteStore({ file: ':memory:', migrate: true });
  return { store, close: () => store.close() };
});
