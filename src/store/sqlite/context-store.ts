/**
 * The Context Store on SQLite: sync bookkeeping (`cs_syncs`) and the per-entity index tables.
 *
 * It talks to better-sqlite3 directly — a backfill writes thousands of rows a second, where a query
 * builder's per-row cost shows — but only while holding Kysely's connection lock, so its statements can never
 * slip into a transaction another request has open on the same connection.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import {
  BASE_COLUMNS,
  columnValue,
  type EntityLayout,
  quoteIdent,
  recordKey,
} from '../../context-store/layout.ts';
import { compileSearch, type SearchRequest, sqliteSearchDialect } from '../../context-store/query.ts';
import type {
  ContextStoreRepo,
  EntitySyncState,
  EntitySyncStatus,
  NextPass,
  SyncCheckpoint,
  SyncJob,
  SyncPass,
} from '../port.ts';
import type { Database } from '../schema.ts';
import { analyzeIndexTableSql, dropIndexTableDdl, ftsFillSql, indexTableDdl } from './context-index.ts';

interface SyncRow {
  connector_id: string;
  entity: string;
  organization_id: string;
  status: string;
  ready_for_search: number;
  entity_count: number;
  last_error: string | null;
  updated_at: string | null;
  backfilled_at: string | null;
  last_full_at: string | null;
  pass: string;
  run_after: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  checkpoint: string | null;
  generation: number;
  high_water: string | null;
  attempts: number;
}

function toState(row: SyncRow): EntitySyncState {
  return {
    connector_id: row.connector_id,
    entity: row.entity,
    status: row.status as EntitySyncStatus,
    ready_for_search: row.ready_for_search === 1,
    entity_count: row.entity_count,
    last_error: row.last_error,
    updated_at: row.updated_at,
    backfilled_at: row.backfilled_at,
    last_full_at: row.last_full_at,
    pass: row.pass as SyncPass,
    run_after: row.run_after,
    generation: row.generation,
    high_water: row.high_water,
  };
}

function toJob(row: SyncRow): SyncJob {
  return {
    ...toState(row),
    organization_id: row.organization_id,
    lease_owner: row.lease_owner ?? '',
    checkpoint: row.checkpoint ? (JSON.parse(row.checkpoint) as SyncCheckpoint) : null,
    attempts: row.attempts,
  };
}

/** A fresh sync's columns: nothing fetched, a backfill due at once. */
const RESET_SYNC = `status = 'Initializing', ready_for_search = 0, entity_count = 0, last_error = NULL,
  updated_at = NULL, backfilled_at = NULL, last_full_at = NULL, pass = 'backfill', run_after = @now,
  lease_owner = NULL, lease_expires_at = NULL, checkpoint = NULL, generation = 0, high_water = NULL, attempts = 0`;

export class SqliteContextStore implements ContextStoreRepo {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  private readonly upserts = new Map<string, { write: (row: unknown[]) => void; layout: EntityLayout }>();

  constructor(
    private readonly raw: BetterSqlite3.Database,
    private readonly kysely: Kysely<Database>,
  ) {}

  /** Runs fn with the connection to ourselves (Kysely's lock held). */
  private locked<T>(fn: () => T): Promise<T> {
    return this.kysely.connection().execute(async () => fn());
  }

  private atomically<T>(fn: () => T): Promise<T> {
    return this.locked(() => this.raw.transaction(fn).immediate());
  }

  private stmt(sqlText: string): BetterSqlite3.Statement {
    let s = this.statements.get(sqlText);
    if (!s) {
      s = this.raw.prepare(sqlText);
      // Search SQL varies with the filter's shape; keep the cache bounded.
      if (this.statements.size >= 2000) this.statements.clear();
      this.statements.set(sqlText, s);
    }
    return s;
  }

