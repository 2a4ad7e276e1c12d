/**
 * Every write of the Context Store on SQLite after start-up: sync bookkeeping (`cs_syncs`: start, claim,
 * checkpoint, release) and the index tables (a sync's batches of records with the checkpoint after them, the
 * end of a pass with its reconcile, a connector's removal). Synchronous code over one better-sqlite3
 * connection, run either on a connection of its own in the writer thread (a file database) or on the request
 * path's connection (`:memory:`); see context-writer.ts. Each method takes one plain (cloneable) argument and
 * returns a plain value, so it can be called across threads.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { BASE_COLUMNS, type EntityLayout, quoteIdent } from '../../context-store/layout.ts';
import {
  addConnectorKeySql,
  entityRowsSql,
  grownSinceAnalyzed,
  type Placeholder,
  reconcileSql,
  releaseOwnerSql,
  restartSyncsSql,
} from '../context-store-shared.ts';
import type { EntitySyncStatus, NextPass, SyncCheckpoint } from '../port.ts';
import { lastOfEachKey, type StatsRow, type SyncRow, statsSql } from '../sync-rows.ts';
import {
  analyzeIndexTableSql,
  ftsFillSql,
  INDEX_NAMES_SQL,
  indexRowColumns,
  indexRowInsertSql,
} from './context-index.ts';
import { type DecodedList, decodeList, type ListPage } from './record-rows.ts';
import { checkpointWal, type WalCheckpointResult } from './wal.ts';

/** The sync a write belongs to: it is written only while `lease_owner` still holds it. */
export interface LeaseRef {
  connector_id: string;
  entity: string;
  lease_owner: string;
}

/** One batch of a pass: rows encoded already (record-rows.ts) plus the checkpoint after them. */
export interface PageWrite {
  lease: LeaseRef;
  layout: EntityLayout;
  /** per record: connector_id, record_key, data, sync_generation, synced_at, then each field's column value */
  rows: unknown[][];
  checkpoint: SyncCheckpoint;
  state: { status: EntitySyncStatus; ready_for_search: boolean; count: boolean };
  now: string;
  leaseUntil: string;
}

export interface PassEnd {
  lease: LeaseRef;
  layout: EntityLayout;
  next: NextPass;
  now: string;
}

export interface PassEndResult {
  held: boolean;
  /** planner statistics were refreshed: other connections must reload them */
  analyzed: boolean;
}

type Stmt = (sqlText: string) => BetterSqlite3.Statement;

/** Runs `UPDATE cs_syncs SET <set>` on the sync only if `lease` still holds it; false: the lease was lost. */
export function updateLeased(
  stmt: Stmt,
  lease: LeaseRef,
  set: string,
  params: Record<string, unknown>,
): boolean {
  const result = stmt(
    `UPDATE cs_syncs SET ${set} WHERE connector_id = @cid AND entity = @entity AND lease_owner = @owner`,
  ).run({ ...params, cid: lease.connector_id, entity: lease.entity, owner: lease.lease_owner });
  return result.changes > 0;
}

export interface ReleaseOutcome {
  run_after: string;
  attempts: number;
  status?: EntitySyncStatus;
  last_error?: string | null;
}

/** Rows written between two looks at whether a request-path write waits (~5 ms of a backfill's writes). */
export const CHUNK_ROWS = 100;

/** Rows a connector's deletion removes per transaction (~5 ms of deletes, full-text entries with them). */
const DROP_CHUNK_ROWS = 500;
const QUESTION: Placeholder = () => '?';

export class ContextStoreWrites {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  private readonly upserts = new Map<string, { write: (row: unknown[]) => void; hash: string }>();

  /**
   * `exclusive` runs each transaction when it may take the write lock (the writer thread: past the write gate,
   * so request-path writes wait for at most one transaction); on the main connection it just runs it.
   */
  constructor(
    private readonly raw: BetterSqlite3.Database,
    private readonly exclusive: <T>(transaction: () => T) => T = (transaction) => transaction(),
    /** Whether a write of the request path waits for the lock (the writer thread: the write gate's count). */
    private readonly othersWaiting: () => boolean = () => false,
  ) {}

