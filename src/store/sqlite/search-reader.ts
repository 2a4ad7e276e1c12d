/**
 * Running one compiled search on one connection, within its time budget: on a reader thread's own read-only
 * connection (search-reader-thread.ts), or on the request path's connection for an in-memory database.
 */
import BetterSqlite3 from 'better-sqlite3';
import type { SqlValue } from '../../context-store/query.ts';
import { registerSearchFunctions } from './context-index.ts';
import { withinSearchBudget } from './search-budget.ts';

/** A search compiled for one connector (SqliteContextStore.search); plain data, so it can cross threads. */
export interface SearchJob {
  organizationId: string;
  connectorId: string;
  /** the connector's key the statement was compiled for */
  connectorKey: number;
  sql: string;
  params: SqlValue[];
}

export type SearchRow = { rid: number; data: string };

// Connector keys are reused once the highest one is deleted: the key a search was compiled for is checked to
// still be this organization's connector in the same snapshot the search reads.
const OWNER_SQL = `SELECT 1 FROM cs_connectors k JOIN connectors c ON c.id = k.connector_id
  WHERE k.connector_key = ? AND k.connector_id = ? AND c.organization_id = ?`;

export class SearchReader {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  constructor(private readonly db: BetterSqlite3.Database) {}

  private stmt(sqlText: string): BetterSqlite3.Statement {
    let s = this.statements.get(sqlText);
    if (!s) {
      s = this.db.prepare(sqlText);
      // Search SQL varies with the filter's shape; keep the cache bounded.
      if (this.statements.size >= 2000) this.statements.clear();
      this.statements.set(sqlText, s);
    }
    return s;
  }

  /** The job's rows; throws SearchBudgetExceeded (the statement stopped) past `budgetMs`. */
  run(job: SearchJob, budgetMs: number): SearchRow[] {
    return withinSearchBudget(budgetMs, () =>
      this.db.transaction(() => {
        if (!this.stmt(OWNER_SQL).get(job.connectorKey, job.connectorId, job.organizationId)) return [];
        return this.stmt(job.sql).all(...job.params) as SearchRow[];
      })(),
    );
  }

  /** Index tables were rebuilt: statements prepared over the old ones are stale. */
  forgetStatements(): void {
    this.statements.clear();
  }
}

/**
 * A reader thread's connection: read-only (a compiler bug can't make a search write), sharing the file with
 * the writers through WAL.
 */
export function openSqliteReader(file: string): BetterSqlite3.Database {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  // Per reader thread, on top of the main connection's 64 MiB; a search over a large index is mostly served
  // from the OS page cache anyway.
  db.pragma('cache_size = -32768');
  registerSearchFunctions(db);
  return db;
}
