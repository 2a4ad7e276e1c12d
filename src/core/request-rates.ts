/**
 * Request rates, as token buckets holding up to two seconds' worth of requests (burst = 2 × rate), refilled
 * continuously. They are this process's own count: several processes would each allow the rates.
 *
 * An organization's own callers (its backend's application and scoped tokens, each MCP tool or resource request
 * and each execute item beyond the first, each follow of a download link) draw on the organization's bucket.
 * End users, holding widget tokens, never do: each of their requests takes one from the widget token's bucket,
 * one from its workspace's, and one from a bucket all of the organization's end users share (at the
 * organization's rate). So an end user cannot slow the backend, nor take their workspace's share, nor one
 * workspace's end users the others'; and minting widget tokens for many workspaces does not multiply the rate.
 */
import { DomainError } from '../errors.ts';

export interface RequestRateLimits {
  /** CES_MAX_REQUESTS_PER_SECOND: per organization, its own callers; its end users together get as much again. */
  organization: number;
  /** CES_MAX_END_USER_REQUESTS_PER_SECOND: per widget token. */
  endUser: number;
  /** CES_MAX_WORKSPACE_END_USER_REQUESTS_PER_SECOND: the widget tokens of one workspace together. */
  workspaceEndUsers: number;
}

/** Who is behind a widget token's request, as the buckets count it. */
export interface EndUser {
  organizationId: string;
  workspaceId: string;
  /** The widget token's own id (its `jti`). */
  tokenId: string;
}

const BURST_SECONDS = 2;

/** Buckets by key at one rate (> 0). */
class Buckets {
  private readonly map = new Map<string, { tokens: number; at: number }>();
  private readonly capacity: number;
  private readonly sweepEveryMs: number;
  private lastSweep = 0;

  constructor(
    readonly rate: number,
    /** Names the limit in a refusal, `{rate}` filled in. */
    private readonly what: string,
  ) {
    this.capacity = BURST_SECONDS * rate;
    this.sweepEveryMs = Math.max(BURST_SECONDS * 1000, 10_000);
  }

  /** The tokens in `key`'s bucket at `now` (ms). */
  level(key: string, now: number): number {
    const b = this.map.get(key);
    if (!b) return this.capacity;
    return Math.min(this.capacity, b.tokens + (Math.max(0, now - b.at) / 1000) * this.rate);
  }

  /** Takes one token from `key`'s bucket: undefined when taken, else the level it is at (< 1). One lookup. */
  take(key: string, now: number): number | undefined {
    this.sweep(now);
    const b = this.map.get(key);
    if (!b) {
      this.map.set(key, { tokens: this.capacity - 1, at: now });
      return undefined;
    }
    const level = Math.min(this.capacity, b.tokens + (Math.max(0, now - b.at) / 1000) * this.rate);
    if (level < 1) return level;
    b.tokens = level - 1;
    b.at = now;
    return undefined;
  }

  /** Takes one token from a bucket whose level at `now` is `level` (≥ 1). */
  spend(key: string, level: number, now: number): void {
    this.sweep(now);
    const b = this.map.get(key);
    if (b) {
      b.tokens = level - 1;
      b.at = now;
    } else this.map.set(key, { tokens: level - 1, at: now });
  }

  refusal(level: number): DomainError {
    const wait = Math.max(1, Math.ceil((1 - level) / this.rate));
    return new DomainError(
      'RATE_LIMITED',
      `${this.what.replace('{rate}', String(this.rate))}; retry in ${wait} s.`,
      {
        retryAfter: wait,
      },
    );
  }

  /**
   * A bucket untouched long enough to be full again is the same as none: dropped, so memory follows the keys
   * active in the last few seconds. One pass per sweep interval: O(1) per request amortised.
   */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = now;
    const fullAfterMs = BURST_SECONDS * 1000;
    for (const [key, b] of this.map) if (now - b.at >= fullAfterMs) this.map.delete(key);
  }

  /** Keys held (tests: memory stays bounded). */
  get size(): number {
    return this.map.size;
  }
}

const bucketsOf = (rate: number, what: string) => (rate > 0 ? new Buckets(rate, what) : undefined);

export class RequestRates {
  private readonly organizations: Buckets | undefined;
  private readonly endUsers: Buckets | undefined;
  private readonly workspaces: Buckets | undefined;
  private readonly organizationsEndUsers: Buckets | undefined;

  /** A rate of 0 turns that limit off; `now` is in milliseconds. */
  constructor(
    limits: RequestRateLimits,
    private readonly now: () => number,
  ) {
    this.organizations = bucketsOf(
      limits.organization,
      'This organization sent more than {rate} requests per second (CES_MAX_REQUESTS_PER_SECOND)',
    );
    this.organizationsEndUsers = bucketsOf(
      limits.organization,
      'The end users of this organization sent more than {rate} requests per second (CES_MAX_REQUESTS_PER_SECOND, a share of their own)',
    );
    this.endUsers = bucketsOf(
      limits.endUser,
      'This connect page sent more than {rate} requests per second (CES_MAX_END_USER_REQUESTS_PER_SECOND)',
    );
    this.workspaces = bucketsOf(
      limits.workspaceEndUsers,
      'The end users of this workspace sent more than {rate} requests per second (CES_MAX_WORKSPACE_END_USER_REQUESTS_PER_SECOND)',
    );
  }

  /** One request of the organization's own callers: undefined when it may go ahead, else RATE_LIMITED. */
  organization(organizationId: string): DomainError | undefined {
    if (!this.organizations) return undefined;
    const refused = this.organizations.take(organizationId, this.now());
    return refused === undefined ? undefined : this.organizations.refusal(refused);
  }

  /**
   * One request of an end user. All three buckets or none: a refused request spends nothing, so the token
   * that was refused does not also use up its workspace's or organization's share.
   */
  endUser(who: EndUser): DomainError | undefined {
    const now = this.now();
    const token = this.endUsers?.level(who.tokenId, now) ?? Number.POSITIVE_INFINITY;
    if (token < 1) return this.endUsers?.refusal(token);
    const workspace = this.workspaces?.level(who.workspaceId, now) ?? Number.POSITIVE_INFINITY;
    if (workspace < 1) return this.workspaces?.refusal(workspace);
    const shared = this.organizationsEndUsers?.level(who.organizationId, now) ?? Number.POSITIVE_INFINITY;
    if (shared < 1) return this.organizationsEndUsers?.refusal(shared);
    this.endUsers?.spend(who.tokenId, token, now);
    this.workspaces?.spend(who.workspaceId, workspace, now);
    this.organizationsEndUsers?.spend(who.organizationId, shared, now);
    return undefined;
  }

  /** Buckets held, all kinds together (tests: idle ones are dropped). */
  get size(): number {
    return (
      (this.organizations?.size ?? 0) +
      (this.endUsers?.size ?? 0) +
      (this.workspaces?.size ?? 0) +
      (this.organizationsEndUsers?.size ?? 0)
    );
  }
}
