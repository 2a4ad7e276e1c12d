import type BetterSqlite3 from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  Migrator,
  type QueryResult,
  SqliteDialect,
  type SqliteDialectConfig,
} from 'kysely';
import { ChangeSignal, KyselyStore } from '../kysely-store.ts';
import type { Store } from '../port.ts';
import type { Database } from '../schema.ts';
import { openSqliteFile } from './connection.ts';
import { SqliteContextStore } from './context-store.ts';
import { LocalContextWriter, ThreadContextWriter } from './context-writer.ts';
import { sqliteMigrations } from './migrations/index.ts';
import { LocalSearchReaders, type SearchReaderOptions, ThreadSearchReaders } from './search-readers.ts';
import { THREAD_NAMES } from './thread-name.ts';
import { WalCheckpoints } from './wal.ts';
import { WriteGate } from './write-gate.ts';

export interface SqliteStoreOptions {
  /** Path of the database file, or ':memory:'. */
  file: string;
  /** Apply pending migrations on open (serve does; `ces migrate` does it explicitly). */
  migrate?: boolean;
  /** Context Store searches: each one's time budget and the reader threads (CES_SEARCH_TIMEOUT_MS, CES_SEARCH_THREADS). */
  search?: SearchReaderOptions;
}

const DEFAULT_SEARCH: SearchReaderOptions = { timeoutMs: 2000, threads: 2 };
/** How long after a write of the request path's connection the writer thread checkpoints a short WAL. */
const CHECKPOINT_DELAY_MS = 1000;

/** Around each write (a transaction, or a lone statement) of the request path's connection. */
interface WriteHooks {
  /** before it takes the write gate: a wait for room in the WAL (wal.ts), if any */
  before(): Promise<void> | undefined;
  /** after it committed (or rolled back) */
  after(): void;
}

function openKysely(
  file: string,
  gate: WriteGate,
  hooks: WriteHooks,
): { db: Kysely<Database>; raw: BetterSqlite3.Database } {
  const sqlite = openSqliteFile(file);
  const database = withStatementCache(sqlite);
  const db = new Kysely<Database>({
    dialect: new GatedSqliteDialect({ database }, (connection) =>
      gatedConnection(connection, sqlite, database.isWrite, gate, hooks),
    ),
  });
  return { db, raw: sqlite };
}

/**
 * Kysely prepares a fresh statement for every query; compiling SQL each time was a measurable share of a
 * request. Statements are reusable (better-sqlite3 runs each to completion synchronously), so keep them by text.
 *
 * Kysely opens transactions with a plain (deferred) `begin`. The Context Store writer thread writes through a
 * second connection, and a deferred transaction that read before that writer committed can no longer write
 * (SQLITE_BUSY at once, no waiting); `begin immediate` takes the write lock up front, waiting for it like any
 * other write (busy_timeout).
 */
function withStatementCache(sqlite: BetterSqlite3.Database) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const prepare = (text: string) => {
    const sql = text === 'begin' ? 'begin immediate' : text;
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = sqlite.prepare(sql);
      // The query texts are a small fixed set; the bound guards against one built from user input.
      if (cache.size < 1000) cache.set(sql, stmt);
    }
    return stmt;
  };
  return {
    close: () => sqlite.close(),
    prepare,
    /** Whether the statement takes SQLite's write lock (a transaction's `begin` does, as `begin immediate`). */
    isWrite: (text: string) => text === 'begin' || !prepare(text).readonly,
  };
}

/**
 * The connection with writes passing the write gate (see write-gate.ts): from a transaction's `begin`, or a
 * lone write, until no transaction is open. The waits for room in the WAL and for the gate are awaited before
 * the statement runs, so the event loop goes on meanwhile; Kysely's lock on its one SQLite connection keeps
 * every other query of this process behind it, as it would anyway. The WAL's wait comes first: the writer
 * thread's checkpoint it waits for needs the gate free.
 */