  private tx<T>(fn: () => T): T {
    return this.exclusive(() => this.raw.transaction(fn).immediate());
  }

  private readonly stmt: Stmt = (sqlText) => {
    let s = this.statements.get(sqlText);
    if (!s) {
      s = this.raw.prepare(sqlText);
      this.statements.set(sqlText, s);
    }
    return s;
  };

  /**
   * A page given as the provider's bytes, parsed and encoded into rows (record-rows.ts). Run on a thread of
   * its own (the decoder), beside the writer's transactions and off the request path.
   */
  decode(a: { page: ListPage; layout: EntityLayout }): DecodedList {
    return decodeList(a.page, a.layout);
  }

  /** Copies the WAL into the database file and, `empty`, empties one past its limit (wal.ts). */
  checkpoint(a?: { empty: boolean }): WalCheckpointResult {
    return checkpointWal(this.raw, this.exclusive, a?.empty === true);
  }

  /** Index tables were rebuilt (start-up): statements prepared over the old ones are stale. */
  forgetStatements(_?: undefined): void {
    this.statements.clear();
    this.upserts.clear();
  }

  /**
   * Writing a record: insert it, or — seen again unchanged — only mark it seen (generation, synced_at), which
   * touches one small index instead of every field index and the full-text table; only a record whose JSON
   * differs is rewritten. A full pass over a large, mostly unchanged index stays cheap that way.
   */
  private upsertFor(layout: EntityLayout): (row: unknown[]) => void {
    const cached = this.upserts.get(layout.table);
    if (cached && cached.hash === layout.hash) return cached.write;
    const table = quoteIdent(layout.table);
    const b = BASE_COLUMNS;
    const cols = indexRowColumns(layout);
    const seen = this.raw.prepare(
      `${indexRowInsertSql(layout)}
       ON CONFLICT (${b.connectorKey}, ${b.key}) DO UPDATE SET ${b.generation} = excluded.${b.generation},
         ${b.syncedAt} = excluded.${b.syncedAt}
       WHERE ${b.data} IS excluded.${b.data}`,
    );
    const rewrite = this.raw.prepare(
      `UPDATE ${table} SET ${cols
        .slice(2)
        .map((c) => `${quoteIdent(c)} = ?`)
        .join(', ')} WHERE ${b.connectorKey} = ? AND ${b.key} = ?`,
    );
    const write = (row: unknown[]) => {
      // Nothing written: the record exists with other JSON, so it is rewritten in full.
      if (seen.run(row).changes === 0) rewrite.run(...row.slice(2), row[0], row[1]);
    };
    this.upserts.set(layout.table, { write, hash: layout.hash });
    return write;
  }

  /** The connector's key in the index tables; undefined once the connector is gone. */
  private keyOf(connectorId: string): number | undefined {
    const row = this.stmt('SELECT connector_key FROM cs_connectors WHERE connector_id = ?').get(
      connectorId,
    ) as { connector_key: number } | undefined;
    return row?.connector_key;
  }

  /** A connector's rows in an index table: a scan of its part of one index (35 ms at 1M rows). */
  private countRows(layout: EntityLayout, key: number): number {
    return (
      this.stmt(
        `SELECT count(*) AS n FROM ${quoteIdent(layout.table)} WHERE ${BASE_COLUMNS.connectorKey} = ?`,
      ).get(key) as { n: number }
    ).n;
  }

  initConnector(a: { organizationId: string; connectorId: string; entities: string[]; now: string }): void {
    this.tx(() => {
      const insert = this.stmt(
        `INSERT INTO cs_syncs (connector_id, entity, organization_id, status, pass, run_after, created_at)
           VALUES (?, ?, ?, 'Initializing', 'backfill', ?, ?) ON CONFLICT (connector_id, entity) DO NOTHING`,
      );
      for (const entity of a.entities) insert.run(a.connectorId, entity, a.organizationId, a.now, a.now);
      this.stmt(addConnectorKeySql(QUESTION)).run(a.connectorId);
    });
  }

