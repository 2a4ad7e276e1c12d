/**
 * Per-connector throttles: a concurrency limit (semaphore) and a proactive rate limit (token bucket), both keyed
 * by connector id, because a provider's limits belong to the credential and each connector has its own.
 * Maps only hold busy keys, so memory stays bounded by the traffic in flight, not by the number of connectors.
 */

/** Where a connector's concurrency slots are counted (this process: KeyedSemaphore; all processes: SharedConcurrency). */
export interface ConcurrencySlots {
  /**
   * A release function once one of `limit` slots for `key` is free, or null (holding nothing) when none frees up
   * within `maxWaitMs`. `holdMs`: the longest the caller can hold it (a slot of a process that died is free after).
   */
  acquire(key: string, limit: number, maxWaitMs: number, holdMs?: number): Promise<(() => void) | null>;
}

/** Slots every process of a deployment counts together (the store's, on PostgreSQL): one try at a time. */
export interface SharedSlots {
  /** Takes a slot if fewer than `limit` are held: its id, or null. Expires after `holdMs`. */
  tryAcquire(key: string, limit: number, holdMs: number): Promise<string | null>;
  release(id: string): Promise<void>;
}

interface Slots {
  active: number;
  waiters: Array<() => void>;
}

/** FIFO counting semaphore per key. */
export class KeyedSemaphore implements ConcurrencySlots {
  private readonly slots = new Map<string, Slots>();

  /**
   * Resolves with a release function once one of `limit` slots for `key` is free, or with null (holding
   * nothing) when none frees up within `maxWaitMs`.
   */
  async acquire(key: string, limit: number, maxWaitMs: number): Promise<(() => void) | null> {
    let s = this.slots.get(key);
    if (!s) {
      s = { active: 0, waiters: [] };
      this.slots.set(key, s);
    }
    if (s.active < limit) {
      s.active++;
      return this.releaser(key, s);
    }
    if (maxWaitMs <= 0) return null;
    const slots = s;
    const got = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        const i = slots.waiters.indexOf(wake);
        if (i >= 0) slots.waiters.splice(i, 1);
        resolve(false);
      }, maxWaitMs);
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      slots.waiters.push(wake);
    });
    return got ? this.releaser(key, slots) : null;
  }

  /** Slots in use for `key` (for tests and diagnostics). */
  inUse(key: string): number {
    return this.slots.get(key)?.active ?? 0;
  }

  private releaser(key: string, s: Slots): () => void {
    let released = false;
    return () => {
      // Idempotent: a double release would let limit+1 requests through.
      if (released) return;
      released = true;
      const next = s.waiters.shift();
      // The slot passes straight to the next waiter, so a newcomer can't overtake the queue.
      if (next) return next();
      s.active--;
      if (s.active === 0) this.slots.delete(key);
    };
  }
}

export interface RateLimit {
  requests: number;
  per_seconds: number;
}

/**
 * The share of a provider's bucket still free, from the usage header an answer carried (`usage_header` of the
 * rate limit; see UsageHeaderSchema), in [0, 1]; undefined when the answer has none or it does not read.
 */
export function freeShare(
  usage: { name: string; format: 'used_of_size' | 'remaining'; size_header?: string | undefined },
  header: (name: string) => string | undefined,
): number | undefined {
  const value = header(usage.name.toLowerCase())?.trim();
  if (value === undefined) return undefined;
  let used: number;
  let size: number;
  if (usage.format === 'used_of_size') {
    const m = /^(\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)$/.exec(value);
    if (!m) return undefined;
    used = Number(m[1]);
    size = Number(m[2]);
  } else {
    const total = usage.size_header === undefined ? undefined : header(usage.size_header.toLowerCase());
    if (total === undefined || !/^\d+$/.test(value) || !/^\d+$/.test(total.trim())) return undefined;
    size = Number(total);
    used = size - Number(value);
  }
  if (!(size > 0)) return undefined;
  return Math.min(1, Math.max(0, (size - used) / size));
}

export interface Reservation {
  /** True when a token was taken; the caller must then wait `waitMs` before sending. */
  granted: boolean;
  /** How long until the token is (or would be) available. */
  waitMs: number;
}

