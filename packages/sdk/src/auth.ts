// Where a client's bearer token comes from. An application's token is exchanged for its client credentials and
// renewed before it expires; a given token (e.g. a scoped token minted by the backend) is used as it is.
import { errorFromResponse } from './errors.ts';
import type { TokenReply } from './types.ts';

export interface TokenSource {
  /** A token to send now (renewed first when it is about to expire). */
  token(): Promise<string>;
  /**
   * `stale` was refused with a 401: forget it, so the next token() fetches another. Answers whether a retry
   * can use a different token (false for a fixed token).
   */
  refused(stale: string): boolean;
}

/** Renew when less than this share of a token's lifetime is left (at most a minute early). */
const RENEW_AT_SHARE = 0.1;
const RENEW_EARLY_MAX_MS = 60_000;

/** A JWT's `exp` (ms since the epoch), read without verifying it: only to renew before it expires. */
export function tokenExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const claims = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='))) as {
      exp?: unknown;
    };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A token fetched by `fetchToken`, kept until shortly before it expires. Concurrent callers share one fetch
 * (single flight), so a burst of requests after expiry costs one exchange.
 */
export class RenewingToken implements TokenSource {
  private current: { token: string; renewAt: number } | undefined;
  private inflight: Promise<string> | undefined;

  constructor(
    private readonly fetchToken: () => Promise<{ token: string; expiresInMs: number | undefined }>,
    private readonly now: () => number = Date.now,
  ) {}

  token(): Promise<string> {
    if (this.current && this.now() < this.current.renewAt) return Promise.resolve(this.current.token);
    this.inflight ??= this.renew().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  refused(stale: string): boolean {
    if (this.current?.token === stale) this.current = undefined;
    return true;
  }

  private async renew(): Promise<string> {
    const started = this.now();
    const { token, expiresInMs } = await this.fetchToken();
    // Measured from before the request, so time spent waiting for the answer counts against the lifetime.
    const expiry = expiresInMs !== undefined ? started + expiresInMs : tokenExpiry(token);
    // A token without a known lifetime is kept until the server refuses it.
    let renewAt = Number.POSITIVE_INFINITY;
    if (expiry !== undefined) {
      const lifetime = Math.max(0, expiry - started);
      renewAt = expiry - Math.min(lifetime * RENEW_AT_SHARE, RENEW_EARLY_MAX_MS);
    }
    this.current = { token, renewAt };
    return token;
  }
}

export class FixedToken implements TokenSource {
  constructor(private readonly value: string) {}
  token(): Promise<string> {
    return Promise.resolve(this.value);
  }
  refused(): boolean {
    return false;
  }
}

/** `POST /api/v1/account/applications/token`: an application token for client credentials. */
export function clientCredentials(opts: {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  organizationId?: string | undefined;
  fetch: typeof fetch;
}): () => Promise<{ token: string; expiresInMs: number }> {
  return async () => {
    const response = await opts.fetch(`${opts.baseUrl}/api/v1/account/applications/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(opts.organizationId ? { 'x-organization-id': opts.organizationId } : {}),
      },
      body: JSON.stringify({ client_id: opts.clientId, client_secret: opts.clientSecret }),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    if (!response.ok) throw errorFromResponse(response, parsed);
    const reply = parsed as TokenReply;
    return { token: reply.access_token, expiresInMs: reply.expires_in * 1000 };
  };
}