  restartConnector(a: { organizationId: string; connectorId: string; now: string }): void {
    // Records stay searchable meanwhile; the new backfill's reconcile drops what the new scope no longer has.
    this.tx(() => this.stmt(restartSyncsSql(QUESTION)).run(a.now, a.organizationId, a.connectorId));
  }

  claim(a: { owner: string; now: string; leaseUntil: string }): SyncRow | undefined {
    return this.tx(
      () =>
        this.stmt(
          `UPDATE cs_syncs SET lease_owner = @owner, lease_expires_at = @until
       WHERE rowid = (
         SELECT s.rowid FROM cs_syncs s
         JOIN connectors c ON c.id = s.connector_id
         JOIN workspaces w ON w.id = c.workspace_id
         WHERE s.run_after <= @now AND (s.lease_expires_at IS NULL OR s.lease_expires_at < @now)
           AND w.status = 'active' AND (w.cache_enabled IS NULL OR w.cache_enabled = 1)
         ORDER BY s.run_after LIMIT 1)
         AND (lease_expires_at IS NULL OR lease_expires_at < @now)
       RETURNING *`,
        ).get({ owner: a.owner, until: a.leaseUntil, now: a.now }) as SyncRow | undefined,
    );
  }

  saveCheckpoint(a: {
    lease: LeaseRef;
    checkpoint: SyncCheckpoint;
    status: EntitySyncStatus;
    leaseUntil: string;
  }): boolean {
    return this.tx(() =>
      updateLeased(
        this.stmt,
        a.lease,
        'checkpoint = @checkpoint, status = @status, lease_expires_at = @until',
        {
          checkpoint: JSON.stringify(a.checkpoint),
          status: a.status,
          until: a.leaseUntil,
        },
      ),
    );
  }

  release(a: { lease: LeaseRef; outcome: ReleaseOutcome; now: string }): boolean {
    const { outcome } = a;
    return this.tx(() =>
      updateLeased(
        this.stmt,
        a.lease,
        `lease_owner = NULL, lease_expires_at = NULL, run_after = @runAfter, attempts = @attempts,
       status = COALESCE(@status, status),
       last_error = CASE WHEN @setError = 1 THEN @error ELSE last_error END,
       updated_at = CASE WHEN @status IS NULL THEN updated_at ELSE @now END`,
        {
          runAfter: outcome.run_after,
          attempts: outcome.attempts,
          status: outcome.status ?? null,
          setError: outcome.last_error === undefined ? 0 : 1,
          error: outcome.last_error ?? null,
          now: a.now,
        },
      ),
    );
  }

  /**
   * The one read run here: it visits every sync row (about 1 µs each: 100 ms at 100,000 syncs, measured), which
   * on the request path's connection would stall every request meanwhile.
   */
  stats(a: { now: string }): StatsRow[] {
    return this.stmt(statsSql('@now')).all({ now: a.now }) as StatsRow[];
  }

  releaseOwner(a: { owner: string }): number {
    return this.tx(() => this.stmt(releaseOwnerSql(QUESTION)).run(a.owner).changes);
  }

