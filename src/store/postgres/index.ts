import { Kysely, Migrator } from 'kysely';
import { KyselyStore } from '../kysely-store.ts';
import type { Store } from '../port.ts';
import type { Database } from '../schema.ts';
import { type ChangeFeedReport, PostgresChanges } from './changes.ts';
import { openPool, type PostgresTarget } from './connection.ts';
import { PostgresContextStore } from './context-store.ts';
import { SchemaPostgresDialect } from './dialect.ts';
import { advisoryExclusive, sharedRateBuckets, sharedSlots } from './locks.ts';
import { postgresMigrations } from './migrations/index.ts';

export interface PostgresStoreOptions extends PostgresTarget {
  /** Apply pending migrations on open (serve does; `ces migrate` does it explicitly). */
  migrate?: boolean;
  /** Context Store searches: each one's time budget, and how many of this process's may run at once. */
  search?: { timeoutMs: number; threads: number };
  /** Told when the connection hearing other processes' changes is lost and when it is back (changes.ts). */
  onChangeFeed?: ChangeFeedReport;
}

const DEFAULT_SEARCH = { timeoutMs: 2000, threads: 2 };

export async function migratePostgres(db: Kysely<Database>, schema: string): Promise<string[]> {
  // Kysely's migrator takes a PostgreSQL advisory lock: processes starting together apply each migration once.
  const migrator = new Migrator({ db, provider: postgresMigrations, migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function openPostgresStore(
  options: PostgresStoreOptions,
): Promise<{ store: Store; applied: string[] }> {
  const changes = new PostgresChanges(options, options.onChangeFeed);
  const pool = await openPool(options, changes.finished);
  const db = new Kysely<Database>({ dialect: new SchemaPostgresDialect({ pool }, options.schema) });
  try {
    const applied = options.migrate === false ? [] : await migratePostgres(db, options.schema);
    const contextStore = new PostgresContextStore(pool, options.search ?? DEFAULT_SEARCH);
    // Not waited for past its first attempt: without it nothing is answered from memory, which is only slower.
    await changes.start();
    return {
      store: new KyselyStore(db, db, contextStore, {
        rowLocks: true,
        exclusive: advisoryExclusive(pool, options.schema),
        rateBuckets: sharedRateBuckets(pool),
        concurrencySlots: sharedSlots(pool),
        changes: changes.signal,
      }),
      applied,
    };
  } catch (err) {
    await changes.close();
    await db.destroy();
    throw err;
  }
}
