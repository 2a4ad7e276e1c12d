// PostgreSQL for tests: a database of their own on the server CES_TEST_POSTGRES_URL names (default: this
// machine's, 127.0.0.1:5432, trust auth), created at the start and dropped at the end. Unreachable is a failure,
// never a skip: a run that did not test PostgreSQL must not pass as one that did.
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';

export const ADMIN_URL = process.env.CES_TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export interface TestDatabase {
  /** the new database's URL */
  url: string;
  name: string;
  /** A fresh schema name in it (CES_DATABASE_SCHEMA), for a store of its own. */
  schema(): string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL is not reachable at ${new URL(ADMIN_URL).host} (${(err as Error).message}). Start it with ` +
        "'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start', or point " +
        'CES_TEST_POSTGRES_URL at another server.',
    );
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `ces_test_${randomBytes(6).toString('hex')}`;
  // UTF-8 with a Unicode-aware ctype, so lower() folds as JavaScript does (the search's `like`).
  await admin((c) =>
    c.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C.UTF-8'`),
  );
  let n = 0;
  return {
    url: withDatabase(ADMIN_URL, name),
    name,
    schema: () => `s${process.pid}_${++n}`,
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}

/**
 * For the PostgreSQL pass of `npm test` (CES_TEST_DATABASE_URL set): the settings that put a process started
 * with `env` on that database, in a schema of its data directory's own (so a restarted process finds its data
 * again, as it would in its SQLite file). Nothing when the pass is SQLite's or `env` names its own database.
 */
export function testStoreEnv(env: Record<string, string | undefined>): Record<string, string> {
  const url = process.env.CES_TEST_DATABASE_URL;
  if (!url || env.CES_DATABASE_URL || env.CES_DATABASE_FILE || !env.CES_DATA_DIR) return {};
  const schema = `d_${createHash('sha256').update(env.CES_DATA_DIR).digest('hex').slice(0, 16)}`;
  return { CES_DATABASE_URL: url, CES_DATABASE_SCHEMA: schema };
}