function gatedConnection(
  connection: DatabaseConnection,
  sqlite: BetterSqlite3.Database,
  isWrite: (sql: string) => boolean,
  gate: WriteGate,
  hooks: WriteHooks,
): DatabaseConnection {
  let held = false;
  return {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      if (!held && isWrite(query.sql)) {
        const room = hooks.before();
        if (room) await room;
        await gate.enter();
        held = true;
      }
      try {
        return await connection.executeQuery<R>(query);
      } finally {
        if (held && !sqlite.inTransaction) {
          held = false;
          gate.leave();
          hooks.after();
        }
      }
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}

/** Kysely's SQLite dialect, its one connection handed out through `wrap`. */
class GatedSqliteDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly wrap: (connection: DatabaseConnection) => DatabaseConnection,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const wrap = this.wrap;
    let wrapped: { inner: DatabaseConnection; outer: DatabaseConnection } | undefined;
    return {
      init: () => driver.init(),
      async acquireConnection() {
        const inner = await driver.acquireConnection();
        if (wrapped?.inner !== inner) wrapped = { inner, outer: wrap(inner) };
        return wrapped.outer;
      },
      // The driver runs these as statements on the connection it is given: the wrapped one, so they pass the gate.
      beginTransaction: (c, settings) => driver.beginTransaction(c, settings),
      commitTransaction: (c) => driver.commitTransaction(c),
      rollbackTransaction: (c) => driver.rollbackTransaction(c),
      savepoint: (c, name, compile) => driver.savepoint!(c, name, compile),
      rollbackToSavepoint: (c, name, compile) => driver.rollbackToSavepoint!(c, name, compile),
      releaseSavepoint: (c, name, compile) => driver.releaseSavepoint!(c, name, compile),
      releaseConnection: (c) => driver.releaseConnection(c),
      destroy: () => driver.destroy(),
    };
  }
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
  const gate = WriteGate.create();
  // Set once the store is built: the migrations' writes before that need neither.
  let wal: WalCheckpoints | undefined;
  let changes: ChangeSignal | undefined;
  const { db, raw } = openKysely(options.file, gate, {
    before: () => wal?.room(),
    after: () => {
      changes?.bump();
      wal?.wrote();
    },
  });
  try {
    const applied = options.migrate === false ? [] : await migrateSqlite(db);
    const memory = options.file === ':memory:';
    const search = options.search ?? DEFAULT_SEARCH;
    const writer = memory
      ? new LocalContextWriter(raw, db)
      : new ThreadContextWriter(options.file, gate, THREAD_NAMES.writer, () => wal?.batchDone());
    // Changes: this connection's commits, and those of any other connection to the file (the writer thread's,
    // another process's), which change what `PRAGMA data_version` answers on this one. Asked once per turn of
    // the event loop (each request asks two or three times; it cost ~10 µs a time while a sync was writing): a
    // commit elsewhere is seen from the next turn on.
    const dataVersion = raw.prepare('PRAGMA data_version').pluck();
    let seen = dataVersion.get();
    let asked = false;
    const signal = new ChangeSignal({
      poll: () => {
        if (asked) return false;
        asked = true;
        setImmediate(() => {
          asked = false;
        });
        const now = dataVersion.get();
        if (now === seen) return false;
        seen = now;
        return true;
      },
    });
    changes = signal;
    if (!memory) {
      // The writer thread copies the WAL into the file, this connection's writes included (wal.ts).
      raw.pragma('wal_autocheckpoint = 0');
      wal = new WalCheckpoints({
        walFile: `${options.file}-wal`,
        checkpoint: (empty) => writer.run('checkpoint', { empty }),
        writerBusy: () => writer.writingBatches,
        quietMs: CHECKPOINT_DELAY_MS,
      });
    }
    // The same thread code, used only to decode pages (it never takes the write lock).
    const decoder = memory ? writer : new ThreadContextWriter(options.file, gate, THREAD_NAMES.decoder);
    const readers = memory
      ? new LocalSearchReaders(raw, db, search.timeoutMs)
      : new ThreadSearchReaders(options.file, search);
    const contextStore = new SqliteContextStore(raw, db, writer, gate, readers, decoder);
    return { store: new KyselyStore(db, db, contextStore, { changes: signal }), applied };
  } catch (err) {
    await db.destroy();
    throw err;
  }
}
