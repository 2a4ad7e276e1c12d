// Linear's OAuth token endpoint, POST https://api.linear.app/oauth/token ("OAuth 2.0 authentication",
// linear.app/developers/oauth-2-0-authentication), served on the fake's origin at the same path.
//   Request: application/x-www-form-urlencoded. Client authentication by `client_id` + `client_secret` in the
//   body or by HTTP Basic base64(client_id:client_secret).
//   Grants:
//     refresh_token      — `refresh_token=<token>`: a new access token and a new refresh token; the presented
//                          refresh token stops working (rotation).
//     client_credentials — an app-actor access token (no refresh token); `scope` optional (comma-separated).
//   Success: 200 {access_token, token_type: "Bearer", expires_in, scope, refresh_token?}.
//   Errors (RFC 6749 §5.2): 400 invalid_request (missing parameters, not a form body), 401 invalid_client
//   (unknown client or wrong secret), 400 invalid_grant (unknown, used or revoked refresh token),
//   400 unsupported_grant_type.
// Access tokens it issues are accepted on /graphql as `Authorization: Bearer` until they expire.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { safeEqual } from './wire.ts';

export const LINEAR_TOKEN_PATH = '/oauth/token';
export const LINEAR_FAKE_CLIENT_ID = 'cesfake0client0id0000000000000001';
export const LINEAR_FAKE_CLIENT_SECRET = 'cesfake0client0secret00000000000000000001';
/** What the fake's tokens may do; Linear lists granted scopes as an array. */
export const LINEAR_FAKE_SCOPES = ['read', 'write'];

export interface LinearGrant {
  access_token: string;
  refresh_token: string;
}

export interface LinearOAuthOptions {
  clientId?: string;
  clientSecret?: string;
  /** `expires_in` of issued access tokens, seconds; default 86399 (a day, as Linear's). */
  expiresIn?: number;
}

export interface TokenAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

interface Issued {
  expiresAt: number;
  actor: 'user' | 'app';
}

export class LinearOAuthServer {
  readonly clientId: string;
  readonly clientSecret: string;
  /** `expires_in` of access tokens issued from now on, seconds. */
  expiresIn: number;
  /** Every token value issued, in order (leak checks). */
  readonly issued: string[] = [];
  /** Each token endpoint answer, for assertions: the grant and the tokens handed out. */
  readonly log: Array<{ grant: string; access_token: string; refresh_token?: string; expires_in: number }> =
    [];

  private readonly access = new Map<string, Issued>();
  /** refresh token → still usable */
  private readonly refresh = new Map<string, boolean>();

  constructor(opts: LinearOAuthOptions = {}) {
    this.clientId = opts.clientId ?? LINEAR_FAKE_CLIENT_ID;
    this.clientSecret = opts.clientSecret ?? LINEAR_FAKE_CLIENT_SECRET;
    this.expiresIn = opts.expiresIn ?? 86_399;
  }

  private mint(
    actor: 'user' | 'app',
    withRefresh: boolean,
  ): { access_token: string; refresh_token?: string } {
    const access = `lin_oauth_${randomBytes(32).toString('hex')}`;
    this.access.set(access, { expiresAt: Date.now() + this.expiresIn * 1000, actor });
    this.issued.push(access);
    if (!withRefresh) return { access_token: access };
    const refresh = `lin_refresh_${randomBytes(32).toString('hex')}`;
    this.refresh.set(refresh, true);
    this.issued.push(refresh);
    return { access_token: access, refresh_token: refresh };
  }

  /** A new user authorization, as if the user had just approved the app (authorization-code flow). */
  grant(): LinearGrant {
    return this.mint('user', true) as LinearGrant;
  }

  /** Whom an unexpired access token acts as, or undefined. */
  accepts(token: string): 'user' | 'app' | undefined {
    const t = this.access.get(token);
    return t !== undefined && t.expiresAt > Date.now() ? t.actor : undefined;
  }

  /** Every access token issued so far expires now. */
  expireAccessTokens(): void {
    for (const t of this.access.values()) t.expiresAt = 0;
  }

  /** Every refresh token issued so far stops working (the user revoked the app). */
  revokeRefreshTokens(): void {
    for (const key of this.refresh.keys()) this.refresh.set(key, false);
  }

  /** POST /oauth/token */
  token(req: { headers: IncomingHttpHeaders; body: string }): TokenAnswer {
    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase();
    if (type !== 'application/x-www-form-urlencoded')
      return error(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
    const form = new URLSearchParams(req.body);
    const basic = parseBasic(req.headers.authorization);
    const id = basic?.id ?? form.get('client_id');
    const secret = basic?.secret ?? form.get('client_secret');
    if (id === null || secret === null) return error(400, 'invalid_request', 'Missing client credentials.');
    if (!safeEqual(id, this.clientId) || !safeEqual(secret, this.clientSecret))
      return error(401, 'invalid_client', 'Client authentication failed.');
    const grant = form.get('grant_type');
    if (grant === null) return error(400, 'invalid_request', 'Missing grant_type.');
    if (grant === 'refresh_token') {
      const presented = form.get('refresh_token');
      if (presented === null || presented === '')
        return error(400, 'invalid_request', 'Missing refresh_token.');
      if (this.refresh.get(presented) !== true)
        return error(400, 'invalid_grant', 'The refresh token is invalid, expired or revoked.');
      this.refresh.set(presented, false);
      return this.success(grant, this.mint('user', true), LINEAR_FAKE_SCOPES);
    }
    if (grant === 'client_credentials') {
      const asked = (form.get('scope') ?? 'read').split(/[,\s]+/).filter((s) => s !== '');
      const unknown = asked.find((s) => !['read', 'write', 'issues:create', 'comments:create'].includes(s));
      if (unknown !== undefined) return error(400, 'invalid_scope', `Unknown scope: ${unknown}`);
      return this.success(grant, this.mint('app', false), asked);
    }
    return error(400, 'unsupported_grant_type', `Unsupported grant type: ${grant}`);
  }

  private success(
    grant: string,
    tokens: { access_token: string; refresh_token?: string },
    scope: string[],
  ): TokenAnswer {
    this.log.push({ grant, ...tokens, expires_in: this.expiresIn });
    return {
      status: 200,
      headers: { 'cache-control': 'no-store', pragma: 'no-cache' },
      body: {
        access_token: tokens.access_token,
        token_type: 'Bearer',
        expires_in: this.expiresIn,
        scope,
        ...(tokens.refresh_token === undefined ? {} : { refresh_token: tokens.refresh_token }),
      },
    };
  }
}

function error(status: number, code: string, description: string): TokenAnswer {
  const headers: Record<string, string> = { 'cache-control': 'no-store', pragma: 'no-cache' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="linear"';
  return { status, headers, body: { error: code, error_description: description } };
}

function parseBasic(authorization: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
