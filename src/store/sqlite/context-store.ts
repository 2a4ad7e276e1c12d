/**
 * The Context Store on SQLite: sync bookkeeping (`cs_syncs`) and the per-entity index tables.
 *
 * Bookkeeping reads (states) run here on the request path's connection; searches run on the SearchReaders
 * (search-readers.ts: reader threads for a database file), writes after start-up on the ContextWriter
 * (context-writer.ts: a thread of their own for a database file). It talks to better-sqlite3
 * directly — a backfill writes thousands of rows a second, where a query builder's per-row cost shows — but
 * only while holding Kysely's connection lock, so its statements can never slip into a transaction another
 * request has open on the same connection.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { EntityLayout } from '../../context-store/layout.ts';
import type { SearchRequest } from '../../context-store/query.ts';
import * as shared from '../context-store-shared.ts';
import type {
  ContextStoreRepo,
  EncodedRecords,
  EntitySyncState,
  EntitySyncStatus,
  IndexPage,
  NextPass,
  PageCommit,
  SyncCheckpoint,
  SyncJob,
} from '../port.ts';
import type { Database } from '../schema.ts';
import { foldStats, type SyncRow, toJob, toState } from '../sync-rows.ts';
import { dropIndexTableDdl, indexTableDdl } from './context-index.ts';
import type { ContextWriter } from './context-writer.ts';
import type { LeaseRef, ReleaseOutcome } from './context-writes.ts';
import { type DecodedList, encodeRows, type ListPage } from './record-rows.ts';
import { sqliteSearchDialect } from './search-dialect.ts';
import type { SearchReaders } from './search-readers.ts';
import type { WriteGate } from './write-gate.ts';

/** A port with `rows` waiting in it, to send beside pages the decoder thread posted. */
function portHolding(rows: unknown[][]): MessagePort {
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(rows);
  port1.close();
  return port2;
}

/** A page given as bytes, being decoded. */
interface PendingPage {
  decoded: Promise<DecodedList>;
  high: { field: string; key: string } | undefined;
  /** Where the decoder thread posts the rows (both threads): handed to the writer thread by commitPage. */
  rows?: MessagePort;
}

const QUESTION: shared.Placeholder = () => '?';
/** Built once: every search reads it. */
const SEARCH_OWNER_SQL = shared.searchOwnerSql(QUESTION);

export class SqliteContextStore implements ContextStoreRepo {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  /** Definitions not used yet, whose index tables are made at first use (see ensureLayouts). */
  private readonly deferred = new Map<string, EntityLayout[]>();

  constructor(
    private readonly raw: BetterSqlite3.Database,
    private readonly kysely: Kysely<Database>,
    private readonly writer: ContextWriter,
    private readonly gate: WriteGate,
    private readonly readers: SearchReaders,
    /** Parses and encodes pages given as bytes: a thread of its own for a file (the writer's code, unused lock). */
    private readonly decoder: ContextWriter,
  ) {}

