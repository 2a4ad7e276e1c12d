import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { KyselyStore } from '../kysely-store.ts';
import type { Store } from '../port.ts';
import type { Database } from '../schema.ts';
import { registerSearchFunctions } from './context-index.ts';
import { SqliteContextStore } from './context-store.ts';
import { sqliteMigrations } from './migrations/index.ts';

export interface SqliteStoreOptions {
  /** Path of the database file, or ':memory:'. */
  file: string;
  /** Apply pending migrations on open (serve does; `ces migrate` does it explicitly). */
  migrate?: boolean;
}

function openKysely(file: string): { db: Kysely<Database>; raw: BetterSqlite3.Database } {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const sqlite = new BetterSqlite3(file);
  // 16 KiB pages (set only while the file is still empty): a Context Store record (often 2–4 KB of JSON) fits
  // several to a page instead of one per 4 KiB page with the rest wasted.
  sqlite.pragma('page_size = 16384');
  // WAL lets readers run beside the one writer; busy_timeout makes a second process (a CLI command while the
  // server runs) wait for the lock instead of failing at once.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // 64 MiB of page cache (the default is 2 MiB): keeping a large Context Store index's B-tree pages in memory
  // is what keeps a backfill's index maintenance from turning into disk reads.
  sqlite.pragma('cache_size = -65536');
  if (file !== ':memory:') fs.chmodSync(file, 0o600);
  registerSearchFunctions(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, raw: sqlite };
}

/**
 * Kysely prepares a fresh statement for every query; compiling SQL each time was a measurable share of a
 * request. Statements are reusable (better-sqlite3 runs each to completion synchronously), so keep them by text.
 */
function withStatementCache(sqlite: BetterSqlite3.Database) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (sql: string) => {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = sqlite.prepare(sql);
        // The query texts are a small fixed set; the bound guards against one built from user input.
        if (cache.size < 1000) cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

export async function migrateSqlite(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: sqliteMigrations });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function openSqliteStore(
  options: SqliteStoreOptions,
): Promise<{ store: Store; applied: string[] }> {
  const { db, raw } = openKysely(options.file);
  try {
    const applied = options.migrate === false ? [] : await migrateSqlite(db);
    return { store: new KyselyStore(db, db, new SqliteContextStore(raw, db)), applied };
  } catch (err) {
    await db.destroy();
    throw err;
  }
}
