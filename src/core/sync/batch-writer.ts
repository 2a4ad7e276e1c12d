/**
 * Writes a pass's pages to the Context Store: each page encoded as it arrives (while the next one is on its
 * way), pages gathered into batches, each batch written with the checkpoint after it, several batches on the
 * store's writer at once but written in order. A lost lease ends the pass (LeaseLost): the sync is someone
 * else's now, and nothing more of it is written.
 */
import type { EntityLayout } from '../../context-store/layout.ts';
import type {
  ContextStoreRepo,
  EncodedRecords,
  EntitySyncStatus,
  PageCommit,
  SyncCheckpoint,
  SyncJob,
} from '../../store/port.ts';
import type { ContextStoreObserver } from '../context-store-observer.ts';
import { withHighs } from './checkpoint.ts';
import type { ListPage } from './page-source.ts';

/** Entity count refreshed at most this often during a pass (a count over a large index is not free). */
const COUNT_EVERY_MS = 2000;
/** A batch of pages is written once it holds this many records or is this old. */
export const BATCH_RECORDS = 2000;
/** Or, for pages given to the store as bytes (counted once written), this many bytes of them. */
export const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_MS = 1000;
/**
 * Batches handed to the store's writer and not yet written. More than one keeps the provider busy while the
 * writer works (a page's cursor comes from the page before, so fetching can't run further ahead); each is
 * written with its own checkpoint, in order.
 */
export const WRITES_IN_FLIGHT = 3;

/** The sync's lease was taken over (it expired, or the sync was restarted): the pass ends, writing nothing more. */
export class LeaseLost extends Error {}

export interface BatchWriterOptions {
  store: Pick<ContextStoreRepo, 'encode' | 'encodeBytes' | 'commitPage'>;
  job: SyncJob;
  layout: EntityLayout;
  /** The definition's slug, for the observer. */
  connectorType: string;
  /** The entity's status while the pass writes (Preview or Updating). */
  status: EntitySyncStatus;
  /** The incremental timestamp field, whose largest value the store reports for pages given as bytes. */
  highField?: string | undefined;
  /** How long each write extends the lease. */
  leaseMs: number;
  now: () => Date;
  observer?: ContextStoreObserver | undefined;
}

/** A page to write: its records or bytes, and the key of its partition in the checkpoint's highs. */
export type WritablePage = Pick<ListPage, 'records' | 'bytes' | 'texts'> & { key: string };

export class BatchWriter {
  private ready: boolean;
  private batch: EncodedRecords[] = [];
  private batchRecords = 0;
  private batchBytes = 0;
  private lastCount = 0;
  private lastCommit: number;
  private readonly writing: Array<Promise<PageCommit>> = [];

  constructor(private readonly o: BatchWriterOptions) {
    this.ready = o.job.ready_for_search;
    this.lastCommit = o.now().getTime();
  }

  /**
   * Encodes `page` and adds it to the batch; writes the batch with `cp` (the checkpoint after the page) when
   * it is due: the entity's first page (so it becomes searchable, Preview, as early as possible), the pass's
   * last (`final`: no page follows, as when the pass stops), BATCH_RECORDS records, BATCH_BYTES bytes or
   * BATCH_MS since the last write. Returns `cp` with the highs the store found in batches written meanwhile.
   * Throws LeaseLost once a write finds the lease lost.
   */
  async add(page: WritablePage, cp: SyncCheckpoint, final: boolean): Promise<SyncCheckpoint> {
    const encoded = this.encode(page, cp);
    this.batch.push(encoded);
    this.batchRecords += encoded.count;
    this.batchBytes += encoded.bytes ?? 0;
    // Pages are written in batches: one transaction per page made the commit (index pages and full-text
    // segments written to the WAL) the largest cost of a backfill. A crash loses at most the batches not yet
    // written, which are read again from the checkpoint before them.
    const nowMs = this.o.now().getTime();
    const due =
      !this.ready ||
      final ||
      this.batchRecords >= BATCH_RECORDS ||
      this.batchBytes >= BATCH_BYTES ||
      nowMs - this.lastCommit >= BATCH_MS;
    if (!due) return cp;
    const next = await this.written(cp, WRITES_IN_FLIGHT - 1);
    this.commit(next, nowMs, final);
    return next;
  }

  /** Waits for every batch handed to the store; returns `cp` with the highs the store found in them. */
  drain(cp: SyncCheckpoint): Promise<SyncCheckpoint> {
    return this.written(cp, 0);
  }

  /** A pass that ends for any reason lets the writes under way finish (or fail) before what follows. */
  async settle(): Promise<void> {
    await Promise.allSettled(this.writing);
  }

  // Encoded now, while the next page is on its way: the provider isn't left waiting for a batch's worth.
  // Each record's JSON is kept as the provider wrote it rather than serialised again.
  private encode(page: WritablePage, cp: SyncCheckpoint): EncodedRecords {
    const { store, job, layout, highField } = this.o;
    const syncedAt = this.o.now().toISOString();
    if (page.bytes && store.encodeBytes) {
      const high = highField !== undefined ? { field: highField, key: page.key } : undefined;
      return store.encodeBytes(job.connector_id, layout, page.bytes, cp.generation, syncedAt, high);
    }
    return store.encode(job.connector_id, layout, page.records, cp.generation, syncedAt, page.texts());
  }

  private commit(cp: SyncCheckpoint, nowMs: number, final: boolean): void {
    const { store, job, layout, observer } = this.o;
    this.ready = true;
    const count = nowMs - this.lastCount >= COUNT_EVERY_MS || final;
    if (count) this.lastCount = nowMs;
    const now = this.o.now();
    const write = store.commitPage(
      job,
      { layout, pages: this.batch },
      cp,
      { status: this.o.status, ready_for_search: true, count },
      now.toISOString(),
      new Date(now.getTime() + this.o.leaseMs).toISOString(),
    );
    // Awaited later (written()); until then a failure must not count as unhandled.
    write.catch(() => undefined);
    if (observer) {
      write.then(
        (done) => done.held && observer.recordsWritten(this.o.connectorType, layout.entity, done.records),
        () => undefined,
      );
    }
    this.writing.push(write);
    this.batch = [];
    this.batchRecords = 0;
    this.batchBytes = 0;
    this.lastCommit = nowMs;
  }

  /** Waits until at most `inFlight` batches are being written, in order; a lost lease ends the pass. */
  private async written(cp: SyncCheckpoint, inFlight: number): Promise<SyncCheckpoint> {
    let next = cp;
    while (this.writing.length > inFlight) {
      const done = await this.writing.shift();
      if (!done?.held) throw new LeaseLost();
      next = withHighs(next, done.highs);
    }
    return next;
  }
}
