/**
 * The Context Store on PostgreSQL: sync bookkeeping (`cs_syncs`) and the per-entity index tables, shared by
 * every ces process on the database. Leases are claimed with `FOR UPDATE SKIP LOCKED` (of workers polling at
 * once each gets a different sync, none waits on another's), every write of a pass checks in its own
 * transaction that the lease is still its worker's, and a lease whose worker died expires and is taken over.
 * Searches run within their time budget as the statement timeout, taking turns fairly across organizations
 * for this process's share of the pool.
 */
import type pg from 'pg';
import { BASE_COLUMNS, type EntityLayout, quoteIdent } from '../../context-store/layout.ts';
import type { SearchRequest } from '../../context-store/query.ts';
import * as shared from '../context-store-shared.ts';
import type {
  ContextStoreRepo,
  EntitySyncState,
  EntitySyncStatus,
  IndexPage,
  NextPass,
  PageCommit,
  SyncCheckpoint,
  SyncJob,
} from '../port.ts';
import { searchShape } from '../search-costs.ts';
import { searchTimeout } from '../search-queue.ts';
import { SearchSlots } from '../search-slots.ts';
import {
  foldStats,
  lastOfEachKey,
  type StatsRow,
  type SyncRow,
  statsSql,
  toJob,
  toState,
} from '../sync-rows.ts';
import { dropIndexTableDdl, indexRow, indexTableDdl, pgName, upsertSql } from './context-index.ts';
import { postgresSearchDialect } from './search-dialect.ts';

type Client = pg.PoolClient;

const table = (layout: EntityLayout) => quoteIdent(pgName(layout.table));

const DOLLAR: shared.Placeholder = (n) => `$${n}`;
/** Built once: every search reads it. */
const SEARCH_OWNER_SQL = shared.searchOwnerSql(DOLLAR);

/**
 * A page's commit need not wait for its WAL flush: the index is derived from the provider and its checkpoint
 * commits in the same transaction, so a server crash loses at most the last few hundred milliseconds of pages
 * together with their checkpoints, and the sync reads them again. Nothing else in ces commits this way.
 */
const ASYNC_COMMIT = 'SET LOCAL synchronous_commit = off';

/** Serialises layout changes of processes starting together (CREATE TABLE IF NOT EXISTS races otherwise). */
const LAYOUT_LOCK = 'SELECT pg_advisory_xact_lock(hashtext($1))';

export class PostgresContextStore implements ContextStoreRepo {
  private readonly slots: SearchSlots;

  constructor(
    private readonly pool: pg.Pool,
    private readonly searchOptions: { timeoutMs: number; threads: number },
  ) {
    this.slots = new SearchSlots({ slots: searchOptions.threads, budgetMs: searchOptions.timeoutMs });
  }