/**
 * Where the proactive rate limits' buckets are kept: this process's memory (KeyedTokenBucket), or somewhere
 * every process of a deployment shares (the store's, on PostgreSQL), so that a provider's limit holds for all
 * of them together.
 */
export interface RateBuckets {
  reserve(key: string, rate: RateLimit, maxWaitMs: number): Reservation | Promise<Reservation>;
  /**
   * The provider said `share` of its bucket is free: hold no more than that share of `rate.requests` from now
   * (a bucket never grows by it). Tokens reserved ahead stay reserved.
   */
  observe(key: string, rate: RateLimit, share: number): void | Promise<void>;
}

interface Bucket {
  tokens: number;
  at: number;
  /** The bucket's own size and refill rate: connectors of different definitions share the map. */
  size: number;
  perMs: number;
}

const SWEEP_ABOVE = 1000;

/**
 * Token bucket per key, holding up to `requests` tokens and refilling `requests` every `per_seconds`.
 * Tokens are reserved ahead (the level may go negative), which queues callers in arrival order without
 * timers: each caller learns at once how long it must wait and can refuse if that is past its deadline.
 */
export class KeyedTokenBucket implements RateBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number) {}

  reserve(key: string, rate: RateLimit, maxWaitMs: number): Reservation {
    const now = this.now();
    const perMs = rate.requests / (rate.per_seconds * 1000);
    const b = this.buckets.get(key);
    const tokens = b ? Math.min(rate.requests, b.tokens + (now - b.at) * perMs) : rate.requests;
    const waitMs = tokens >= 1 ? 0 : Math.ceil((1 - tokens) / perMs);
    if (waitMs > maxWaitMs) return { granted: false, waitMs };
    this.buckets.set(key, { tokens: tokens - 1, at: now, size: rate.requests, perMs });
    if (this.buckets.size > SWEEP_ABOVE) this.sweep(now);
    return { granted: true, waitMs };
  }

  observe(key: string, rate: RateLimit, share: number): void {
    const now = this.now();
    const perMs = rate.requests / (rate.per_seconds * 1000);
    const b = this.buckets.get(key);
    const tokens = b ? Math.min(rate.requests, b.tokens + (now - b.at) * perMs) : rate.requests;
    // Reserved tokens (a negative level) are callers already told when to send; they keep their turn.
    const outstanding = Math.min(0, tokens);
    const held = Math.min(tokens, rate.requests * share + outstanding);
    this.buckets.set(key, { tokens: held, at: now, size: rate.requests, perMs });
  }

  /** A bucket that has refilled completely is the same as no bucket; dropping it bounds the map. */
  private sweep(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + (now - b.at) * b.perMs >= b.size) this.buckets.delete(key);
    }
  }

  /** Buckets held (for tests: idle connectors must not accumulate). */
  get size(): number {
    return this.buckets.size;
  }
}

/**
 * Concurrency held across processes: a slot of this process's own semaphore first (its callers queue here in
 * order, not in the database), then one of the shared slots, tried again with a growing pause (10–200 ms)
 * until one frees up or the wait is over.
 */
export class SharedConcurrency implements ConcurrencySlots {
  private readonly local = new KeyedSemaphore();

  constructor(
    private readonly shared: SharedSlots,
    private readonly clock: { now(): number; sleep(ms: number): Promise<void> },
  ) {}

  async acquire(key: string, limit: number, maxWaitMs: number, holdMs = 600_000) {
    const until = this.clock.now() + maxWaitMs;
    const releaseLocal = await this.local.acquire(key, limit, maxWaitMs);
    if (!releaseLocal) return null;
    let pause = 10;
    try {
      for (;;) {
        const id = await this.shared.tryAcquire(key, limit, holdMs);
        if (id) {
          return () => {
            releaseLocal();
            // Not awaited by the caller; a release that fails leaves the slot to expire after holdMs.
            this.shared.release(id).catch(() => {});
          };
        }
        const left = until - this.clock.now();
        if (left <= 0) {
          releaseLocal();
          return null;
        }
        await this.clock.sleep(Math.min(pause, left));
        pause = Math.min(pause * 2, 200);
      }
    } catch (err) {
      releaseLocal();
      throw err;
    }
  }
}