  /**
   * Writing a record: insert it, or — seen again unchanged — only mark it seen (generation, synced_at), which
   * touches one small index instead of every field index and the full-text table; only a record whose JSON
   * differs is rewritten. A full pass over a large, mostly unchanged index stays cheap that way.
   */
  private upsertFor(layout: EntityLayout): (row: unknown[]) => void {
    const cached = this.upserts.get(layout.table);
    if (cached && cached.layout.hash === layout.hash) return cached.write;
    const table = quoteIdent(layout.table);
    const b = BASE_COLUMNS;
    const cols = [
      b.connectorId,
      b.key,
      b.data,
      b.generation,
      b.syncedAt,
      ...[...layout.fields.values()].map((f) => f.column),
    ];
    const seen = this.raw.prepare(
      `INSERT INTO ${table} (${cols.map(quoteIdent).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})
       ON CONFLICT (${b.connectorId}, ${b.key}) DO UPDATE SET ${b.generation} = excluded.${b.generation},
         ${b.syncedAt} = excluded.${b.syncedAt}
       WHERE ${b.data} IS excluded.${b.data}`,
    );
    const rewrite = this.raw.prepare(
      `UPDATE ${table} SET ${cols
        .slice(2)
        .map((c) => `${quoteIdent(c)} = ?`)
        .join(', ')} WHERE ${b.connectorId} = ? AND ${b.key} = ?`,
    );
    const write = (row: unknown[]) => {
      // Nothing written: the record exists with other JSON, so it is rewritten in full.
      if (seen.run(row).changes === 0) rewrite.run(...row.slice(2), row[0], row[1]);
    };
    this.upserts.set(layout.table, { write, layout });
    return write;
  }

  async ensureLayouts(layouts: EntityLayout[], now: string) {
    const rebuilt: string[] = [];
    await this.atomically(() => {
      for (const layout of layouts) {
        const row = this.stmt('SELECT layout_hash FROM cs_layouts WHERE table_name = ?').get(layout.table) as
          | { layout_hash: string }
          | undefined;
        if (row && row.layout_hash !== layout.hash) {
          for (const ddl of dropIndexTableDdl(layout)) this.raw.exec(ddl);
          this.stmt(
            `UPDATE cs_syncs SET ${RESET_SYNC}
             WHERE entity = @entity AND connector_id IN (SELECT id FROM connectors WHERE definition_id = @definition)`,
          ).run({ now, entity: layout.entity, definition: layout.definitionId });
          rebuilt.push(layout.table);
        }
        for (const ddl of indexTableDdl(layout)) this.raw.exec(ddl);
        this.stmt(
          `INSERT INTO cs_layouts (table_name, definition_id, entity, layout_hash, created_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (table_name) DO UPDATE SET layout_hash = excluded.layout_hash, created_at = excluded.created_at`,
        ).run(layout.table, layout.definitionId, layout.entity, layout.hash, now);
      }
    });
    // Rebuilt tables invalidate prepared statements over them.
    this.statements.clear();
    this.upserts.clear();
    return { rebuilt };
  }

  async initConnector(organizationId: string, connectorId: string, entities: string[], now: string) {
    await this.atomically(() => {
      const insert = this.stmt(
        `INSERT INTO cs_syncs (connector_id, entity, organization_id, status, pass, run_after, created_at)
         VALUES (?, ?, ?, 'Initializing', 'backfill', ?, ?) ON CONFLICT (connector_id, entity) DO NOTHING`,
      );
      for (const entity of entities) insert.run(connectorId, entity, organizationId, now, now);
    });
  }

  async restartConnector(organizationId: string, connectorId: string, now: string) {
    // Records stay searchable meanwhile; the new backfill's reconcile drops what the new scope no longer has.
    await this.locked(() =>
      this.stmt(
        `UPDATE cs_syncs SET pass = 'backfill', run_after = @now, checkpoint = NULL, attempts = 0, last_error = NULL,
           lease_owner = NULL, lease_expires_at = NULL,
           status = CASE WHEN ready_for_search = 1 THEN 'Updating' ELSE 'Initializing' END
         WHERE organization_id = @org AND connector_id = @id`,
      ).run({ now, org: organizationId, id: connectorId }),
    );
  }

  async states(organizationId: string, connectorId: string) {
    const rows = await this.locked(
      () =>
        this.stmt(
          'SELECT * FROM cs_syncs WHERE organization_id = ? AND connector_id = ? ORDER BY created_at, rowid',
        ).all(organizationId, connectorId) as SyncRow[],
    );
    return rows.map(toState);
  }

