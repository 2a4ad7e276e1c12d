// Gong's OAuth token endpoint for apps (https://help.gong.io/docs/create-an-app-for-gong, "Set up OAuth access"),
// refresh grant only. Gong serves it at https://app.gong.io/oauth2/generate-customer-token; the fake serves it on
// the API's origin, which is where an upstream override of `gong` sends the token URL.
//   Request: POST, client authentication by HTTP Basic base64(client_id:client_secret), params
//     grant_type=refresh_token&refresh_token=<token>. Gong's page shows them in the query string; OAuth client
//     libraries send them as an application/x-www-form-urlencoded body, which Gong takes too: the fake accepts
//     both (and refuses a request that mixes them).
//   Success: 200 {access_token, refresh_token, scope, token_type, expires_in, api_base_url_for_customer}.
//   Refresh tokens are single-use: each refresh issues a new one and the presented one stops working.
//   Errors (RFC 6749 section 5.2 shape, as Gong answers them): 400 {error: "invalid_grant", error_description}
//     for an unknown, used or revoked refresh token; 401 invalid_client for missing or wrong client
//     credentials; 400 invalid_request / unsupported_grant_type for a malformed request.
// Access tokens it issues are accepted as `Authorization: Bearer` by the API routes until they expire.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const GONG_TOKEN_PATH = '/oauth2/generate-customer-token';
export const GONG_FAKE_CLIENT_ID = 'ces-gong-fake-app-0001';
export const GONG_FAKE_CLIENT_SECRET = 'gong-fake-client-secret-7Qk2v9Xw';
/** The scopes a token of the fake carries (Gong answers the granted scopes, space-separated). */
export const GONG_FAKE_SCOPE =
  'api:users:read api:calls:read:basic api:calls:read:extensive api:calls:read:transcript api:workspaces:read';

export interface GongGrant {
  access_token: string;
  refresh_token: string;
}

export interface GongOAuthOptions {
  clientId?: string;
  clientSecret?: string;
  /** `expires_in` of issued access tokens, seconds; default 86400 (a day, as Gong's). */
  expiresIn?: number;
}

interface RefreshState {
  used: boolean;
  revoked: boolean;
}

export interface TokenAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export class GongOAuthServer {
  readonly clientId: string;
  readonly clientSecret: string;
  /** `expires_in` of access tokens issued from now on, seconds. */
  expiresIn: number;
  /** Delay (ms) before the token endpoint answers, so concurrent refreshes can overlap. */
  tokenDelayMs = 0;
  /** Every token value ever issued, for leak checks. */
  readonly issued: string[] = [];
  /** The value of `api_base_url_for_customer` (set by the fake to its own origin). */
  apiBaseUrl = 'https://us-55616.api.gong.io';

  private readonly refreshTokens = new Map<string, RefreshState>();
  private readonly accessTokens = new Map<string, number>();
  private counter = 0;

  constructor(opts: GongOAuthOptions = {}) {
    this.clientId = opts.clientId ?? GONG_FAKE_CLIENT_ID;
    this.clientSecret = opts.clientSecret ?? GONG_FAKE_CLIENT_SECRET;
    this.expiresIn = opts.expiresIn ?? 86_400;
  }

  /** A new authorization, as if a Gong admin had just approved the app (authorization-code flow). */
  grant(): GongGrant {
    this.counter++;
    const access = jwtLike('access', this.counter);
    const refresh = jwtLike('refresh', this.counter);
    this.issued.push(access, refresh);
    this.accessTokens.set(access, Date.now() + this.expiresIn * 1000);
    this.refreshTokens.set(refresh, { used: false, revoked: false });
    return { access_token: access, refresh_token: refresh };
  }

  /** True for an access token this server issued that has not expired. */
  acceptsAccessToken(token: string): boolean {
    const expiresAt = this.accessTokens.get(token);
    return expiresAt !== undefined && expiresAt > Date.now();
  }

  /** Every access token issued so far expires now (Gong's side only; a client still thinks them valid). */
  expireAccessTokens(): void {
    this.accessTokens.clear();
  }

  /** Every refresh token issued so far stops working (the admin uninstalled the app). */
  revokeRefreshTokens(): void {
    for (const state of this.refreshTokens.values()) state.revoked = true;
  }

  /** POST /oauth2/generate-customer-token */
  token(req: { path: string; headers: IncomingHttpHeaders; body: string }): TokenAnswer {
    const query = new URL(req.path, 'http://fake.invalid').searchParams;
    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase();
    const inQuery = query.has('grant_type') || query.has('refresh_token');
    if (req.body !== '' && type !== 'application/x-www-form-urlencoded')
      return error(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
    const form = new URLSearchParams(req.body);
    const inBody = form.has('grant_type') || form.has('refresh_token');
    if (inQuery && inBody) return error(400, 'invalid_request', 'Send the parameters in one place.');
    const params = inBody ? form : query;

    if (form.has('client_id') || form.has('client_secret') || query.has('client_secret'))
      return error(400, 'invalid_request', 'Authenticate the client with HTTP Basic only.');
    const client = basic(req.headers.authorization);
    if (client?.id !== this.clientId || client.secret !== this.clientSecret)
      return error(401, 'invalid_client', 'Client authentication failed.');
    if (params.get('grant_type') !== 'refresh_token')
      return error(400, 'unsupported_grant_type', 'Only the refresh_token grant is supported here.');
    const presented = params.get('refresh_token') ?? '';
    const state = this.refreshTokens.get(presented);
    if (state === undefined || state.revoked || state.used)
      return error(400, 'invalid_grant', 'Token has been expired or revoked.');
    state.used = true;
    const grant = this.grant();
    return {
      status: 200,
      headers: { 'cache-control': 'no-store', pragma: 'no-cache' },
      body: {
        ...grant,
        scope: GONG_FAKE_SCOPE,
        token_type: 'bearer',
        expires_in: this.expiresIn,
        api_base_url_for_customer: this.apiBaseUrl,
      },
    };
  }
}

function error(status: number, code: string, description: string): TokenAnswer {
  const headers: Record<string, string> = { 'cache-control': 'no-store', pragma: 'no-cache' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="gong"';
  return { status, headers, body: { error: code, error_description: description } };
}

function basic(authorization: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** Gong's tokens are JWTs; these have the same shape and are unique. */
function jwtLike(kind: 'access' | 'refresh', n: number): string {
  const header = Buffer.from('{"alg":"HS256"}').toString('base64url');
  const payload = Buffer.from(
    JSON.stringify({ typ: kind, n, nonce: randomBytes(6).toString('hex') }),
  ).toString('base64url');
  return `${header}.${payload}.${randomBytes(24).toString('base64url')}`;
}