  /** Runs fn with the connection to ourselves (Kysely's lock held). */
  private locked<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.kysely.connection().execute(async () => fn());
  }

  /** Runs fn, which writes, with the connection to ourselves and past the write gate (see write-gate.ts). */
  private writing<T>(fn: () => T): Promise<T> {
    return this.locked(async () => {
      await this.gate.enter();
      try {
        return fn();
      } finally {
        this.gate.leave();
      }
    });
  }

  private atomically<T>(fn: () => T): Promise<T> {
    return this.writing(() => this.raw.transaction(fn).immediate());
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
   * Index tables are made when a definition is first used, not at start-up: the shipped definitions hold some
   * 1,700 tables, indexes and triggers, which took most of an empty data dir's start-up to create. A definition
   * that has a table already (a `cs_layouts` row) is in use: its layouts are checked here (a changed layout is
   * rebuilt, its syncs reset) and any new entity's table made. The others wait in `deferred` until a connector
   * of theirs is initialised, searched, written or dropped (`tablesFor`). Every statement is idempotent (`IF NOT
   * EXISTS`, upsert), so another process on the file having made them first is fine.
   */
  async ensureLayouts(layouts: EntityLayout[], now: string) {
    const rebuilt: string[] = [];
    await this.atomically(() => {
      const known = new Map(
        (
          this.stmt('SELECT table_name, layout_hash FROM cs_layouts').all() as Array<{
            table_name: string;
            layout_hash: string;
          }>
        ).map((r) => [r.table_name, r.layout_hash]),
      );
      const inUse = new Set(layouts.filter((l) => known.has(l.table)).map((l) => l.definitionId));
      // The layouts of this call replace whatever an earlier call deferred.
      this.deferred.clear();
      for (const layout of layouts) {
        if (!inUse.has(layout.definitionId)) {
          const list = this.deferred.get(layout.definitionId) ?? [];
          list.push(layout);
          this.deferred.set(layout.definitionId, list);
          continue;
        }
        const hash = known.get(layout.table);
        if (hash === layout.hash) continue;
        if (hash !== undefined) {
          for (const ddl of dropIndexTableDdl(layout)) this.raw.exec(ddl);
          this.stmt(shared.resetLayoutSyncsSql(QUESTION)).run(now, layout.entity, layout.definitionId);
          rebuilt.push(layout.table);
        }
        this.createTables(layout, now);
      }
    });
    // Rebuilt tables invalidate prepared statements over them.
    this.statements.clear();
    this.readers.refresh();
    await this.writer.run('forgetStatements', undefined);
    return { rebuilt };
  }

  private createTables(layout: EntityLayout, now: string) {
    for (const ddl of indexTableDdl(layout)) this.raw.exec(ddl);
    this.stmt(shared.saveLayoutSql(QUESTION)).run(
      layout.table,
      layout.definitionId,
      layout.entity,
      layout.hash,
      now,
    );
  }

  /** Makes the index tables of a definition whose tables were deferred at start-up (see ensureLayouts). */
  private async tablesFor(definitionId: string): Promise<void> {
    const layouts = this.deferred.get(definitionId);
    if (!layouts) return;
    await this.atomically(() => {
      const now = new Date().toISOString();
      for (const layout of layouts) this.createTables(layout, now);
    });
    this.deferred.delete(definitionId);
  }

  async initConnector(organizationId: string, connectorId: string, entities: string[], now: string) {
    if (this.deferred.size > 0) {
      const row = (await this.locked(() =>
        this.stmt('SELECT definition_id FROM connectors WHERE id = ?').get(connectorId),
      )) as { definition_id: string } | undefined;
      if (row) await this.tablesFor(row.definition_id);
    }
    await this.writer.run('initConnector', { organizationId, connectorId, entities, now });
  }

  async restartConnector(organizationId: string, connectorId: string, now: string) {
    await this.writer.run('restartConnector', { organizationId, connectorId, now });
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
    if (connectorIds.length === 0) return new Map<string, EntitySyncState[]>();
    const rows = await this.locked(
      () =>
        this.stmt(
          `SELECT * FROM cs_syncs WHERE organization_id = ? AND connector_id IN (SELECT value FROM json_each(?))
           ORDER BY created_at, rowid`,
        ).all(organizationId, JSON.stringify(connectorIds)) as SyncRow[],
    );
    return shared.statesByConnector(rows);
  }

  async claim(owner: string, now: string, leaseUntil: string) {
    const row = await this.writer.run('claim', { owner, now, leaseUntil });
    return row && toJob(row);
  }

  encode(
    connectorId: string,
    layout: EntityLayout,
    records: unknown[],
    generation: number,
    syncedAt: string,
    texts?: readonly string[],
  ): EncodedRecords {
    // Strings and numbers only: cheap to hand to the writer thread, which then holds the write lock for the
    // writes alone.
    const rows = encodeRows(connectorId, layout, records, generation, syncedAt, texts);
    return { count: rows.length, rows };
  }

  /**
   * The page is parsed and encoded on the decoder thread, started now (while the sync fetches the next page);
   * commitPage waits for it. Neither the request path's thread nor the writer's spends time on it.
   */
  encodeBytes(
    connectorId: string,
    layout: EntityLayout,
    list: readonly Buffer[],
    generation: number,
    syncedAt: string,
    high?: { field: string; key: string },
  ): EncodedRecords {
    // Moved to the decoder thread as the pieces they came in (the decoder joins them), not copied. V8 counts the
    // memory of the ArrayBuffers a thread allocated since its last full collection against its old generation's
    // limit, and this thread's heap holds little else that grows: copied, the pages' bytes set a full
    // collection going every ~0.7 s of a backfill (111 in a 1M-record one, 46 of them pausing every request for
    // 10 ms or more; bench:context-store's `main_thread.gc`); moved, their memory leaves this thread's count
    // at once (2 in the same backfill; the process's peak RSS about the same: 391 and 399 MiB against 393 and
    // 381). A piece that is not its buffer's alone (cut from a larger one, which other views or Node's pool may
    // share) is copied into one of its own first, so nothing else is ever emptied by the move.
    const move = this.decoder.threaded;
    const parts = list.map((part) => (move ? ownBuffer(part) : part));
    let bytes = 0;
    for (const part of parts) bytes += part.byteLength;
    const page: ListPage = { list: parts, connectorId, generation, syncedAt, ...(high ? { high } : {}) };
    // Decoder and writer on threads of their own: the rows go from one to the other directly. A page never
    // committed leaves its port here, to be collected with the rows it holds.
    const channel = this.decoder.threaded && this.writer.threaded ? new MessageChannel() : undefined;
    const decoded = this.decoder.run(
      'decode',
      { page, layout },
      channel && [channel.port1],
      // Each buffer once: a transfer list naming one twice is refused.
      move ? [...new Set(parts.map((part) => part.buffer as ArrayBuffer))] : undefined,
    );
    // Awaited by commitPage; a page never committed (the pass failed first) must not count as unhandled.
    decoded.catch(() => undefined);
    const pending: PendingPage = { decoded, high, ...(channel ? { rows: channel.port2 } : {}) };
    return { count: 0, bytes, rows: pending };
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
    await this.tablesFor(layout.definitionId);
    const rows: unknown[][] = [];
    // The pages whose rows wait in a port, in order; rows at hand before one of those are sent the same way.
    const ports: MessagePort[] = [];
    const highs: Record<string, number> = {};
    for (const p of page.pages) {
      if (Array.isArray(p.rows)) {
        rows.push(...(p.rows as unknown[][]));
        continue;
      }
      const pending = p.rows as PendingPage;
      const decoded = await pending.decoded;
      if (pending.rows) {
        if (rows.length > 0) ports.push(portHolding(rows.splice(0)));
        ports.push(pending.rows);
      } else rows.push(...decoded.rows);
      const key = pending.high?.key;
      if (key !== undefined && decoded.high !== undefined && !(decoded.high <= (highs[key] ?? -Infinity)))
        highs[key] = decoded.high;
    }
    // The highs the pages hold beyond the checkpoint's go into it, and back to the sync.
    const later: Record<string, string> = {};
    for (const [key, ms] of Object.entries(highs)) {
      const had = checkpoint.highs[key];
      if (had === undefined || ms > Date.parse(had)) later[key] = new Date(ms).toISOString();
    }
    if (ports.length > 0 && rows.length > 0) ports.push(portHolding(rows.splice(0)));
    const done = await this.writer.run(
      'commitPage',
      {
        lease: leaseOf(job),
        layout,
        rows,
        checkpoint: { ...checkpoint, highs: { ...checkpoint.highs, ...later } },
        state,
        now,
        leaseUntil,
      },
      ports,
    );
    return { ...done, highs: done.held ? later : {} };
  }

  async finishPass(job: SyncJob, layout: EntityLayout, next: NextPass, now: string) {
    await this.tablesFor(layout.definitionId);
    const { held, analyzed } = await this.writer.run('finishPass', {
      lease: leaseOf(job),
      layout,
      next,
      now,
    });
    if (analyzed) {
      // Statistics gathered on the writer's connection reach this one only when it reloads them; statements
      // prepared before keep their old plans.
      await this.writing(() => this.raw.exec('ANALYZE sqlite_master'));
      this.statements.clear();
      this.readers.refresh();
    }
    return held;
  }

  async saveCheckpoint(
    job: SyncJob,
    checkpoint: SyncCheckpoint,
    status: EntitySyncStatus,
    leaseUntil: string,
  ) {
    return this.writer.run('saveCheckpoint', { lease: leaseOf(job), checkpoint, status, leaseUntil });
  }

  async release(job: SyncJob, outcome: ReleaseOutcome, now: string) {
    await this.writer.run('release', { lease: leaseOf(job), outcome, now });
  }

  async leaseOwners() {
    const rows = await this.locked(
      () => this.stmt(shared.LEASE_OWNERS_SQL).all() as Array<{ lease_owner: string }>,
    );
    return rows.map((r) => r.lease_owner);
  }

  async releaseOwner(owner: string) {
    return this.writer.run('releaseOwner', { owner });
  }

  async search(organizationId: string, connectorId: string, layout: EntityLayout, request: SearchRequest) {
    await this.tablesFor(layout.definitionId);
    const owner = await this.locked(
      () => this.stmt(SEARCH_OWNER_SQL).get(connectorId) as shared.SearchOwner | undefined,
    );
    const search = shared.ownedSearch(layout, organizationId, owner, request, sqliteSearchDialect);
    if (search === undefined) return [];
    // The reader checks again, in the snapshot it searches, that the key is still this connector's.
    return this.readers.run({ organizationId, connectorId, ...search });
  }

  async stats(now: string) {
    return foldStats(await this.writer.run('stats', { now }));
  }

  async dropConnector(organizationId: string, connectorId: string, layouts: EntityLayout[]) {
    for (const definitionId of new Set(layouts.map((l) => l.definitionId)))
      await this.tablesFor(definitionId);
    await this.writer.run('dropConnector', {
      organizationId,
      connectorId,
      tables: layouts.map((l) => l.table),
    });
  }

  async close() {
    await Promise.all([this.readers.close(), this.writer.close(), this.decoder.close()]);
  }
}

function leaseOf(job: SyncJob): LeaseRef {
  return { connector_id: job.connector_id, entity: job.entity, lease_owner: job.lease_owner };
}

/** `part` when it is the whole of an ArrayBuffer (not a shared one), else a copy of it that is. */
function ownBuffer(part: Buffer): Buffer {
  if (
    part.byteOffset === 0 &&
    part.byteLength === part.buffer.byteLength &&
    part.buffer instanceof ArrayBuffer
  ) {
    return part;
  }
  const own = Buffer.from(new ArrayBuffer(part.byteLength));
  part.copy(own);
  return own;
}