  async statesFor(organizationId: string, connectorIds: string[]) {
    const out = new Map<string, EntitySyncState[]>();
    if (connectorIds.length === 0) return out;
    const rows = await this.locked(
      () =>
        this.stmt(
          `SELECT * FROM cs_syncs WHERE organization_id = ? AND connector_id IN (SELECT value FROM json_each(?))
           ORDER BY created_at, rowid`,
        ).all(organizationId, JSON.stringify(connectorIds)) as SyncRow[],
    );
    for (const row of rows) {
      const list = out.get(row.connector_id) ?? [];
      list.push(toState(row));
      out.set(row.connector_id, list);
    }
    return out;
  }

  async claim(owner: string, now: string, leaseUntil: string) {
    const row = await this.locked(
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
        ).get({ owner, until: leaseUntil, now }) as SyncRow | undefined,
    );
    return row && toJob(row);
  }

  private leaseHeld(job: SyncJob, set: string, params: Record<string, unknown>): boolean {
    const result = this.stmt(
      `UPDATE cs_syncs SET ${set} WHERE connector_id = @cid AND entity = @entity AND lease_owner = @owner`,
    ).run({ ...params, cid: job.connector_id, entity: job.entity, owner: job.lease_owner });
    return result.changes > 0;
  }

  private countInto(job: SyncJob, layout: EntityLayout) {
    this.stmt(
      `UPDATE cs_syncs SET entity_count = (SELECT count(*) FROM ${quoteIdent(layout.table)} WHERE connector_id = @cid)
       WHERE connector_id = @cid AND entity = @entity`,
    ).run({ cid: job.connector_id, entity: job.entity });
  }

  async commitPage(
    job: SyncJob,
    page: { layout: EntityLayout; records: unknown[] },
    checkpoint: SyncCheckpoint,
    state: { status: EntitySyncStatus; ready_for_search: boolean; count: boolean },
    now: string,
    leaseUntil: string,
  ) {
    const { layout } = page;
    const upsert = this.upsertFor(layout);
    const fields = [...layout.fields.values()];
    // Serialise outside the transaction: the write lock is held only for the writes.
    const rows: unknown[][] = [];
    for (const record of page.records) {
      const key = recordKey(layout, record);
      if (key === undefined) continue; // a record without its primary key can't be kept in step
      const row: unknown[] = [job.connector_id, key, JSON.stringify(record), checkpoint.generation, now];
      for (const f of fields) row.push(columnValue(f, record));
      rows.push(row);
    }
    return this.atomically(() => {
      const held = this.leaseHeld(
        job,
        `checkpoint = @checkpoint, lease_expires_at = @until, status = @status, ready_for_search = @ready,
         updated_at = @now, attempts = 0, last_error = NULL`,
        {
          checkpoint: JSON.stringify(checkpoint),
          until: leaseUntil,
          status: state.status,
          ready: state.ready_for_search ? 1 : 0,
          now,
        },
      );
      if (!held) return false;
      const fill = ftsFillSql(layout);
      const before = fill
        ? (
            this.stmt(`SELECT COALESCE(MAX(rid), 0) AS m FROM ${quoteIdent(layout.table)}`).get() as {
              m: number;
            }
          ).m
        : 0;
      for (const row of rows) upsert(row);
      // The rows this batch inserted are the ones above the largest row id before it (all in this transaction).
      if (fill) this.stmt(fill).run(before);
      if (state.count) this.countInto(job, layout);
      return true;
    });
  }

  async finishPass(job: SyncJob, layout: EntityLayout, next: NextPass, now: string) {
    return this.atomically(() => {
      const held = this.leaseHeld(
        job,
        `pass = @pass, run_after = @runAfter, high_water = @high, generation = @generation, checkpoint = NULL,
         lease_owner = NULL, lease_expires_at = NULL, status = 'Ready', ready_for_search = 1,
         backfilled_at = COALESCE(backfilled_at, @now),
         last_full_at = CASE WHEN @reconcile = 1 THEN @now ELSE last_full_at END,
         updated_at = @now, attempts = 0, last_error = NULL`,
        {
          pass: next.pass,
          runAfter: next.run_after,
          high: next.high_water,
          generation: next.generation,
          reconcile: next.reconcile ? 1 : 0,
          now,
        },
      );
      if (!held) return false;
      if (next.reconcile) {
        this.stmt(
          `DELETE FROM ${quoteIdent(layout.table)} WHERE connector_id = ? AND ${BASE_COLUMNS.generation} < ?`,
        ).run(job.connector_id, next.generation);
      }
      this.countInto(job, layout);
      if (next.reconcile) this.analyzeIfGrown(layout);
      return true;
    });
  }

  /**
   * Without statistics SQLite assumes `connector_id = ?` matches a handful of rows and picks plans that scan a
   * large connector (an `in`, or a range on one field sorted by another, took hundreds of ms at 200k rows;
   * under 1 ms after ANALYZE). Statistics are gathered again whenever the table has doubled since the last
   * time, so a table of n rows is analysed about log2(n) times in its life.
   */
  private analyzeIfGrown(layout: EntityLayout) {
    const rows = (
      this.stmt(
        'SELECT COALESCE(SUM(entity_count), 0) AS n FROM cs_syncs WHERE entity = ? AND connector_id IN (SELECT id FROM connectors WHERE definition_id = ?)',
      ).get(layout.entity, layout.definitionId) as { n: number }
    ).n;
    const last =
      (
        this.stmt('SELECT analyzed_rows FROM cs_layouts WHERE table_name = ?').get(layout.table) as
          | { analyzed_rows: number }
          | undefined
      )?.analyzed_rows ?? 0;
    if (rows < 1000 || rows < last * 2) return;
    this.raw.exec(analyzeIndexTableSql(layout));
    this.stmt('UPDATE cs_layouts SET analyzed_rows = ? WHERE table_name = ?').run(rows, layout.table);
    // New statistics mean new plans: statements prepared before them keep their old plans.
    this.statements.clear();
  }

  async saveCheckpoint(
    job: SyncJob,
    checkpoint: SyncCheckpoint,
    status: EntitySyncStatus,
    leaseUntil: string,
  ) {
    return this.locked(() =>
      this.leaseHeld(job, 'checkpoint = @checkpoint, status = @status, lease_expires_at = @until', {
        checkpoint: JSON.stringify(checkpoint),
        status,
        until: leaseUntil,
      }),
    );
  }

  async release(
    job: SyncJob,
    outcome: { run_after: string; attempts: number; status?: EntitySyncStatus; last_error?: string | null },
    now: string,
  ) {
    await this.locked(() =>
      this.leaseHeld(
        job,
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
          now,
        },
      ),
    );
  }

  async leaseOwners() {
    const rows = await this.locked(
      () =>
        this.stmt('SELECT DISTINCT lease_owner FROM cs_syncs WHERE lease_owner IS NOT NULL').all() as Array<{
          lease_owner: string;
        }>,
    );
    return rows.map((r) => r.lease_owner);
  }

  async releaseOwner(owner: string) {
    return this.locked(
      () =>
        this.stmt(
          'UPDATE cs_syncs SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = ?',
        ).run(owner).changes,
    );
  }

  async search(organizationId: string, connectorId: string, layout: EntityLayout, request: SearchRequest) {
    const compiled = compileSearch(layout, connectorId, request, sqliteSearchDialect);
    return this.locked(() => {
      const owner = this.stmt('SELECT organization_id FROM connectors WHERE id = ?').get(connectorId) as
        | { organization_id: string }
        | undefined;
      if (owner?.organization_id !== organizationId) return [];
      return this.stmt(compiled.sql).all(...compiled.params) as Array<{ rid: number; data: string }>;
    });
  }

  async dropConnector(organizationId: string, connectorId: string, layouts: EntityLayout[]) {
    await this.atomically(() => {
      const connector = this.stmt('SELECT organization_id FROM connectors WHERE id = ?').get(connectorId) as
        | { organization_id: string }
        | undefined;
      // Only ever the organization's own connector (or the leftovers of one already deleted).
      if (connector && connector.organization_id !== organizationId) return;
      for (const layout of layouts) {
        this.stmt(`DELETE FROM ${quoteIdent(layout.table)} WHERE connector_id = ?`).run(connectorId);
      }
      this.stmt('DELETE FROM cs_syncs WHERE organization_id = ? AND connector_id = ?').run(
        organizationId,
        connectorId,
      );
    });
  }
}
