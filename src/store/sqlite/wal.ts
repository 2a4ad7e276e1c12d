/**
 * Keeping SQLite's write-ahead log short. No connection checkpoints by itself (`wal_autocheckpoint = 0`):
 * SQLite's automatic checkpoint ran at the end of a request's commit, on the thread that answers HTTP (a rename
 * took 60–80 ms instead of under 20 during a 1M-record backfill). The Context Store writer thread checkpoints
 * instead (`checkpointWal`), after its own batches of writes and when the request path asks (`WalCheckpoints`).
 *
 * A passive checkpoint alone never shortened the WAL under steady request-path writes. SQLite writes from the
 * start of the WAL again only when a writer begins after a checkpoint that copied every frame, and the writes
 * went on during each checkpoint: 1,500 workspace creates back to back, one every ~2.7 ms, appended 9–33 frames
 * during each passive checkpoint (10–34 ms), so none was complete when the next write began and the WAL grew by
 * ~52 KB a write, to 78 MB (the database: 1.1 MB). And a WAL that SQLite does start over keeps its file's size.
 *
 * Emptying the WAL truncates its file, holding the write lock, and that takes time in proportion to the file
 * (here: 3 ms for 4 MiB, 32–38 ms for 100 MiB). A backfill's WAL grows by ~100 MiB between the writer thread's
 * checkpoints (once a second), which a complete passive checkpoint between its own transactions lets SQLite
 * start over: that WAL is left to the writer's passive checkpoints while batches come, and emptied once they
 * stop. SQLite's own cut-back (`journal_size_limit`) is not used: it truncates inside the next write
 * transaction, the writer thread's (holding request-path writes) or a request's (on the thread that answers HTTP).
 */
import fs from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';

/** Past this size (of its file) the WAL is emptied by the checkpoint the request path asks for. */
export const WAL_RESTART_BYTES = 4 * 1024 * 1024;

/**
 * Past this size a write of the request path waits (without blocking the event loop) for the checkpoint that
 * empties the WAL: otherwise a writer thread short of CPU time, or request writes coming faster than it copies
 * them, would let the WAL grow without bound again.
 */
export const WAL_HOLD_BYTES = 2 * WAL_RESTART_BYTES;

/**
 * How long the checkpoint that empties the WAL waits for readers still using it, inside the write gate (so
 * request-path writes may wait as long). A read of the request path's connection (well under a millisecond)
 * ends within it, SQLite looking again after 1, 2 and 5 ms; a search may not, and then the WAL stays as it is
 * until the next checkpoint rather than holding writes for the search's whole budget.
 */
const READER_WAIT_MS = 10;

interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

function walCheckpoint(db: BetterSqlite3.Database, mode: 'PASSIVE' | 'TRUNCATE'): CheckpointRow | undefined {
  try {
    return (db.pragma(`wal_checkpoint(${mode})`) as CheckpointRow[])[0];
  } catch {
    // Not fatal: the WAL is copied at the next checkpoint instead.
    return undefined;
  }
}

function fileSize(file: string): number {
  return fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
}

/** What a checkpoint did; `blocked`: the WAL was to be emptied and a reader kept it from that. */
export interface WalCheckpointResult {
  blocked: boolean;
}

/**
 * The writer thread's checkpoint. First a passive one, beside the request path's writes: it copies the bulk
 * of the WAL into the database file while they go on. Then, if asked to `empty` a WAL past WAL_RESTART_BYTES,
 * a TRUNCATE checkpoint inside `exclusive` (the write gate: request-path writes wait for it without blocking the
 * event loop, and none starts meanwhile): it has only the frames appended during the first to copy, then
 * empties the WAL, once no reader uses it (waiting READER_WAIT_MS at most).
 */
export function checkpointWal(
  db: BetterSqlite3.Database,
  exclusive: <T>(transaction: () => T) => T,
  empty: boolean,
): WalCheckpointResult {
  const passive = walCheckpoint(db, 'PASSIVE');
  if (!passive || !empty || fileSize(`${db.name}-wal`) <= WAL_RESTART_BYTES) return { blocked: false };
  const truncated = exclusive(() => {
    const busyTimeout = db.pragma('busy_timeout', { simple: true }) as number;
    db.pragma(`busy_timeout = ${READER_WAIT_MS}`);
    try {
      return walCheckpoint(db, 'TRUNCATE');
    } finally {
      db.pragma(`busy_timeout = ${busyTimeout}`);
    }
  });
  return { blocked: truncated?.busy !== 0 };
}

