// HubSpot's OAuth token endpoint, POST /oauth/v1/token on api.hubapi.com (reference: "OAuth" guide and the
// legacy OAuth tokens API, operation "Refresh OAuth token" / createToken). An upstream override keeps the path
// and swaps the origin, so the fake serves it on its own origin.
//   Request: application/x-www-form-urlencoded body (parameters in the body only; a JSON body is not read, so
//     it fails as a missing grant type) with grant_type=refresh_token (client_id, client_secret, refresh_token)
//     or grant_type=authorization_code (client_id, client_secret, redirect_uri, code).
//   Success: 200 {token_type: "bearer", refresh_token, access_token, expires_in}; access tokens live 1800 s by
//     default. HubSpot refresh tokens do not rotate: a refresh answers the same refresh token again.
//   Errors: 400 `{status: <CODE>, message, correlationId}` with HubSpot's codes BAD_GRANT_TYPE, BAD_CLIENT_ID,
//     BAD_CLIENT_SECRET, BAD_REFRESH_TOKEN ("missing or unknown refresh token"), BAD_AUTH_CODE,
//     BAD_REDIRECT_URI.
// Issued access tokens are accepted by the API until they expire; after that the API answers 401
// EXPIRED_AUTHENTICATION ("The OAuth token used to make this call expired N minute(s) ago.").
import { randomBytes } from 'node:crypto';
import { type Answer, correlationId } from './wire.ts';

export const HUBSPOT_TOKEN_PATH = '/oauth/v1/token';
export const HUBSPOT_FAKE_CLIENT_ID = '5f3c2a9e-7b14-4d6e-9a08-c1e2b3d4f5a6';
export const HUBSPOT_FAKE_CLIENT_SECRET = 'b7e4d1c8-2a5f-4e93-8c6b-0d9f1e2a3b4c';
/** A refresh token the fake knows from the start, as if the app had been installed already. */
export const HUBSPOT_FAKE_REFRESH_TOKEN = 'na1-7c2e-41d5-9b8a-3f6e0d1c2b4a';
export const HUBSPOT_FAKE_REDIRECT_URI = 'https://ces.example.com/oauth/hubspot/callback';

export interface HubSpotOAuthOptions {
  clientId?: string;
  clientSecret?: string;
  /** `expires_in` of issued access tokens, seconds; default 1800 as HubSpot */
  expiresIn?: number;
}

export interface IssuedToken {
  grantType: 'authorization_code' | 'refresh_token' | 'seed';
  accessToken: string;
  refreshToken: string;
  issuedAt: number;
  expiresAt: number;
}

export class HubSpotOAuthServer {
  readonly clientId: string;
  readonly clientSecret: string;
  /** `expires_in` of access tokens issued from now on, seconds */
  expiresIn: number;
  /** delay (ms) before the token endpoint answers, so concurrent refreshes can overlap */
  tokenDelayMs = 0;
  /** every token value ever issued, for leak checks */
  readonly issued: string[] = [];
  /** every issuance, in order */
  readonly log: IssuedToken[] = [];

  private readonly refreshTokens = new Map<string, { revoked: boolean }>();
  private readonly accessTokens = new Map<string, number>();
  private readonly codes = new Map<string, { redirectUri: string; used: boolean }>();

  constructor(opts: HubSpotOAuthOptions = {}) {
    this.clientId = opts.clientId ?? HUBSPOT_FAKE_CLIENT_ID;
    this.clientSecret = opts.clientSecret ?? HUBSPOT_FAKE_CLIENT_SECRET;
    this.expiresIn = opts.expiresIn ?? 1800;
    this.refreshTokens.set(HUBSPOT_FAKE_REFRESH_TOKEN, { revoked: false });
    this.issued.push(HUBSPOT_FAKE_REFRESH_TOKEN);
  }

