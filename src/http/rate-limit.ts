/**
 * Requests per second per organization: a token bucket per organization holding up to two seconds' worth of
 * requests (burst = 2 × rate), refilled continuously. It is this process's own count: one process serves the
 * API today; several would each allow the rate.
 */
export class OrganizationRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly capacity: number;
  private lastSweep = 0;

  /** `ratePerSecond` 0 turns the limit off; `now` is in milliseconds. */
  constructor(
    private readonly ratePerSecond: number,
    private readonly now: () => number,
  ) {
    this.capacity = 2 * ratePerSecond;
  }

  /** Takes one request from the organization's bucket: 0 when it may go ahead, else the seconds to wait. */
  take(organizationId: string): number {
    if (this.ratePerSecond <= 0) return 0;
    const now = this.now();
    this.sweep(now);
    const bucket = this.buckets.get(organizationId);
    const tokens = bucket
      ? Math.min(this.capacity, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * this.ratePerSecond)
      : this.capacity;
    if (tokens >= 1) {
      this.buckets.set(organizationId, { tokens: tokens - 1, at: now });
      return 0;
    }
    this.buckets.set(organizationId, { tokens, at: now });
    return Math.max(1, Math.ceil((1 - tokens) / this.ratePerSecond));
  }

  /** A bucket untouched long enough to be full again is the same as none: drop it (bounded memory). */
  private sweep(now: number): void {
    const fullAfterMs = (this.capacity / this.ratePerSecond) * 1000;
    if (now - this.lastSweep < Math.max(fullAfterMs, 10_000)) return;
    this.lastSweep = now;
    for (const [key, b] of this.buckets) if (now - b.at >= fullAfterMs) this.buckets.delete(key);
  }
}
