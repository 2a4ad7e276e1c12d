/**
 * What a failed sync pass does next, by what the failure says about a retry:
 *
 *   rate limited  the provider asked us to wait (429, GitHub's 403 with its rate-limit headers or message): the
 *                 sync waits that long and is never failed for it
 *   refused       the same request will be refused again until something changes (401, 403 without a
 *                 rate-limit sign, 404, 410, 400/422, credentials needing re-authorisation): the entity is Failed
 *                 at once with the reason, and tried again at the next interval, or at once when the connector's
 *                 credentials or replication_config change (which makes every sync due)
 *   transient     5xx, timeouts, network errors, anything unknown: retried with backoff, Failed after a few
 *
 * Retrying a refusal with backoff kept the entity in its first pass for the whole backoff (75 s), and with it
 * every caller waiting on it.
 */
import { isDomainError } from '../../errors.ts';

export type FailureKind = 'rate_limited' | 'refused' | 'transient';

/** Codes that mean the provider (or ces, for bad params) will answer the same request the same way. */
const REFUSALS = new Set([
  'UPSTREAM_AUTH_FAILED',
  'UPSTREAM_FORBIDDEN',
  'UPSTREAM_NOT_FOUND',
  'CONNECTOR_REAUTH_REQUIRED',
  'INVALID_CREDENTIALS',
  'INVALID_PARAMS',
]);

/**
 * Upstream 4xx answers without a kind of their own (405, 406, 451, ...) refuse the request as sent; these
 * four say nothing about the request: a timeout, a conflict of the moment, "too early" and a rate limit
 * without the definition's signs.
 */
const TRANSIENT_4XX = new Set([408, 409, 425, 429]);

/** Failures after which a transient failure marks the entity Failed (it is still retried at the next interval). */
export const MAX_ATTEMPTS = 5;
/** A wait the provider asked for without saying how long. */
const DEFAULT_RATE_LIMIT_WAIT_S = 60;
const MAX_BACKOFF_MS = 300_000;

export function failureKind(err: unknown): FailureKind {
  if (!isDomainError(err)) return 'transient';
  if (err.code === 'UPSTREAM_RATE_LIMITED') return 'rate_limited';
  if (REFUSALS.has(err.code)) return 'refused';
  const status = upstreamStatus(err.extra);
  if (err.code === 'UPSTREAM_ERROR' && status !== undefined && status >= 400 && status < 500) {
    return TRANSIENT_4XX.has(status) ? 'transient' : 'refused';
  }
  return 'transient';
}

export interface RetryPlan {
  outcome: 'rate_limited' | 'failed' | 'retry';
  /** From now until the sync is due again. */
  delayMs: number;
  /** The sync's failure count after this one (a rate limit does not count, a Failed entity starts again). */
  attempts: number;
}

/** `attempts`: the failures of this sync before this one; `intervalMs`: the time between refreshes. */
export function retryPlan(err: unknown, attempts: number, intervalMs: number): RetryPlan {
  const kind = failureKind(err);
  if (kind === 'rate_limited') {
    const waitS =
      isDomainError(err) && err.retryAfter !== undefined ? err.retryAfter : DEFAULT_RATE_LIMIT_WAIT_S;
    return { outcome: 'rate_limited', delayMs: Math.max(1, waitS) * 1000, attempts };
  }
  const next = attempts + 1;
  if (kind === 'refused' || next >= MAX_ATTEMPTS)
    return { outcome: 'failed', delayMs: intervalMs, attempts: 0 };
  return { outcome: 'retry', delayMs: Math.min(MAX_BACKOFF_MS, 2 ** next * 2500), attempts: next };
}

function upstreamStatus(extra: Record<string, unknown> | undefined): number | undefined {
  const upstream = extra?.upstream;
  if (typeof upstream !== 'object' || upstream === null) return undefined;
  const status = (upstream as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}
