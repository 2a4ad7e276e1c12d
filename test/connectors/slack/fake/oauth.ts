// Slack's OAuth token endpoint, oauth.v2.access (slack.json operation oauth_v2_access; token rotation per
// docs.slack.dev/authentication/using-token-rotation), served at its real path /api/oauth.v2.access.
//   Request: GET or POST (form body or query), client credentials as client_id/client_secret parameters or
//     HTTP Basic; grant_type=refresh_token&refresh_token=xoxe-1-... (rotation), or a `code` from `issueCode()`
//     (grant_type authorization_code, or none).
//   Success, HTTP 200: {ok: true, app_id, authed_user: {id}, scope, token_type: "bot", access_token:
//     "xoxe.xoxb-1-...", bot_user_id, refresh_token: "xoxe-1-...", expires_in, team: {id, name}, enterprise: null,
//     is_enterprise_install: false}. Each refresh issues a new refresh token and retires the presented one.
//   Errors, HTTP 200 {ok: false, error}: invalid_client_id, bad_client_secret, invalid_grant_type,
//     invalid_refresh_token (unknown, used or revoked), invalid_code.
// Access tokens it issues act as the app's bot on the API until `expires_in` runs out; after that the API
// answers token_expired.
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { APP_ID, BOT_USER_ID, TEAM } from './dataset.ts';
import { type Answer, fail, ok } from './wire.ts';

export const SLACK_TOKEN_PATH = '/api/oauth.v2.access';
export const SLACK_FAKE_CLIENT_ID = '7000000001.7000000099';
export const SLACK_FAKE_CLIENT_SECRET = 'cesfakeclientsecret0000000000001';

export interface SlackGrant {
  access_token: string;
  refresh_token: string;
}

export interface SlackOAuthOptions {
  clientId?: string;
  clientSecret?: string;
  /** lifetime of issued access tokens, seconds; default 43200 (12 hours, as Slack's) */
  expiresIn?: number;
}

export class SlackOAuthServer {
  readonly clientId: string;
  readonly clientSecret: string;
  expiresIn: number;
  /** every token value issued, in order (access and refresh), for leak checks */
  readonly issued: string[] = [];
  /** the scopes (comma-separated) issued tokens carry; set by the fake to the bot's scopes */
  scope = '';
  private readonly access = new Map<string, number>();
  private readonly refresh = new Map<string, 'live' | 'used' | 'revoked'>();
  private readonly codes = new Set<string>();
  private counter = 0;

  constructor(opts: SlackOAuthOptions = {}) {
    this.clientId = opts.clientId ?? SLACK_FAKE_CLIENT_ID;
    this.clientSecret = opts.clientSecret ?? SLACK_FAKE_CLIENT_SECRET;
    this.expiresIn = opts.expiresIn ?? 43_200;
  }

  /** A new installation, as if a workspace admin had just approved the app. */
  grant(): SlackGrant {
    this.counter++;
    const access = `xoxe.xoxb-1-${token(`${this.counter}`)}`;
    const refresh = `xoxe-1-${token(`${this.counter}`)}`;
    this.issued.push(access, refresh);
    this.access.set(access, Date.now() + this.expiresIn * 1000);
    this.refresh.set(refresh, 'live');
    return { access_token: access, refresh_token: refresh };
  }

  /** A one-time code for the authorization_code exchange. */
  issueCode(): string {
    const code = `7000000001.${token('code')}`;
    this.codes.add(code);
    return code;
  }

  /** 'ok' for a live access token this server issued, 'expired' once its lifetime ran out. */
  accessToken(value: string): 'ok' | 'expired' | undefined {
    const expiresAt = this.access.get(value);
    if (expiresAt === undefined) return undefined;
    return expiresAt > Date.now() ? 'ok' : 'expired';
  }

  /** Every access token issued so far expires now. */
  expireAccessTokens(): void {
    for (const key of this.access.keys()) this.access.set(key, 0);
  }

  /** Every refresh token issued so far stops working (the app was uninstalled). */
  revokeRefreshTokens(): void {
    for (const key of this.refresh.keys()) this.refresh.set(key, 'revoked');
  }

  /** POST|GET /api/oauth.v2.access */
  token(req: { path: string; headers: IncomingHttpHeaders; body: string }): Answer {
    const params = new URLSearchParams(new URL(req.path, 'http://fake.invalid').search);
    const type = String(req.headers['content-type'] ?? '').toLowerCase();
    if (req.body !== '' && type.startsWith('application/x-www-form-urlencoded'))
      for (const [k, v] of new URLSearchParams(req.body)) params.set(k, v);
    if (req.body !== '' && type.startsWith('application/json')) {
      try {
        const json = JSON.parse(req.body) as Record<string, unknown>;
        for (const [k, v] of Object.entries(json)) if (typeof v === 'string') params.set(k, v);
      } catch {
        return fail('invalid_json');
      }
    }
    const basic = basicAuth(req.headers.authorization);
    const clientId = params.get('client_id') ?? basic?.id;
    const clientSecret = params.get('client_secret') ?? basic?.secret;
    if (clientId !== this.clientId) return fail('invalid_client_id');
    if (clientSecret !== this.clientSecret) return fail('bad_client_secret');
    const grantType = params.get('grant_type') ?? (params.has('code') ? 'authorization_code' : '');
    if (grantType === 'refresh_token') {
      const presented = params.get('refresh_token') ?? '';
      if (this.refresh.get(presented) !== 'live') return fail('invalid_refresh_token');
      this.refresh.set(presented, 'used');
    } else if (grantType === 'authorization_code') {
      const code = params.get('code') ?? '';
      if (!this.codes.delete(code)) return fail('invalid_code');
    } else {
      return fail('invalid_grant_type');
    }
    const grant = this.grant();
    return ok({
      app_id: APP_ID,
      authed_user: { id: 'U0700000001' },
      scope: this.scope,
      token_type: 'bot',
      access_token: grant.access_token,
      bot_user_id: BOT_USER_ID,
      refresh_token: grant.refresh_token,
      expires_in: this.expiresIn,
      team: { id: TEAM.id, name: TEAM.name },
      enterprise: null,
      is_enterprise_install: false,
    });
  }
}

function basicAuth(header: string | undefined): { id: string; secret: string } | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** A unique token body in Slack's style (digits, dashes, lowercase hex). */
function token(seed: string): string {
  return `7000000001-${seed}-${randomBytes(16).toString('hex')}`;
}
