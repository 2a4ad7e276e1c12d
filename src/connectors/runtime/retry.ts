/**
 * Retry loop for upstream calls: exponential backoff with full jitter, `Retry-After` honoured up to a cap,
 * and a deadline that bounds the whole call. Only the caller knows whether a failure may be repeated; this
 * module decides whether and when.
 */
import type { DomainError } from '../../errors.ts';
import type { Clock } from './clock.ts';

export interface RetryPolicy {
  /** Attempts in total, the first included; 1 disables retries. */
  max_attempts: number;
  /** Ceiling of the first backoff wait; doubles per retry. */
  initial_delay_ms: number;
  max_delay_ms: number;
  /**
   * The longest upstream `Retry-After` ces waits for itself. A longer one fails at once with
   * `UPSTREAM_RATE_LIMITED` + `retry_after`, so the client decides rather than holding a request open.
   */
  max_retry_after_ms: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  max_attempts: 3,
  initial_delay_ms: 250,
  max_delay_ms: 10_000,
  max_retry_after_ms: 30_000,
};

export function retryPolicy(declared: Partial<RetryPolicy> | undefined): RetryPolicy {
  return { ...DEFAULT_RETRY, ...declared };
}

/**
 * "Full jitter" (uniform in [0, min(max, initial * 2^(retry-1))))): spreads the retries of many clients hit
 * by the same outage, which fixed or equal-jitter backoff would keep in lock step. `retry` counts from 1.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.max_delay_ms, policy.initial_delay_ms * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/** The result of one attempt. A failure says whether repeating the same request could succeed. */
export type Outcome<T> =
  | { ok: true; value: T }
  | { ok: false; error: DomainError; retryable: boolean; retryAfterMs?: number | undefined };

export interface RetryOptions {
  policy: RetryPolicy;
  /** Whether the request may be sent twice; if not, nothing is retried. */
  idempotent: boolean;
  clock: Clock;
  /** Epoch ms after which no new attempt starts. */
  deadline: number;
  /** A retry is pointless unless at least this much time is left for it after the wait. */
  minAttemptMs: number;
}

export async function withRetry<T>(
  attempt: (n: number) => Promise<Outcome<T>>,
  opts: RetryOptions,
): Promise<T> {
  for (let n = 1; ; n++) {
    const outcome = await attempt(n);
    if (outcome.ok) return outcome.value;
    const wait = retryWait(outcome, n, opts);
    if (wait === null) throw outcome.error;
    await opts.clock.sleep(wait);
  }
}

/** Milliseconds to wait before attempt n+1, or null to give up with this failure. */
export function retryWait(
  failure: { retryable: boolean; retryAfterMs?: number | undefined },
  n: number,
  opts: RetryOptions,
): number | null {
  const { policy } = opts;
  if (!failure.retryable || !opts.idempotent || n >= policy.max_attempts) return null;
  let wait: number;
  if (failure.retryAfterMs !== undefined) {
    if (failure.retryAfterMs > policy.max_retry_after_ms) return null;
    wait = failure.retryAfterMs;
  } else {
    wait = backoffDelay(n, policy, () => opts.clock.random());
  }
  if (opts.clock.now() + wait + opts.minAttemptMs > opts.deadline) return null;
  return wait;
}