  /**
   * Removes a connector's index rows and syncs. Its syncs go first (a sync mid-page then finds its lease gone),
   * then its rows, DROP_CHUNK_ROWS per transaction so a request-path write waits for one chunk at most (all
   * in one transaction, 200k records held the lock for 2.3 s), then its key (kept until its rows are gone: a
   * process stopped halfway leaves the connector's row, and deleting the connector again finishes the work).
   */
  dropConnector(a: { organizationId: string; connectorId: string; tables: string[] }): void {
    const key = this.tx(() => {
      const connector = this.stmt('SELECT organization_id FROM connectors WHERE id = ?').get(a.connectorId) as
        | { organization_id: string }
        | undefined;
      // Only ever the organization's own connector (or the leftovers of one already deleted).
      if (connector && connector.organization_id !== a.organizationId) return null;
      this.stmt('DELETE FROM cs_syncs WHERE organization_id = ? AND connector_id = ?').run(
        a.organizationId,
        a.connectorId,
      );
      return this.keyOf(a.connectorId);
    });
    if (key === undefined || key === null) return;
    for (const table of a.tables) {
      const chunk = this.stmt(
        `DELETE FROM ${quoteIdent(table)} WHERE rid IN (SELECT rid FROM ${quoteIdent(table)}
           WHERE ${BASE_COLUMNS.connectorKey} = ? LIMIT ${DROP_CHUNK_ROWS})`,
      );
      while (this.tx(() => (this.keyOf(a.connectorId) === key ? chunk.run(key).changes : 0)) > 0);
    }
    this.tx(() => this.stmt('DELETE FROM cs_connectors WHERE connector_key = ?').run(key));
  }

  /**
   * Writes the rows, then the checkpoint after them. While nobody else wants the write lock that is one
   * transaction (splitting every batch cost 16% more CPU per record, measured with 500-record transactions).
   * When a request-path write comes in meanwhile (`othersWaiting`), the rows so far are committed at the end of
   * the current chunk of CHUNK_ROWS and the write goes first: it waits for one chunk, not a whole batch. The
   * checkpoint is written with the last rows only, so a crash between the transactions reads the batch again
   * (its rows are upserted, unchanged). `held` false: the lease was lost, nothing more was written.
   *
   * The entity's count grows by the rows each transaction inserts (those above the largest row id before it; a
   * rewrite keeps its row): counting a large index (a scan of the connector's rows) every few seconds held the
   * lock for tens of milliseconds. A finished pass counts again in full (finishPass).
   */
  commitPage(page: PageWrite): { held: boolean; records: number } {
    const { layout, lease, state } = page;
    const upsert = this.upsertFor(layout);
    const rows = lastOfEachKey(page.rows);
    const table = quoteIdent(layout.table);
    const fill = ftsFillSql(layout);
    const lost = { held: false, records: 0 };
    let at = 0;
    for (;;) {
      const step = this.tx(() => {
        const key = this.keyOf(lease.connector_id);
        if (key === undefined || !this.holds(lease)) return lost; // the connector is gone, or the lease
        const maxRid = () =>
          (this.stmt(`SELECT COALESCE(MAX(rid), 0) AS m FROM ${table}`).get() as { m: number }).m;
        const before = maxRid();
        let chunkBefore = before;
        while (at < rows.length) {
          const end = Math.min(rows.length, at + CHUNK_ROWS);
          for (; at < end; at++) {
            const row = rows[at] as unknown[];
            row[0] = key;
            upsert(row);
          }
          // The rows the chunk inserted are the ones above the largest row id before it: their full-text
          // entries are made with them (one statement for a whole batch was a request's longest wait).
          if (fill) {
            this.stmt(fill).run(chunkBefore);
            if (at < rows.length) chunkBefore = maxRid();
          }
          if (at < rows.length && this.othersWaiting()) break;
        }
        this.stmt(
          `UPDATE cs_syncs SET entity_count = COALESCE(entity_count, 0) + (SELECT count(*) FROM ${table} WHERE rid > @before)
           WHERE connector_id = @cid AND entity = @entity`,
        ).run({ before, cid: lease.connector_id, entity: lease.entity });
        if (at < rows.length) return undefined;
        updateLeased(
          this.stmt,
          lease,
          `checkpoint = @checkpoint, lease_expires_at = @until, status = @status, ready_for_search = @ready,
           updated_at = @now, attempts = 0, last_error = NULL`,
          {
            checkpoint: JSON.stringify(page.checkpoint),
            until: page.leaseUntil,
            status: state.status,
            ready: state.ready_for_search ? 1 : 0,
            now: page.now,
          },
        );
        return { held: true, records: rows.length };
      });
      if (step) return step;
    }
  }