  /**
   * Runs fn in a transaction. A deadlock or serialization failure (the server chose this transaction to undo)
   * runs it again: fn does nothing but database work, so running it anew is safe.
   */
  private async tx<T>(fn: (client: Client) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(client);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        const code = (err as { code?: string }).code;
        if (attempt >= 3 || (code !== '40P01' && code !== '40001')) throw err;
      } finally {
        client.release();
      }
    }
  }

  /** `UPDATE cs_syncs SET <set>` on the sync only while `job`'s lease holds it; false: the lease was lost. */
  private async updateLeased(client: Client, job: SyncJob, set: string, params: unknown[]): Promise<boolean> {
    const n = params.length;
    const result = await client.query(
      `UPDATE cs_syncs SET ${set} WHERE connector_id = $${n + 1} AND entity = $${n + 2} AND lease_owner = $${n + 3}`,
      [...params, job.connector_id, job.entity, job.lease_owner],
    );
    return (result.rowCount ?? 0) > 0;
  }

  private async keyOf(client: Client, connectorId: string): Promise<number | undefined> {
    const r = await client.query<{ connector_key: number }>(
      'SELECT connector_key FROM cs_connectors WHERE connector_id = $1',
      [connectorId],
    );
    return r.rows[0]?.connector_key;
  }

  private async countInto(client: Client, job: SyncJob, layout: EntityLayout, key: number): Promise<void> {
    await client.query(
      `UPDATE cs_syncs SET entity_count = (SELECT count(*) FROM ${table(layout)} WHERE ${BASE_COLUMNS.connectorKey} = $1)
       WHERE connector_id = $2 AND entity = $3`,
      [key, job.connector_id, job.entity],
    );
  }

  async ensureLayouts(layouts: EntityLayout[], now: string) {
    const rebuilt: string[] = [];
    await this.tx(async (client) => {
      // The whole server's, not the schema's: creating every layout in one transaction holds a lock per table and
      // index until it commits, and several stores doing it at once filled the server's lock table.
      await client.query(LAYOUT_LOCK, ['ces.context-store.layouts']);
      for (const layout of layouts) {
        const row = await client.query<{ layout_hash: string }>(
          'SELECT layout_hash FROM cs_layouts WHERE table_name = $1',
          [layout.table],
        );
        const hash = row.rows[0]?.layout_hash;
        if (hash !== undefined && hash !== layout.hash) {
          for (const ddl of dropIndexTableDdl(layout)) await client.query(ddl);
          await client.query(shared.resetLayoutSyncsSql(DOLLAR), [now, layout.entity, layout.definitionId]);
          rebuilt.push(layout.table);
        }
        if (hash !== layout.hash) {
          for (const ddl of indexTableDdl(layout)) await client.query(ddl);
          await client.query(shared.saveLayoutSql(DOLLAR), [
            layout.table,
            layout.definitionId,
            layout.entity,
            layout.hash,
            now,
          ]);
        }
      }
    });
    return { rebuilt };
  }

  async initConnector(organizationId: string, connectorId: string, entities: string[], now: string) {
    await this.tx(async (client) => {
      await client.query(
        `INSERT INTO cs_syncs (connector_id, entity, organization_id, status, pass, run_after, created_at)
         SELECT $1, e, $2, 'Initializing', 'backfill', $3, $3 FROM unnest($4::text[]) WITH ORDINALITY AS u(e, n)
         ORDER BY n
         ON CONFLICT (connector_id, entity) DO NOTHING`,
        [connectorId, organizationId, now, entities],
      );
      await client.query(shared.addConnectorKeySql(DOLLAR), [connectorId]);
    });
  }

  async restartConnector(organizationId: string, connectorId: string, now: string) {
    // Records stay searchable meanwhile; the new backfill's reconcile drops what the new scope no longer has.
    await this.pool.query(shared.restartSyncsSql(DOLLAR), [now, organizationId, connectorId]);
  }

  async states(organizationId: string, connectorId: string) {
    const r = await this.pool.query<SyncRow>(
      'SELECT * FROM cs_syncs WHERE organization_id = $1 AND connector_id = $2 ORDER BY created_at, seq',
      [organizationId, connectorId],
    );
    return r.rows.map(toState);
  }

  async statesFor(organizationId: string, connectorIds: string[]) {
    if (connectorIds.length === 0) return new Map<string, EntitySyncState[]>();
    const r = await this.pool.query<SyncRow>(
      `SELECT * FROM cs_syncs WHERE organization_id = $1 AND connector_id = ANY($2::text[])
       ORDER BY created_at, seq`,
      [organizationId, connectorIds],
    );
    return shared.statesByConnector(r.rows);
  }

  async claim(owner: string, now: string, leaseUntil: string) {
    // SKIP LOCKED: a sync another process is claiming right now is passed over, not waited for.
    const r = await this.pool.query<SyncRow>(
      `UPDATE cs_syncs SET lease_owner = $1, lease_expires_at = $2
       WHERE (connector_id, entity) = (
         SELECT s.connector_id, s.entity FROM cs_syncs s
         JOIN connectors c ON c.id = s.connector_id
         JOIN workspaces w ON w.id = c.workspace_id
         WHERE s.run_after <= $3 AND (s.lease_expires_at IS NULL OR s.lease_expires_at < $3)
           AND w.status = 'active' AND (w.cache_enabled IS NULL OR w.cache_enabled = 1)
         ORDER BY s.run_after LIMIT 1
         FOR UPDATE OF s SKIP LOCKED)
       RETURNING *`,
      [owner, leaseUntil, now],
    );
    const row = r.rows[0];
    return row && toJob(row);
  }

  encode(
    _connectorId: string,
    layout: EntityLayout,
    records: unknown[],
    generation: number,
    syncedAt: string,
    texts?: readonly string[],
  ) {
    const rows: unknown[][] = [];
    for (const [i, record] of records.entries()) {
      const row = indexRow(layout, record, generation, syncedAt, texts?.[i]);
      if (row) rows.push(row);
    }
    return { count: rows.length, rows };
  }

  /** The batch's rows as one array per column (the upsert's parameters after the connector key). */
  private static columns(rows: unknown[][]): unknown[][] {
    const width = rows[0]?.length ?? 0;
    const cols: unknown[][] = Array.from({ length: width }, () => new Array(rows.length));
    for (const [i, row] of rows.entries()) for (let c = 0; c < width; c++) cols[c]![i] = row[c];
    return cols;
  }

  async commitPage(
    job: SyncJob,
    page: IndexPage,
    checkpoint: SyncCheckpoint,
    state: { status: EntitySyncStatus; ready_for_search: boolean; count: boolean },
    now: string,
    leaseUntil: string,
  ): Promise<PageCommit> {
    const { layout } = page;
    const rows = lastOfEachKey(
      page.pages.flatMap((p) => p.rows as unknown[][]),
      0,
    );
    const written = (held: boolean): PageCommit => ({ held, records: held ? rows.length : 0, highs: {} });
    return this.tx(async (client) => {
      await client.query(ASYNC_COMMIT);
      const held = await this.updateLeased(
        client,
        job,
        `checkpoint = $1, lease_expires_at = $2, status = $3, ready_for_search = $4, updated_at = $5,
         attempts = 0, last_error = NULL`,
        [JSON.stringify(checkpoint), leaseUntil, state.status, state.ready_for_search ? 1 : 0, now],
      );
      if (!held) return written(false);
      const key = await this.keyOf(client, job.connector_id);
      if (key === undefined) return written(false); // the connector is gone: nothing to keep
      if (rows.length > 0) {
        await client.query(upsertSql(layout), [key, ...PostgresContextStore.columns(rows)]);
      }
      if (state.count) await this.countInto(client, job, layout, key);
      return written(true);
    });
  }

  async finishPass(job: SyncJob, layout: EntityLayout, next: NextPass, now: string) {
    let analyze = false;
    const held = await this.tx(async (client) => {
      const ok = await this.updateLeased(
        client,
        job,
        `pass = $1, run_after = $2, high_water = $3, generation = $4, checkpoint = NULL,
         lease_owner = NULL, lease_expires_at = NULL, status = 'Ready', ready_for_search = 1,
         backfilled_at = COALESCE(backfilled_at, $5),
         last_full_at = CASE WHEN $6 THEN $5 ELSE last_full_at END,
         updated_at = $5, attempts = 0, last_error = NULL`,
        [next.pass, next.run_after, next.high_water, next.generation, now, next.reconcile],
      );
      if (!ok) return false;
      const key = await this.keyOf(client, job.connector_id);
      if (key === undefined) return false;
      if (next.reconcile) {
        await client.query(shared.reconcileSql(table(layout), DOLLAR), [key, next.generation]);
      }
      await this.countInto(client, job, layout, key);
      analyze = next.reconcile && (await this.grown(client, layout));
      return true;
    });
    // Fresh statistics after a table has doubled, rather than waiting for autovacuum to notice: a search right
    // after a large backfill is planned with the table's real size.
    if (analyze) await this.pool.query(`ANALYZE ${table(layout)}`);
    return held;
  }

  private async grown(client: Client, layout: EntityLayout): Promise<boolean> {
    const r = await client.query<{ n: number; last: number }>(
      `SELECT (${shared.entityRowsSql(DOLLAR)})::bigint AS n,
              COALESCE((SELECT analyzed_rows FROM cs_layouts WHERE table_name = $3), 0) AS last`,
      [layout.entity, layout.definitionId, layout.table],
    );
    const { n, last } = r.rows[0]!;
    if (!shared.grownSinceAnalyzed(Number(n), Number(last))) return false;
    await client.query('UPDATE cs_layouts SET analyzed_rows = $1 WHERE table_name = $2', [n, layout.table]);
    return true;
  }

  async saveCheckpoint(
    job: SyncJob,
    checkpoint: SyncCheckpoint,
    status: EntitySyncStatus,
    leaseUntil: string,
  ) {
    const client = await this.pool.connect();
    try {
      return await this.updateLeased(client, job, 'checkpoint = $1, status = $2, lease_expires_at = $3', [
        JSON.stringify(checkpoint),
        status,
        leaseUntil,
      ]);
    } finally {
      client.release();
    }
  }

  async release(
    job: SyncJob,
    outcome: { run_after: string; attempts: number; status?: EntitySyncStatus; last_error?: string | null },
    now: string,
  ) {
    const client = await this.pool.connect();
    try {
      await this.updateLeased(
        client,
        job,
        `lease_owner = NULL, lease_expires_at = NULL, run_after = $1, attempts = $2,
         status = COALESCE($3, status),
         last_error = CASE WHEN $4 THEN $5 ELSE last_error END,
         updated_at = CASE WHEN $3::text IS NULL THEN updated_at ELSE $6 END`,
        [
          outcome.run_after,
          outcome.attempts,
          outcome.status ?? null,
          outcome.last_error !== undefined,
          outcome.last_error ?? null,
          now,
        ],
      );
    } finally {
      client.release();
    }
  }

  async leaseOwners() {
    const r = await this.pool.query<{ lease_owner: string }>(shared.LEASE_OWNERS_SQL);
    return r.rows.map((row) => row.lease_owner);
  }

  async releaseOwner(owner: string) {
    const r = await this.pool.query(shared.releaseOwnerSql(DOLLAR), [owner]);
    return r.rowCount ?? 0;
  }

  async stats(now: string) {
    return foldStats((await this.pool.query<StatsRow>(statsSql('$1'), [now])).rows);
  }

  async search(organizationId: string, connectorId: string, layout: EntityLayout, request: SearchRequest) {
    const owner = await this.pool.query<shared.SearchOwner>(SEARCH_OWNER_SQL, [connectorId]);
    const compiled = shared.ownedSearch(
      layout,
      organizationId,
      owner.rows[0],
      request,
      postgresSearchDialect,
    );
    if (compiled === undefined) return [];
    return this.slots.run(organizationId, searchShape(connectorId, compiled.sql), () =>
      this.tx(async (client) => {
        // Milliseconds, an integer from the configuration.
        await client.query(`SET LOCAL statement_timeout = ${Math.floor(this.searchOptions.timeoutMs)}`);
        try {
          const r = await client.query<{ rid: number; data: string }>(compiled.sql, compiled.params);
          return r.rows;
        } catch (err) {
          // query_canceled: the statement timeout stopped it.
          throw (err as { code?: string }).code === '57014'
            ? searchTimeout(this.searchOptions.timeoutMs)
            : err;
        }
      }),
    );
  }

  async dropConnector(organizationId: string, connectorId: string, layouts: EntityLayout[]) {
    await this.tx(async (client) => {
      const connector = await client.query<{ organization_id: string }>(
        'SELECT organization_id FROM connectors WHERE id = $1',
        [connectorId],
      );
      const org = connector.rows[0]?.organization_id;
      // Only ever the organization's own connector (or the leftovers of one already deleted).
      if (org !== undefined && org !== organizationId) return;
      // The sync rows first, as every write of a pass locks them first: a page being written meanwhile either
      // finishes before this or finds its lease gone (a deadlock otherwise).
      await client.query('DELETE FROM cs_syncs WHERE organization_id = $1 AND connector_id = $2', [
        organizationId,
        connectorId,
      ]);
      const key = await this.keyOf(client, connectorId);
      if (key !== undefined) {
        for (const layout of layouts) {
          await client.query(`DELETE FROM ${table(layout)} WHERE ${BASE_COLUMNS.connectorKey} = $1`, [key]);
        }
        await client.query('DELETE FROM cs_connectors WHERE connector_key = $1', [key]);
      }
    });
  }

  async close() {
    await this.slots.close();
  }
}
