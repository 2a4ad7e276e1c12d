/**
 * Where Context Store searches run. A search over a large index is CPU work for as long as SQLite takes (a
 * `like` over a million records: half a second); on the request path's thread it would stall every request of
 * every tenant meanwhile. For a database file searches run instead on a small pool of reader threads, each
 * with its own read-only connection (WAL lets them read beside the writers), and the request path only waits
 * for the answer. Who runs next is decided fairly across organizations (search-queue.ts): one organization
 * never holds every reader, and a burst of its searches does not stand in front of another organization's.
 * Every search stops at its time budget (search-budget.ts). An in-memory database can't be opened by a second
 * connection, so there searches run on the request path's connection, within the same budget
 * (`LocalSearchReaders`).
 */
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import {
  FairQueue,
  searchTimeout,
  serverBusy,
  WAIT_BUDGETS,
  WAITING_PER_ORGANIZATION,
  WAITING_TOTAL,
} from '../search-queue.ts';
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
  /** The job's rows; SEARCH_TIMEOUT past its budget, SERVER_BUSY when it can't get a reader in time. */
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
export type ReaderReply =
  | { id: number; ok: true; rows: SearchRow[] }
  | { id: number; ok: false; timeout: boolean; message: string };

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

interface Pending {
  job: SearchJob;
  resolve(rows: SearchRow[]): void;
  reject(err: Error): void;
  timer?: NodeJS.Timeout;
}

interface Reader {
  worker: Worker;
  current?: { id: number; organization: string; pending: Pending };
}

/** Searches on reader threads, started as they are needed, each running one search at a time. */
export class ThreadSearchReaders implements SearchReaders {
  private readonly queue: FairQueue<Pending>;
  private readonly readers: Reader[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly options: SearchReaderOptions,
  ) {
    this.queue = new FairQueue({
      // With one thread, one organization may have it; with more, one is always left to the others.
      perOrganization: Math.max(1, options.threads - 1),
      waitingPerOrganization: WAITING_PER_ORGANIZATION,
      waitingTotal: WAITING_TOTAL,
    });
  }

  run(job: SearchJob): Promise<SearchRow[]> {
    if (this.closed) return Promise.reject(new Error('the search readers are closed'));
    const budgetMs = this.options.timeoutMs;
    const waitMs = budgetMs * WAIT_BUDGETS;
    return new Promise<SearchRow[]>((resolve, reject) => {
      const pending: Pending = { job, resolve, reject };
      const outcome = this.queue.push(job.organizationId, pending);
      if (outcome !== 'queued') {
        const whose = outcome === 'full' ? 'ces has' : 'This organization has';
        const waiting = outcome === 'full' ? WAITING_TOTAL : WAITING_PER_ORGANIZATION;
        reject(
          serverBusy(`${whose} ${waiting} Context Store searches waiting already; retry shortly.`, budgetMs),
        );
        return;
      }
      pending.timer = setTimeout(() => {
        if (!this.queue.remove(job.organizationId, pending)) return;
        reject(
          serverBusy(
            `This search waited ${waitMs} ms without a free search reader: other searches of this organization ` +
              '(or of all) are keeping them busy. Retry shortly.',
            budgetMs,
          ),
        );
      }, waitMs);
      this.pump();
    });
  }

  refresh(): void {
    // Handled after the search a thread may be running, before the next one.
    for (const reader of this.readers) reader.worker.postMessage({ op: 'refresh' } satisfies ReaderRequest);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const pending of this.queue.drain()) {
      clearTimeout(pending.timer);
      pending.reject(serverBusy('ces is shutting down; retry shortly.', this.options.timeoutMs));
    }
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

  /** Starts waiting searches while readers (running or still to start) are free. */
  private pump(): void {
    while (!this.closed) {
      let reader = this.readers.find((r) => !r.current);
      if (!reader && this.readers.length >= this.options.threads) return;
      const next = this.queue.next();
      if (!next) return;
      clearTimeout(next.item.timer);
      reader ??= this.start();
      const id = this.nextId++;
      reader.current = { id, organization: next.organization, pending: next.item };
      reader.worker.ref();
      reader.worker.postMessage({
        op: 'search',
        id,
        job: next.item.job,
        budgetMs: this.options.timeoutMs,
      } satisfies ReaderRequest);
    }
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
    this.queue.done(current.organization);
    if (reply.ok) current.pending.resolve(reply.rows);
    else if (reply.timeout) current.pending.reject(searchTimeout(this.options.timeoutMs));
    else current.pending.reject(new Error(`search reader: ${reply.message}`));
    this.pump();
  }

  /** A thread ended (closed, or crashed): its search fails, and a new thread is started when needed. */
  private lost(reader: Reader, err: Error): void {
    const i = this.readers.indexOf(reader);
    if (i < 0) return;
    this.readers.splice(i, 1);
    const current = reader.current;
    if (current) {
      reader.current = undefined;
      this.queue.done(current.organization);
      current.pending.reject(err);
    }
    this.pump();
  }
}
