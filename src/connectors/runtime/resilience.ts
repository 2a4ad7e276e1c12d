/**
 * Wraps `UpstreamHttp.send` with the definition's retry policy, the per-connector concurrency limit and the
 * proactive rate limit, all bounded by one deadline.
 *
 * The deadline of a call is `timeoutMs * retry.max_attempts` from its start. Everything counts against it:
 * waiting for a concurrency slot (itself at most `queueWaitMs`) or a rate-limit token, every attempt, every
 * backoff or `Retry-After` wait.
 * Each attempt gets `min(timeoutMs, time left)`, and no wait is started that would leave less than
 * `min(timeoutMs, 1 s)` for the attempt after it. So an execute never takes much longer than that deadline,
 * whatever the upstream does.
 */
import { performance } from 'node:perf_hooks';
import { DomainError } from '../../errors.ts';
import type { ConnectorDefinition, ErrorKind } from '../schema.ts';
import type { HeldBuffers } from './buffer-budget.ts';
import type { Clock } from './clock.ts';
import {
  type UpstreamHttp,
  type UpstreamRequest,
  type UpstreamResponse,
  UpstreamTransportError,
} from './http.ts';
import {
  type ConcurrencySlots,
  freeShare,
  KeyedSemaphore,
  KeyedTokenBucket,
  type RateBuckets,
  type RateLimit,
  type Reservation,
  SharedConcurrency,
  type SharedSlots,
} from './limiter.ts';
import { failureClass, NO_RUNTIME_OBSERVER, type RuntimeObserver, statusClass } from './observer.ts';
import { type Outcome, retryPolicy, withRetry } from './retry.ts';
import { retryAfterSeconds } from './upstream-errors.ts';

export const DEFAULT_MAX_CONCURRENCY = 8;

export interface CallContext {
  def: ConnectorDefinition;
  /**
   * The connector id: the key of the concurrency and rate limits. Absent for a credential check before the
   * connector exists; such a call is not throttled (sharing one key would let one tenant starve another).
   */
  key?: string | undefined;
  /**
   * Where the accepted response's buffered bytes stay reserved until the caller is done with them. Without
   * it they are released as soon as `interpret` returns, so `interpret` must then do all the parsing.
   */
  held?: HeldBuffers | undefined;
  /** What the request is for, as metrics name it: the entity ('' for none) and the action or operation. */
  entity?: string | undefined;
  action?: string | undefined;
}

export interface ResilienceOptions {
  /** Per attempt; a call's deadline is this times the definition's `retry.max_attempts`. */
  timeoutMs: number;
  /** The longest a request queues for one of its connector's concurrency slots (config CES_UPSTREAM_QUEUE_WAIT_MS). */
  queueWaitMs: number;
  /** Per connector slug, the rate limit held instead of the definition's; null holds none (CES_RATE_LIMIT_OVERRIDES). */
  rateLimitOverrides?: Record<string, { requests: number; per_seconds: number } | null>;
  /** Rate-limit buckets shared with other processes; by default this process keeps its own. */
  rateBuckets?: RateBuckets;
  /** Concurrency slots shared with other processes; by default this process counts its own. */
  sharedSlots?: SharedSlots;
  /** Told of every exchange, retry and rate-limit wait (metrics); by default no one. */
  observer?: RuntimeObserver;
}

export class ResilientUpstream {
  private readonly rateLimits: Record<string, { requests: number; per_seconds: number } | null>;
  private readonly slots: ConcurrencySlots;
  private readonly buckets: RateBuckets;
  private readonly observer: RuntimeObserver;

  private readonly timeoutMs: number;
  private readonly queueWaitMs: number;

  constructor(
    private readonly http: UpstreamHttp,
    opts: ResilienceOptions,
    private readonly clock: Clock,
  ) {
    this.timeoutMs = opts.timeoutMs;
    this.queueWaitMs = opts.queueWaitMs;
    this.rateLimits = opts.rateLimitOverrides ?? {};
    this.buckets = opts.rateBuckets ?? new KeyedTokenBucket(() => clock.now());
    this.slots = opts.sharedSlots ? new SharedConcurrency(opts.sharedSlots, clock) : new KeyedSemaphore();
    this.observer = opts.observer ?? NO_RUNTIME_OBSERVER;
  }