  /** Whether `lease` still holds its sync. */
  private holds(lease: LeaseRef): boolean {
    return (
      this.stmt('SELECT 1 FROM cs_syncs WHERE connector_id = ? AND entity = ? AND lease_owner = ?').get(
        lease.connector_id,
        lease.entity,
        lease.lease_owner,
      ) !== undefined
    );
  }

  /**
   * Ends a pass: the sync's next pass and state, the reconcile (rows the pass did not see again are dropped) and
   * the entity's count in full. Only the short writes are in the transaction: the count is read before it (a
   * read takes no lock, and only this connection writes the index tables, so nothing changes the connector's
   * rows in between) and the planner statistics are gathered after it, an index at a time (analyzeIfGrown).
   */
  finishPass(end: PassEnd): PassEndResult {
    const { lease, layout, next, now } = end;
    const key = this.keyOf(lease.connector_id);
    if (key === undefined) return { held: false, analyzed: false };
    const counted = this.countRows(layout, key);
    const held = this.tx((): boolean => {
      if (this.keyOf(lease.connector_id) !== key || !this.holds(lease)) return false;
      const deleted = next.reconcile
        ? this.stmt(reconcileSql(quoteIdent(layout.table), QUESTION)).run(key, next.generation).changes
        : 0;
      return updateLeased(
        this.stmt,
        lease,
        `pass = @pass, run_after = @runAfter, high_water = @high, generation = @generation, checkpoint = NULL,
           lease_owner = NULL, lease_expires_at = NULL, status = 'Ready', ready_for_search = 1,
           backfilled_at = COALESCE(backfilled_at, @now),
           last_full_at = CASE WHEN @reconcile = 1 THEN @now ELSE last_full_at END,
           updated_at = @now, attempts = 0, last_error = NULL, entity_count = @count`,
        {
          pass: next.pass,
          runAfter: next.run_after,
          high: next.high_water,
          generation: next.generation,
          reconcile: next.reconcile ? 1 : 0,
          now,
          count: counted - deleted,
        },
      );
    });
    if (!held) return { held: false, analyzed: false };
    return { held: true, analyzed: next.reconcile && this.analyzeIfGrown(layout) };
  }

  /**
   * Without statistics SQLite assumes `connector_id = ?` matches a handful of rows and picks plans that scan a
   * large connector (an `in`, or a range on one field sorted by another, took hundreds of ms at 200k rows;
   * under 1 ms after ANALYZE). Statistics are gathered again whenever the table has doubled since the last
   * time, so a table of n rows is analysed about log2(n) times in its life. Each index is analysed in a
   * transaction of its own, so a request-path write waits for one index's statistics, not the table's.
   */
  private analyzeIfGrown(layout: EntityLayout): boolean {
    const rows = (this.stmt(entityRowsSql(QUESTION)).get(layout.entity, layout.definitionId) as { n: number })
      .n;
    const last =
      (
        this.stmt('SELECT analyzed_rows FROM cs_layouts WHERE table_name = ?').get(layout.table) as
          | { analyzed_rows: number }
          | undefined
      )?.analyzed_rows ?? 0;
    if (!grownSinceAnalyzed(rows, last)) return false;
    const indexes = (this.stmt(INDEX_NAMES_SQL).all(layout.table) as { name: string }[]).map((r) => r.name);
    for (const statement of analyzeIndexTableSql(layout, indexes)) this.tx(() => this.raw.exec(statement));
    this.tx(() =>
      this.stmt('UPDATE cs_layouts SET analyzed_rows = ? WHERE table_name = ?').run(rows, layout.table),
    );
    // New statistics mean new plans: statements prepared before them keep their old plans.
    this.forgetStatements();
    return true;
  }
}
