/**
 * Two connections write to the database file: the request path's (main thread) and the Context Store writer
 * thread's. SQLite's write lock has no queue — a connection that finds it taken sleeps and polls — so a
 * writer thread starting one transaction right after another (a backfill) can starve the request path's
 * writes until their busy timeout fails them (seen: "database is locked" on claiming a sync mid-backfill).
 *
 * The gate gives the request path priority, through two cells of shared memory: `WANT` counts main-thread
 * writes waiting or running; `BUSY` is 1 while the writer thread is inside a transaction. The writer starts a
 * transaction only while nobody wants to write; a main-thread write announces itself and waits, without
 * blocking the main thread's event loop, until the writer is out (at most one writer transaction: tens of
 * milliseconds). Both sides write their own cell before reading the other's (sequentially consistent atomics),
 * so they never both go ahead.
 */
const WANT = 0;
const BUSY = 1;
/** Waits are re-checked at least this often (ms), so a missed wake-up only delays. */
const RECHECK_MS = 50;

export class WriteGate {
  private constructor(readonly cells: Int32Array) {}

  static create(): WriteGate {
    return new WriteGate(new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT)));
  }

  /** The same gate in another thread (its cells came through workerData). */
  static from(cells: Int32Array): WriteGate {
    return new WriteGate(cells);
  }

  /**
   * Main thread, before a write: resolves once the writer thread is out of its transaction. The wait is
   * asynchronous: a synchronous one stopped the event loop for the writer's whole transaction (seen: 18–38 ms
   * stalls of every request, /healthz too, each time the sync recorded its progress during a backfill). From
   * the call on, the writer starts no new transaction, so the wait is for at most the one it is in.
   */
  async enter(): Promise<void> {
    Atomics.add(this.cells, WANT, 1);
    while (Atomics.load(this.cells, BUSY) === 1) {
      const wait = Atomics.waitAsync(this.cells, BUSY, 1, RECHECK_MS);
      if (wait.async) await wait.value;
    }
  }

  /** Main thread, after the write (or the transaction) ended. */
  leave(): void {
    if (Atomics.sub(this.cells, WANT, 1) === 1) Atomics.notify(this.cells, WANT);
  }

  /** Writer thread: whether a main-thread write waits (or runs), so a long transaction should end early. */
  wanted(): boolean {
    return Atomics.load(this.cells, WANT) > 0;
  }

  /** Writer thread: runs one transaction once no main-thread write wants the lock. */
  run<T>(transaction: () => T): T {
    for (;;) {
      let want = Atomics.load(this.cells, WANT);
      while (want > 0) {
        Atomics.wait(this.cells, WANT, want, RECHECK_MS);
        want = Atomics.load(this.cells, WANT);
      }
      Atomics.store(this.cells, BUSY, 1);
      if (Atomics.load(this.cells, WANT) === 0) break;
      // A main-thread write came in between: let it go first.
      Atomics.store(this.cells, BUSY, 0);
      Atomics.notify(this.cells, BUSY);
    }
    try {
      return transaction();
    } finally {
      Atomics.store(this.cells, BUSY, 0);
      Atomics.notify(this.cells, BUSY);
    }
  }
}
