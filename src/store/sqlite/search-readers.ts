/**
 * Where Context Store searches run. A search over a large index is CPU work for as long as SQLite takes (a
 * `like` over a million records: half a second); on the request path's thread it would stall every request of
 * every tenant meanwhile. For a database file searches run instead on a small pool of reader threads, each
 * with its own read-only connection (WAL lets them read beside the writers), and the request path only waits
 * for the answer. Who runs next is decided fairly across organizations (search-queue.ts): one organization
 * never holds every reader, and a burst of its searches does not stand in front of another organization's.
 * Searches are let in by the wait they can expect, so cheap ones wait their turn and costly floods are refused.
 * Every search stops at its time budget (search-budget.ts). An in-memory database can't be opened by a second
 * connection, so there searches run on the request path's connection, within the same budget
 * (`LocalSearchReaders`).
 */
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { searchShape } from '../search-costs.ts';
import { searchTimeout } from '../search-queue.ts';
import { SearchSlots } from '../search-slots.ts';
import { workerEntry } from './context-writer.ts';
import { SearchBudgetExceeded } from './search-budget.ts';
import { type SearchJob, SearchReader, type SearchRow } from './search-reader.ts';

export interface SearchReaderOptions {
  /** each search's time budget (a waiting search gives up after WAIT_BUDGETS of them) */
  timeoutMs: number;
  /** reader threads (at most; started as searches need them) */
  threads: number;
}

export interface SearchReaders {
  /**
   * The job's rows; SEARCH_TIMEOUT past its budget; SEARCH_QUEUE_FULL or SERVER_BUSY when it can't expect a
   * reader in time (search-queue.ts).
   */
  run(job: SearchJob): Promise<SearchRow[]>;
  /** Index tables were rebuilt or their planner statistics refreshed: readers start over with fresh statements. */
  refresh(): void;
  /** Lets running searches finish, refuses waiting ones, and stops the threads. */
  close(): Promise<void>;
}

/** Messages to a reader thread, and its answers. */
export type ReaderRequest =
  | { op: 'search'; id: number; job: SearchJob; budgetMs: number }
  | { op: 'refresh' }
  | { op: 'close'; id: number };
/** `ms`: how long a search ran on the thread. */
export type ReaderReply =
  | { id: number; ok: true; rows: SearchRow[]; ms?: number }
  | { id: number; ok: false; timeout: boolean; message: string; ms?: number };

/** Searches on the request path's connection (in-memory databases), under Kysely's connection lock. */
export class LocalSearchReaders implements SearchReaders {
  private readonly reader: SearchReader;

  constructor(
    raw: BetterSqlite3.Database,
    private readonly kysely: Kysely<Database>,
    private readonly timeoutMs: number,
  ) {
    this.reader = new SearchReader(raw);
  }

  run(job: SearchJob): Promise<SearchRow[]> {
    return this.kysely.connection().execute(async () => {
      try {
        return this.reader.run(job, this.timeoutMs);
      } catch (err) {
        throw err instanceof SearchBudgetExceeded ? searchTimeout(this.timeoutMs) : err;
      }
    });
  }

  refresh(): void {
    this.reader.forgetStatements();
  }

  async close(): Promise<void> {}
}

interface Reader {
  worker: Worker;
  current?: { id: number; ran(ms: number): void; resolve(rows: SearchRow[]): void; reject(err: Error): void };
}

/**
 * Searches on reader threads, started as they are needed, each running one search at a time; SearchSlots
 * decides which search runs when, with as many slots as threads, so a search it starts always finds one free.
 */
export class ThreadSearchReaders implements SearchReaders {
  private readonly slots: SearchSlots;
  private readonly readers: Reader[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly options: SearchReaderOptions,
  ) {
    this.slots = new SearchSlots({ slots: options.threads, budgetMs: options.timeoutMs });
  }

  run(job: SearchJob): Promise<SearchRow[]> {
    return this.slots.run(job.organizationId, searchShape(job.connectorId, job.sql), (ran) =>
      this.dispatch(job, ran),
    );
  }

  refresh(): void {
    // Handled after the search a thread may be running, before the next one.
    for (const reader of this.readers) reader.worker.postMessage({ op: 'refresh' } satisfies ReaderRequest);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.slots.close();
    await Promise.all(
      this.readers.map(
        ({ worker }) =>
          new Promise<void>((resolve) => {
            worker.once('exit', () => resolve());
            // Referenced until it has exited, or the process could end before its connection is closed.
            worker.ref();
            worker.postMessage({ op: 'close', id: 0 } satisfies ReaderRequest);
          }),
      ),
    );
  }

  /**
   * Sends the job to a free reader thread (starting one if none is), answering with its reply; `ran` hears how
   * long it ran there (a thread's start is no part of a search's cost).
   */
  private dispatch(job: SearchJob, ran: (ms: number) => void): Promise<SearchRow[]> {
    if (this.closed) return Promise.reject(new Error('the search readers are closed'));
    const reader = this.readers.find((r) => !r.current) ?? this.start();
    return new Promise<SearchRow[]>((resolve, reject) => {
      const id = this.nextId++;
      reader.current = { id, ran, resolve, reject };
      reader.worker.ref();
      reader.worker.postMessage({
        op: 'search',
        id,
        job,
        budgetMs: this.options.timeoutMs,
      } satisfies ReaderRequest);
    });
  }

  private start(): Reader {
    const worker = new Worker(workerEntry(new URL('./search-reader-thread', import.meta.url)), {
      workerData: { file: this.file },
    });
    const reader: Reader = { worker };
    worker.on('message', (reply: ReaderReply) => this.answered(reader, reply));
    worker.on('error', (err) => this.lost(reader, err));
    worker.on('exit', (code) => this.lost(reader, new Error(`search reader thread exited (code ${code})`)));
    // An idle reader does not keep the process alive; one running a search is referenced until it answers.
    worker.unref();
    this.readers.push(reader);
    return reader;
  }

  private answered(reader: Reader, reply: ReaderReply): void {
    const current = reader.current;
    if (!current || current.id !== reply.id) return;
    reader.current = undefined;
    reader.worker.unref();
    if (reply.ms !== undefined) current.ran(reply.ms);
    if (reply.ok) current.resolve(reply.rows);
    else if (reply.timeout) current.reject(searchTimeout(this.options.timeoutMs));
    else current.reject(new Error(`search reader: ${reply.message}`));
  }

  /** A thread ended (closed, or crashed): its search fails, and a new thread is started when needed. */
  private lost(reader: Reader, err: Error): void {
    const i = this.readers.indexOf(reader);
    if (i < 0) return;
    this.readers.splice(i, 1);
    const current = reader.current;
    reader.current = undefined;
    current?.reject(err);
  }
}
