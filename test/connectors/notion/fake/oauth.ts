// Notion's OAuth token endpoint, POST /v1/oauth/token (reference pages "Create a token" and "Refresh a token",
// and the Authorization guide's public-connection flow):
//   Request: HTTP Basic base64(client_id:client_secret); a JSON body `{grant_type: "refresh_token",
//     refresh_token}` (or `{grant_type: "authorization_code", code, redirect_uri?}` for a code from
//     `authorizationCode()`). A form-encoded body with the same members is taken too.
//   Success: 200 `{access_token, token_type: "bearer", refresh_token, bot_id, workspace_name, workspace_icon,
//     workspace_id, owner, duplicated_template_id, request_id}` plus `expires_in` (seconds) when access tokens
//     expire (option `expiresIn`, default 3600; 0 = never, and then the member is left out).
//   Refresh tokens roll: each refresh issues a new one and the presented one stops working.
//   Errors (OAuth shape, as Notion answers its token endpoint): 400 `{error: "invalid_grant", error_description,
//     request_id}` for an unknown, used or revoked refresh token or code; 401 `invalid_client` for missing or
//     wrong client credentials; 400 `invalid_request` / `unsupported_grant_type` for a malformed request.
// Access tokens issued here are accepted as `Authorization: Bearer` by the API until they expire.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dataset } from './dataset.ts';
import { type Answer, requestId, safeEqual } from './wire.ts';

export const NOTION_TOKEN_PATH = '/v1/oauth/token';
/** Notion's OAuth client ids are UUIDs; secrets start with `secret_`. */
export const NOTION_FAKE_CLIENT_ID = '1f8d872b-594c-80a4-b2f4-00370af2b13f';
export const NOTION_FAKE_CLIENT_SECRET = 'secret_cesFakeNotionOAuthClientSecret0001';

export interface NotionGrant {
  access_token: string;
  refresh_token: string;
}

export interface NotionOAuthOptions {
  clientId?: string;
  clientSecret?: string;
  /** lifetime of issued access tokens in seconds; default 3600; 0 = they never expire */
  expiresIn?: number;
}

export class NotionOAuthServer {
  readonly clientId: string;
  readonly clientSecret: string;
  expiresIn: number;
  /** Delay (ms) before the token endpoint answers, so concurrent refreshes can overlap. */
  tokenDelayMs = 0;
  /** Every token value ever issued (access and refresh), for leak checks. */
  readonly issued: string[] = [];

  private readonly refreshTokens = new Map<string, { used: boolean; revoked: boolean }>();
  private readonly codes = new Map<string, boolean>();
  /** access token → expiry (ms), Infinity when it never expires */
  private readonly accessTokens = new Map<string, number>();

  constructor(
    private readonly data: Dataset,
    opts: NotionOAuthOptions = {},
  ) {
    this.clientId = opts.clientId ?? NOTION_FAKE_CLIENT_ID;
    this.clientSecret = opts.clientSecret ?? NOTION_FAKE_CLIENT_SECRET;
    this.expiresIn = opts.expiresIn ?? 3600;
  }

  /** A new authorization, as if a workspace member had just approved the connection. */
  grant(): NotionGrant {
    const access = `ntn_${randomBytes(24).toString('base64url')}`;
    const refresh = `nrt_${randomBytes(24).toString('base64url')}`;
    this.issued.push(access, refresh);
    this.accessTokens.set(
      access,
      this.expiresIn > 0 ? Date.now() + this.expiresIn * 1000 : Number.POSITIVE_INFINITY,
    );
    this.refreshTokens.set(refresh, { used: false, revoked: false });
    return { access_token: access, refresh_token: refresh };
  }

  /** A one-time authorization code, as the redirect after the consent screen carries it. */
  authorizationCode(): string {
    const code = `${randomBytes(16).toString('hex')}`;
    this.codes.set(code, false);
    return code;
  }

  acceptsAccessToken(token: string): boolean {
    const at = this.accessTokens.get(token);
    return at !== undefined && at > Date.now();
  }

  /** Every access token issued so far expires now (Notion's side only). */
  expireAccessTokens(): void {
    this.accessTokens.clear();
  }

  /** Every refresh token issued so far stops working (the user removed the connection). */
  revokeRefreshTokens(): void {
    for (const state of this.refreshTokens.values()) state.revoked = true;
  }

  /** POST /v1/oauth/token — Notion reference operations create-a-token and refresh-a-token. */
  token(req: { headers: IncomingHttpHeaders; body: string }): Answer {
    const client = basic(req.headers.authorization);
    if (
      client === undefined ||
      !safeEqual(client.id, this.clientId) ||
      !safeEqual(client.secret, this.clientSecret)
    )
      return error(401, 'invalid_client', 'Client authentication failed.');
    const params = parseParams(req.headers['content-type'], req.body);
    if (params === undefined) return error(400, 'invalid_request', 'Request body must be a JSON object.');
    const grantType = params.grant_type;
    if (grantType === 'authorization_code') {
      const code = typeof params.code === 'string' ? params.code : '';
      if (this.codes.get(code) !== false)
        return error(400, 'invalid_grant', 'Invalid code: this code has been revoked.');
      this.codes.set(code, true);
      return this.success();
    }
    if (grantType !== 'refresh_token')
      return error(400, 'unsupported_grant_type', `Unsupported grant_type: ${String(grantType)}.`);
    if (typeof params.refresh_token !== 'string' || params.refresh_token === '')
      return error(400, 'invalid_request', 'body.refresh_token should be defined.');
    const state = this.refreshTokens.get(params.refresh_token);
    if (state === undefined || state.used || state.revoked)
      return error(
        400,
        'invalid_grant',
        'Invalid refresh token: it is expired, revoked or was already used.',
      );
    state.used = true;
    return this.success();
  }

  private success(): Answer {
    const grant = this.grant();
    const owner = this.data.person(0);
    return {
      status: 200,
      headers: { 'cache-control': 'no-store' },
      body: {
        access_token: grant.access_token,
        token_type: 'bearer',
        refresh_token: grant.refresh_token,
        bot_id: this.data.bot.id,
        workspace_name: this.data.workspaceName,
        workspace_icon: null,
        workspace_id: this.data.workspaceId,
        owner: {
          type: 'user',
          user: {
            object: 'user',
            id: owner.id,
            name: owner.name,
            avatar_url: owner.avatar_url,
            type: 'person',
            person: { email: owner.email },
          },
        },
        duplicated_template_id: null,
        ...(this.expiresIn > 0 ? { expires_in: this.expiresIn } : {}),
        request_id: requestId(),
      },
    };
  }
}

function error(status: number, code: string, description: string): Answer {
  return {
    status,
    headers: { 'cache-control': 'no-store' },
    body: { error: code, error_description: description, request_id: requestId() },
  };
}

function parseParams(contentType: string | undefined, body: string): Record<string, unknown> | undefined {
  const type = String(contentType ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(body));
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function basic(authorization: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
