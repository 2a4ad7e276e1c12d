/**
 * The process-wide bound on upstream answer bytes held in memory. Every JSON answer is read whole before it is
 * parsed, so without a bound a burst of large answers (or one tenant pointing `api_url` at a host that sends
 * them) grows the process until the kernel kills it. A call reserves bytes here before reading them and gives
 * them back when it no longer uses them.
 *
 * Deadlock freedom: only a call that holds nothing may wait (`reserve`). A call that already holds part of
 * what it needs may only `grow` without waiting; otherwise two half-read answers could each wait for the
 * other's bytes forever.
 */

interface Waiter {
  bytes: number;
  grant: (reservation: Reservation | null) => void;
}

/**
 * Answers up to this share of the budget go ahead of waiting ones when they fit: one tenant's queue of huge
 * answers must not hold up everyone's ordinary pages. A large answer they pass still waits no longer than its
 * own bound.
 */
const SMALL_SHARE = 1 / 32;

export class BufferBudget {
  private held = 0;
  /** In arrival order: a large answer is served before later large ones (small ones may pass, see SMALL_SHARE). */
  private readonly waiters: Waiter[] = [];

  constructor(readonly limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 1)
      throw new Error('the buffer budget must be a positive integer');
  }

  /** Bytes reserved right now (tests and diagnostics: it returns to 0 when nothing is in flight). */
  get heldBytes(): number {
    return this.held;
  }

  /** Calls waiting for room right now. */
  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Resolves with a reservation of `bytes` once they fit, waiting in arrival order, or with null when they do
   * not fit within `maxWaitMs` or `signal` aborts first. The caller must hold nothing of this budget.
   */
  async reserve(bytes: number, maxWaitMs: number, signal?: AbortSignal): Promise<Reservation | null> {
    if (bytes > this.limit) return null;
    const now = this.reserveNow(bytes);
    if (now) return now;
    if (maxWaitMs <= 0 || signal?.aborted) return null;
    return new Promise<Reservation | null>((resolve) => {
      const done = (reservation: Reservation | null) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', giveUp);
        resolve(reservation);
      };
      const waiter: Waiter = { bytes, grant: done };
      const giveUp = () => {
        const i = this.waiters.indexOf(waiter);
        if (i < 0) return;
        this.waiters.splice(i, 1);
        done(null);
        // The head may have been what kept smaller requests behind it waiting.
        this.drain();
      };
      const timer = setTimeout(giveUp, maxWaitMs);
      signal?.addEventListener('abort', giveUp, { once: true });
      this.waiters.push(waiter);
    });
  }

  /**
   * A reservation of `bytes` if they fit now without passing anyone waiting (as `reserve` would grant them at
   * once); undefined otherwise. The caller must hold nothing of this budget.
   */
  reserveNow(bytes: number): Reservation | undefined {
    if (bytes === 0) return this.take(0);
    if (this.held + bytes <= this.limit && (this.waiters.length === 0 || this.small(bytes)))
      return this.take(bytes);
    return undefined;
  }

  private small(bytes: number): boolean {
    return bytes <= this.limit * SMALL_SHARE;
  }

  private take(bytes: number): Reservation {
    this.held += bytes;
    return new Reservation(this, bytes);
  }

  /** @internal by Reservation: never waits, and does not queue behind waiters (the caller already holds bytes). */
  tryAdd(bytes: number): boolean {
    if (this.held + bytes > this.limit) return false;
    this.held += bytes;
    return true;
  }

  /** @internal by Reservation. */
  give(bytes: number): void {
    this.held -= bytes;
    this.drain();
  }

  private drain(): void {
    for (let i = 0; i < this.waiters.length; ) {
      const waiter = this.waiters[i]!;
      if (this.held + waiter.bytes <= this.limit && (i === 0 || this.small(waiter.bytes))) {
        // The next waiter moves up to index i (and becomes the head if i was 0).
        this.waiters.splice(i, 1);
        waiter.grant(this.take(waiter.bytes));
      } else i++;
    }
  }
}

/** Bytes held in a budget until `release()` (idempotent: a double release would free someone else's bytes). */
export class Reservation {
  private released = false;

  constructor(
    private readonly budget: BufferBudget,
    private size: number,
  ) {}

  get bytes(): number {
    return this.size;
  }

  /** Adds `bytes` if they fit now; never waits. */
  grow(bytes: number): boolean {
    if (this.released || !this.budget.tryAdd(bytes)) return false;
    this.size += bytes;
    return true;
  }

  /** Gives back what was reserved beyond `bytes` (a body that ended inside its last step). */
  shrinkTo(bytes: number): void {
    if (this.released || bytes >= this.size) return;
    this.budget.give(this.size - bytes);
    this.size = bytes;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.budget.give(this.size);
  }
}

/**
 * The reservations one operation keeps while it still uses the bytes they cover (the parsed answer, the raw
 * bytes written into the reply), released together when it is done. After `release()` anything kept is
 * released at once, so a late arrival cannot leak.
 */
export class HeldBuffers {
  private readonly kept: Array<() => void> = [];
  private done = false;

  keep(release: () => void): void {
    if (this.done) release();
    else this.kept.push(release);
  }

  release(): void {
    this.done = true;
    for (const release of this.kept.splice(0)) release();
  }
}