  /**
   * Sends `req` until `interpret` accepts the response, the failure is final, or the policy or deadline says
   * stop; then throws that attempt's error. `interpret` classifies a complete response (see `httpFailure`).
   */
  async call<T>(
    req: UpstreamRequest,
    ctx: CallContext,
    interpret: (res: UpstreamResponse) => Outcome<T>,
  ): Promise<T> {
    const policy = retryPolicy(ctx.def.retry);
    const deadline = this.clock.now() + this.timeoutMs * policy.max_attempts;
    const minAttemptMs = Math.min(this.timeoutMs, 1000);
    const observer = this.observer;
    const type = ctx.def.slug;
    const entity = ctx.entity ?? '';
    const action = ctx.action ?? '';
    return withRetry(
      async (n): Promise<Outcome<T>> => {
        if (n > 1) observer.retry(type, entity, action);
        const release = await this.throttle(ctx, deadline - minAttemptMs);
        try {
          const left = deadline - this.clock.now();
          // Real time, not `clock`: a duration observed, which a test's fake clock must not bend.
          const sent = performance.now();
          let res: UpstreamResponse;
          try {
            res = await this.http.send(req, ctx.def.name, { timeoutMs: Math.min(this.timeoutMs, left) });
          } catch (err) {
            observer.upstreamRequest(
              type,
              entity,
              action,
              failureClass(err),
              (performance.now() - sent) / 1000,
            );
            throw err;
          }
          observer.upstreamRequest(
            type,
            entity,
            action,
            statusClass(res.status),
            (performance.now() - sent) / 1000,
          );
          await this.observeUsage(ctx, res);
          let outcome: Outcome<T> | undefined;
          try {
            outcome = interpret(res);
            return outcome;
          } finally {
            // Only an accepted response's bytes live on; a retried or failed one is dropped here.
            if (outcome?.ok && ctx.held && res.release) ctx.held.keep(res.release);
            else res.release?.();
          }
        } catch (err) {
          if (err instanceof UpstreamTransportError)
            return { ok: false, error: err, retryable: err.retryable };
          throw err;
        } finally {
          release?.();
        }
      },
      { policy, idempotent: req.idempotent, clock: this.clock, deadline, minAttemptMs },
    );
  }

  /** An answer's usage header (the rate limit's `usage_header`) holds the connector's bucket to what it says. */
  private async observeUsage(ctx: CallContext, res: UpstreamResponse): Promise<void> {
    // The header is the provider's, so it is read under an operator's override of the numbers too.
    const usage = ctx.def.rate_limit?.usage_header;
    const rate = this.rateFor(ctx.def);
    if (usage === undefined || !rate || ctx.key === undefined) return;
    const share = freeShare(usage, (name) => res.headers[name]);
    if (share !== undefined) await this.buckets.observe(ctx.key, rate, share);
  }

  private rateFor(def: CallContext['def']): RateLimit | null | undefined {
    return Object.hasOwn(this.rateLimits, def.slug) ? this.rateLimits[def.slug] : def.rate_limit;
  }

  /**
   * Takes a concurrency slot, then a rate-limit token. Slot first: a queued request then holds no token, so
   * tokens are only reserved by requests about to be sent and the wait each one computes is accurate.
   * Both waits end by `latest`. A slot that stays taken past the queue budget means the connector's own
   * requests are still running (a hung upstream, say): UPSTREAM_BUSY, since no rate limit was reached; a
   * token due after `latest` is UPSTREAM_RATE_LIMITED.
   */
  private async throttle(ctx: CallContext, latest: number): Promise<(() => void) | undefined> {
    const { key, def } = ctx;
    if (key === undefined) return undefined;
    const limit = def.max_concurrency ?? DEFAULT_MAX_CONCURRENCY;
    const waitMs = Math.min(this.queueWaitMs, latest - this.clock.now());
    // Held at most until the call's deadline (and a little): past it, a slot of a process that died is free.
    const release = await this.slots.acquire(key, limit, waitMs, latest - this.clock.now() + 30_000);
    if (!release) {
      throw new DomainError(
        'UPSTREAM_BUSY',
        `This connector's ${limit} requests to ${def.name} are still in progress (ces sends at most ${limit} at a ` +
          `time per connector) and none finished within ${Math.max(0, Math.round(waitMs))} ms. Retry shortly.`,
        { retryAfter: 1 },
      );
    }
    const rate = this.rateFor(def);
    if (!rate) return release;
    let token: Reservation;
    try {
      token = await this.buckets.reserve(key, rate, latest - this.clock.now());
    } catch (err) {
      release();
      throw err;
    }
    if (!token.granted) {
      release();
      const seconds = Math.max(1, Math.ceil(token.waitMs / 1000));
      throw new DomainError(
        'UPSTREAM_RATE_LIMITED',
        `ces holds requests to ${def.name} to ${rate.requests} per ${rate.per_seconds} s per connector; this one would have to wait ${seconds} s. Retry after ${seconds} s.`,
        { retryAfter: seconds },
      );
    }
    if (token.waitMs > 0) {
      this.observer.rateLimitWait(def.slug, token.waitMs / 1000);
      try {
        await this.clock.sleep(token.waitMs);
      } catch (err) {
        release();
        throw err;
      }
    }
    return release;
  }
}

/**
 * The outcome of an upstream HTTP error. Rate limits, 502/503/504 and other 5xx may be repeated (a definition
 * rule that maps a 5xx to e.g. `invalid_params` thereby opts out); 501 and 505 say the request itself is wrong.
 * The wait is the provider's: for `rate_limited` the `retry_after` already worked out from `Retry-After`,
 * the declared reset headers or the declared default; for the others a plain `Retry-After` if present.
 */
export function httpFailure(
  kind: ErrorKind,
  res: UpstreamResponse,
  error: DomainError,
  now: () => number,
): Outcome<never> {
  const retryable =
    kind === 'rate_limited' ||
    kind === 'unavailable' ||
    (kind === 'error' && res.status >= 500 && res.status !== 501 && res.status !== 505);
  let seconds: number | undefined;
  if (kind === 'rate_limited') seconds = error.retryAfter;
  else if (retryable && res.headers['retry-after'] !== undefined)
    seconds = retryAfterSeconds(res, undefined, now);
  return { ok: false, error, retryable, retryAfterMs: seconds === undefined ? undefined : seconds * 1000 };
}