/** Timers that do not keep the process alive (a test's own, to run them when it says). */
export interface Timers {
  /** runs `fn` in `ms`; what it returns is what `cancel` takes */
  after(fn: () => void, ms: number): unknown;
  cancel(timer: unknown): void;
}

const REAL_TIMERS: Timers = {
  after: (fn, ms) => setTimeout(fn, ms).unref(),
  cancel: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout> | undefined),
};

export interface WalCheckpointsOptions {
  /** the database file's `-wal` */
  walFile: string;
  /** asks the writer thread for a checkpoint (checkpointWal) */
  checkpoint: (empty: boolean) => Promise<WalCheckpointResult | undefined>;
  /** whether the writer thread has batches of writes to do (a backfill's), each followed by its own checkpoint */
  writerBusy: () => boolean;
  /** how long after a write a short WAL is checkpointed, and after a batch the writer is taken to be done */
  quietMs: number;
  timers?: Timers;
}

/**
 * When the writer thread checkpoints for the request path (main thread). A WAL past WAL_RESTART_BYTES after a
 * request-path write is checkpointed and emptied at once, a shorter one a quietMs after the write. While the
 * writer thread writes a backfill's batches (or wrote one less than a quietMs ago) the WAL is long because of
 * them and the thread checkpoints after them by itself; a checkpoint asked for from here would wait behind
 * them, so then it is only copied, a quietMs after the write, and emptied a quietMs after the last batch. At most
 * one is asked for at a time. The WAL's size is its file's: a stat after each write (2–15 µs on a loaded 2-core
 * machine, beside the ~10 µs of the `data_version` look each request makes).
 */
export class WalCheckpoints {
  private running: { done: Promise<void>; empty: boolean } | undefined;
  private timer: unknown;
  private wroteSince = false;
  /** The last checkpoint could not empty the WAL (a reader): the next one waits for the quiet timer. */
  private backOff = false;
  /** A batch of the writer thread's ended less than a quietMs ago. */
  private batchTimer: unknown;
  private readonly timers: Timers;

  constructor(private readonly options: WalCheckpointsOptions) {
    this.timers = options.timers ?? REAL_TIMERS;
  }

  /** Before a write of the request path's connection: resolves once there is room in the WAL for it. */
  room(): Promise<void> | undefined {
    const running = this.running;
    if (!running?.empty || fileSize(this.options.walFile) <= WAL_HOLD_BYTES) return undefined;
    return running.done;
  }

  /** After a write of the request path's connection committed. */
  wrote(): void {
    if (this.running) {
      this.wroteSince = true;
      return;
    }
    if (!this.backOff && !this.batching() && fileSize(this.options.walFile) > WAL_RESTART_BYTES) this.start();
    else this.later();
  }

  /** After one of the writer thread's batches of writes ended. */
  batchDone(): void {
    this.timers.cancel(this.batchTimer);
    this.batchTimer = this.timers.after(() => {
      this.batchTimer = undefined;
      if (fileSize(this.options.walFile) > WAL_RESTART_BYTES) this.wrote();
    }, this.options.quietMs);
  }

  private batching(): boolean {
    return this.batchTimer !== undefined || this.options.writerBusy();
  }

  private later(): void {
    if (this.timer === undefined) this.timer = this.timers.after(() => this.start(), this.options.quietMs);
  }

  private start(): void {
    this.timers.cancel(this.timer);
    this.timer = undefined;
    this.backOff = false;
    const empty = !this.batching();
    const done = this.options
      .checkpoint(empty)
      .catch(() => undefined)
      .then((result) => {
        this.running = undefined;
        // Trying again at once would find the reader still there, and only copy the frames since.
        if (result?.blocked) this.backOff = true;
        if (!this.wroteSince) return;
        this.wroteSince = false;
        this.wrote();
      });
    this.running = { done, empty };
  }
}