  /** An authorization code, as HubSpot redirects to the app after the user consents. */
  authorize(redirectUri = HUBSPOT_FAKE_REDIRECT_URI): string {
    const code = `na1-${randomBytes(16).toString('hex')}`;
    this.codes.set(code, { redirectUri, used: false });
    return code;
  }

  /** A fresh access + refresh token pair without going through the endpoint. */
  grant(): { access_token: string; refresh_token: string } {
    const refresh = this.newRefreshToken();
    return { access_token: this.issue('seed', refresh), refresh_token: refresh };
  }

  /** `valid`, `expired` (with how long ago, ms), or undefined for a token never issued. */
  check(
    token: string,
    now = Date.now(),
  ): { state: 'valid' } | { state: 'expired'; agoMs: number } | undefined {
    const expiresAt = this.accessTokens.get(token);
    if (expiresAt === undefined) return undefined;
    return expiresAt > now ? { state: 'valid' } : { state: 'expired', agoMs: now - expiresAt };
  }

  /** Every access token issued so far expires now. */
  expireAccessTokens(now = Date.now()): void {
    for (const token of this.accessTokens.keys()) this.accessTokens.set(token, now - 1);
  }

  /** Every refresh token stops working (the app was uninstalled from the portal). */
  revokeRefreshTokens(): void {
    for (const state of this.refreshTokens.values()) state.revoked = true;
  }

  /** POST /oauth/v1/token */
  token(req: { headers: Record<string, string | string[] | undefined>; body: string }): Answer {
    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase();
    const form =
      type === 'application/x-www-form-urlencoded' ? new URLSearchParams(req.body) : new URLSearchParams();
    const grantType = form.get('grant_type');
    if (grantType !== 'refresh_token' && grantType !== 'authorization_code')
      return error('BAD_GRANT_TYPE', 'missing or unknown grant type');
    if (form.get('client_id') !== this.clientId)
      return error('BAD_CLIENT_ID', 'missing or unknown client id');
    if (form.get('client_secret') !== this.clientSecret)
      return error('BAD_CLIENT_SECRET', 'missing or invalid client secret');
    let refresh: string;
    if (grantType === 'refresh_token') {
      refresh = form.get('refresh_token') ?? '';
      const state = this.refreshTokens.get(refresh);
      if (state === undefined || state.revoked)
        return error('BAD_REFRESH_TOKEN', 'missing or unknown refresh token');
    } else {
      const code = this.codes.get(form.get('code') ?? '');
      if (code === undefined || code.used) return error('BAD_AUTH_CODE', 'missing or unknown auth code');
      if (form.get('redirect_uri') !== code.redirectUri)
        return error('BAD_REDIRECT_URI', 'redirect_uri does not match initial auth request');
      code.used = true;
      refresh = this.newRefreshToken();
    }
    const access = this.issue(grantType, refresh);
    return {
      status: 200,
      headers: { 'cache-control': 'no-store' },
      body: {
        token_type: 'bearer',
        refresh_token: refresh,
        access_token: access,
        expires_in: this.expiresIn,
      },
    };
  }

  private newRefreshToken(): string {
    const hex = randomBytes(14).toString('hex');
    const token = `na1-${hex.slice(0, 4)}-${hex.slice(4, 8)}-${hex.slice(8, 12)}-${hex.slice(12)}`;
    this.refreshTokens.set(token, { revoked: false });
    this.issued.push(token);
    return token;
  }

  private issue(grantType: IssuedToken['grantType'], refreshToken: string): string {
    // HubSpot access tokens are opaque base64url strings of a few hundred characters starting with "C".
    const access = `C${randomBytes(96).toString('base64url')}`;
    const issuedAt = Date.now();
    const expiresAt = issuedAt + this.expiresIn * 1000;
    this.accessTokens.set(access, expiresAt);
    this.issued.push(access);
    this.log.push({ grantType, accessToken: access, refreshToken, issuedAt, expiresAt });
    return access;
  }
}

function error(status: string, message: string): Answer {
  return { status: 400, body: { status, message, correlationId: correlationId() } };
}
