/**
 * Keeping SQLite's write-ahead log short. No connection checkpoints by itself (`wal_autocheckpoint = 0`):
 * SQLite's automatic checkpoint ran at the end of a request's commit, on the thread that answers HTTP (a rename
 * took 60–80 ms instead of under 20 during a 1M-record backfill). The Context Store writer thread checkpoints
 * instead (`checkpointWal`), after its own writes and when the request path's connection asks (`WalCheckpoints`).
 *
 * A passive checkpoint alone never shortened the WAL under steady writes. SQLite writes from the start of the
 * WAL again only when a writer begins after a checkpoint that copied every frame, and the request path's writes
 * went on during each checkpoint: 1,500 workspace creates back to back, one every ~2.7 ms, appended 9–33 frames
 * during each passive checkpoint (10–34 ms), so none was complete when the next write began and the WAL grew by
 * ~52 KB a write, to 78 MB (the database: 1.1 MB). And a WAL once started over kept its largest size on disk.
 */
import fs from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * Past this size the WAL is started over (emptied) at the next checkpoint. It is also every connection's
 * `journal_size_limit`, so a WAL that SQLite starts over by itself (after a complete passive checkpoint) is cut
 * back to it: past it, the file's size is the WAL's length, which is what the request path looks at.
 */
export const WAL_RESTART_BYTES = 4 * 1024 * 1024;

/**
 * Past this size a write of the request path waits (without blocking the event loop) for the checkpoint it
 * asked for, when that checkpoint was the writer thread's only work: otherwise a writer thread short of CPU
 * time, or request writes coming faster than it copies them, would let the WAL grow without bound again.
 */
export const WAL_HOLD_BYTES = 2 * WAL_RESTART_BYTES;

/**
 * How long the checkpoint that empties the WAL waits for readers still using it, inside the write gate (so
 * request-path writes may wait as long). A read of the request path's connection (well under a millisecond)
 * ends within it, SQLite looking again after 1, 2 and 5 ms; a search may not, and then the WAL stays as it is
 * until the next checkpoint rather than holding writes for the search's whole budget.
 */
const READER_WAIT_MS = 10;

/** SQLite's WAL file: a 32-byte header, then each frame's 24-byte header and page. */
function walBytes(frames: number, pageSize: number): number {
  return 32 + frames * (24 + pageSize);
}

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

/** What a checkpoint did; `blocked`: the WAL is past WAL_RESTART_BYTES and could not be started over. */
export interface WalCheckpointResult {
  blocked: boolean;
}

/**
 * The writer thread's checkpoint. First a passive one, beside the request path's writes: it copies the bulk
 * of the WAL into the database file while they go on. When the WAL is past WAL_RESTART_BYTES, a TRUNCATE
 * checkpoint follows inside `exclusive` (the write gate: request-path writes wait for it without blocking the
 * event loop, and none starts meanwhile): it has only the frames appended during the first to copy, then empties
 * the WAL, once no reader uses it (waiting READER_WAIT_MS at most).
 */
export function checkpointWal(
  db: BetterSqlite3.Database,
  exclusive: <T>(transaction: () => T) => T,
): WalCheckpointResult {
  const passive = walCheckpoint(db, 'PASSIVE');
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  if (!passive || walBytes(passive.log, pageSize) <= WAL_RESTART_BYTES) return { blocked: false };
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

export interface WalCheckpointsOptions {
  /** the database file's `-wal` */
  walFile: string;
  /** asks the writer thread for a checkpoint (checkpointWal) */
  checkpoint: () => Promise<WalCheckpointResult | undefined>;
  /** whether the writer thread has batches of writes to do first, each followed by a checkpoint of its own */
  writerBusy: () => boolean;
  /** how long after a write a WAL shorter than WAL_RESTART_BYTES is checkpointed */
  quietMs: number;
}

/**
 * When the request path's writes are checkpointed (main thread). A WAL past WAL_RESTART_BYTES after a write is
 * checkpointed at once, unless the writer thread has batches of writes to do first (a backfill's pages): those
 * make the WAL long, the thread checkpoints after them by itself, and a checkpoint asked for from here would
 * only wait behind them; then, as for a short WAL, a quietMs after the write. At most one is asked for at a time.
 * The WAL's size is its file's: a stat after each write (2–15 µs on a loaded 2-core machine, beside the
 * ~10 µs of the `data_version` look each request makes).
 */
export class WalCheckpoints {
  private running: { done: Promise<void>; hold: boolean } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private wroteSince = false;

  /** The last checkpoint could not start the WAL over (a reader): the next one waits for the quiet timer. */
  private backOff = false;

  constructor(private readonly options: WalCheckpointsOptions) {}

  /** Before a write of the request path's connection: resolves once there is room in the WAL for it. */
  room(): Promise<void> | undefined {
    const running = this.running;
    if (!running?.hold || this.walSize() <= WAL_HOLD_BYTES) return undefined;
    return running.done;
  }

  /** After a write of the request path's connection committed. */
  wrote(): void {
    if (this.running) {
      this.wroteSince = true;
      return;
    }
    if (!this.backOff && this.walSize() > WAL_RESTART_BYTES && !this.options.writerBusy()) this.start();
    else this.later();
  }

  private later(): void {
    this.timer ??= setTimeout(() => this.start(), this.options.quietMs).unref();
  }

  private start(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.backOff = false;
    const hold = !this.options.writerBusy();
    const done = this.options
      .checkpoint()
      .catch(() => undefined)
      .then((result) => {
        this.running = undefined;
        // Trying again at once would find the reader still there, and only copy the frames since.
        if (result?.blocked) this.backOff = true;
        if (!this.wroteSince) return;
        this.wroteSince = false;
        this.wrote();
      });
    this.running = { done, hold };
  }

  private walSize(): number {
    return fs.statSync(this.options.walFile, { throwIfNoEntry: false })?.size ?? 0;
  }
}
