// The token bucket behind errors.ts `rateLimit`: bursts up to `perSecond` requests, refilled at `perSecond` a
// second; off when `perSecond` is undefined or not positive. Each fake wraps the wait it answers in its
// provider's own 429 (headers and body).
export class TokenBucket {
  private tokens: number;
  private at = Date.now();

  constructor(private readonly perSecond: number | undefined) {
    this.tokens = perSecond ?? 0;
  }

  /** Whole seconds to wait (Retry-After), or undefined when the request may go through. */
  take(now = Date.now()): number | undefined {
    if (this.perSecond === undefined || this.perSecond <= 0) return undefined;
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.perSecond));
  }
}
