// An OAuth 2.0 token endpoint (RFC 6749 sections 4.1.3, 4.4, 6) driven by the connector definition's own
// `refresh` and `authorization` blocks: the grants it takes, how the client authenticates (HTTP Basic or
// client_id/client_secret params) and how the params travel (form, JSON, query) come from the definition, so a
// fake cannot accept what the connector never sends. What is the provider's own is declared by the fake: its
// token shapes, the members of its success answer, its error body for each refusal, whether refresh tokens
// rotate, and what it tolerates beyond the definition (`accept`).
// Refusals are checked in one order: body format, client authentication, grant type, then the grant itself.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { ConnectorDefinition } from '../../../src/connectors/schema.ts';
import { type BodyFormat, type ClientAuth, type Grant, type TokenFacts, tokenFacts } from './definition.ts';
import type { Answer } from './errors.ts';
import { parseJsonObject } from './router.ts';

export type { BodyFormat, ClientAuth, Grant } from './definition.ts';

/** Why the endpoint refuses a request; the fake turns each into its provider's answer. */
export type Refusal =
  /** `body_format`: a content type the endpoint does not read; `body_syntax`: a body that does not parse;
   * `mixed`: params both in the query and the body; `client_method`: client credentials sent in a way the
   * endpoint does not take; `grant_type`, `refresh_token`: that param is missing. */
  | {
      error: 'invalid_request';
      reason: 'body_format' | 'body_syntax' | 'mixed' | 'client_method' | 'grant_type' | 'refresh_token';
    }
  | { error: 'invalid_client'; reason: 'missing' | 'id' | 'secret' }
  | { error: 'unsupported_grant_type'; grant: string }
  | { error: 'invalid_grant'; reason: 'refresh_token' | 'code' | 'redirect_uri' }
  | { error: 'invalid_scope'; scope: string };

/** One issuance of the endpoint (or of `grant()`, as `authorization_code`). */
export interface Issued {
  grant: Grant;
  access_token: string;
  refresh_token?: string;
  /** seconds; 0 when the token never expires */
  expires_in: number;
  issuedAt: number;
  expiresAt: number;
  /** the scopes asked for with client_credentials */
  scopes?: string[];
}

export type TokenCheck =
  | { state: 'valid'; issued: Issued }
  | { state: 'expired'; issued: Issued; agoMs: number }
  | undefined;

export interface TokenRequest {
  method: string;
  /** path and query, as received */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface TokenEndpointOptions {
  definition: ConnectorDefinition;
  clientId: string;
  clientSecret: string;
  /** `expires_in` of issued access tokens, seconds; 0 = they never expire */
  expiresIn: number;
  /** the provider's token values: each call answers a new, unique one */
  mint: { access(): string; refresh(): string; code?(): string };
  /** the success body, from the issuance and the request's params */
  answer(issued: Issued, params: URLSearchParams): Record<string, unknown>;
  /** the provider's answer to a refusal */
  refuse(refusal: Refusal): Answer;
  /** what the provider takes beyond the definition (say which page shows it) */
  accept?: {
    clientAuth?: ClientAuth[];
    bodyFormats?: BodyFormat[];
    /** default POST */
    methods?: string[];
    /** query and body params merged (Slack) instead of refused as `mixed` */
    mixedParams?: boolean;
    /** a `code` without grant_type is the authorization_code grant (Slack's oauth.v2.access) */
    implicitCodeGrant?: boolean;
  };
  /** the grants, narrower than the definition's (a fake that does not implement the code exchange) */
  grants?: Grant[];
  /** refresh tokens are single-use, each refresh answers a new one; default true (HubSpot's do not) */
  rotate?: boolean;
  /** client_credentials: the scopes the provider knows (others are `invalid_scope`) and the default */
  scopes?: { known: readonly string[]; default: readonly string[] };
  /** the redirect URI `authorize()` binds codes to by default (the code exchange must repeat it) */
  redirectUri?: string;
  /** headers of a success; default RFC 6749 5.1's no-store */
  headers?: Record<string, string>;
}

export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

export class TokenEndpoint {
  readonly clientId: string;
  readonly clientSecret: string;
  /** `expires_in` of access tokens issued from now on, seconds. */
  expiresIn: number;
  /** Delay (ms) before the endpoint answers, so concurrent refreshes can overlap. */
  tokenDelayMs = 0;
  /** Every token value ever issued (access and refresh), for leak checks. */
  readonly issued: string[] = [];
  /** Each answer of the endpoint that issued tokens, in order. */
  readonly log: Issued[] = [];
  /** The path it serves, from the definition's token URL. */
  readonly path: string;
  readonly facts: TokenFacts;

  private readonly access = new Map<string, Issued>();
  private readonly refresh = new Map<string, 'live' | 'used' | 'revoked'>();
  private readonly codes = new Map<string, { redirectUri: string | undefined; used: boolean }>();
  private readonly grants: Set<Grant>;
  private readonly clientAuth: Set<ClientAuth>;
  private readonly formats: Set<BodyFormat>;
  private readonly methods: Set<string>;

  constructor(private readonly opts: TokenEndpointOptions) {
    const facts = tokenFacts(opts.definition);
    if (facts === undefined)
      throw new Error(`${opts.definition.slug}: no credential option has a refresh block`);
    this.facts = facts;
    this.path = facts.path;
    this.clientId = opts.clientId;
    this.clientSecret = opts.clientSecret;
    this.expiresIn = opts.expiresIn;
    this.grants = new Set(opts.grants?.filter((g) => facts.grants.has(g)) ?? facts.grants);
    this.clientAuth = new Set([...facts.clientAuth, ...(opts.accept?.clientAuth ?? [])]);
    this.formats = new Set([...facts.bodyFormats, ...(opts.accept?.bodyFormats ?? [])]);
    this.methods = new Set(opts.accept?.methods ?? ['POST']);
  }

  /** True for a request the endpoint answers (its path, one of its methods). */
  serves(req: { method: string; path: string }): boolean {
    return this.methods.has(req.method) && new URL(req.path, 'http://fake.invalid').pathname === this.path;
  }

  /** A new authorization, as if the user had just consented (the authorization code flow, done). */
  grant(): { access_token: string; refresh_token: string } {
    const issued = this.issue('authorization_code', 'new');
    return { access_token: issued.access_token, refresh_token: issued.refresh_token as string };
  }

  /** A refresh token the provider knows from the start, as if the app had been installed already. */
  seedRefreshToken(token: string): void {
    this.refresh.set(token, 'live');
    this.issued.push(token);
  }

  /** A one-time authorization code, as the provider's redirect after consent carries it. */
  authorize(redirectUri = this.opts.redirectUri): string {
    const code = this.opts.mint.code?.() ?? randomBytes(16).toString('hex');
    this.codes.set(code, { redirectUri, used: false });
    return code;
  }

  /** An access token's state: issued and valid, issued and expired (how long ago), or never issued. */
  check(token: string, now = Date.now()): TokenCheck {
    const issued = this.access.get(token);
    if (issued === undefined) return undefined;
    return issued.expiresAt > now
      ? { state: 'valid', issued }
      : { state: 'expired', issued, agoMs: now - issued.expiresAt };
  }

  /** True for an access token this endpoint issued that has not expired. */
  accepts(token: string): boolean {
    return this.check(token)?.state === 'valid';
  }

  /** Every access token issued so far expires now (the provider's side only; a client still thinks them valid). */
  expireAccessTokens(now = Date.now()): void {
    for (const issued of this.access.values()) issued.expiresAt = Math.min(issued.expiresAt, now - 1);
  }

  /** Every refresh token issued so far stops working (the app was uninstalled or the user revoked it). */
  revokeRefreshTokens(): void {
    for (const key of this.refresh.keys()) this.refresh.set(key, 'revoked');
  }

  /** The endpoint itself. */
  token(req: TokenRequest): Answer {
    const parsed = this.params(req);
    if ('error' in parsed) return this.opts.refuse(parsed);
    const { params, bodyClient } = parsed;
    const client = this.client(req.headers.authorization, params, bodyClient);
    if (client !== undefined) return this.opts.refuse(client);

    let grant = params.get('grant_type');
    if (grant === null && this.opts.accept?.implicitCodeGrant === true && params.has('code'))
      grant = 'authorization_code';
    if (grant === null) return this.opts.refuse({ error: 'invalid_request', reason: 'grant_type' });
    if (!this.grants.has(grant as Grant)) return this.opts.refuse({ error: 'unsupported_grant_type', grant });

    if (grant === 'refresh_token') {
      const presented = params.get('refresh_token') ?? '';
      if (presented === '') return this.opts.refuse({ error: 'invalid_request', reason: 'refresh_token' });
      if (this.refresh.get(presented) !== 'live')
        return this.opts.refuse({ error: 'invalid_grant', reason: 'refresh_token' });
      const rotate = this.opts.rotate ?? true;
      if (rotate) this.refresh.set(presented, 'used');
      return this.success(this.issue('refresh_token', rotate ? 'new' : presented), params);
    }
    if (grant === 'authorization_code') {
      const code = this.codes.get(params.get('code') ?? '');
      if (code === undefined || code.used)
        return this.opts.refuse({ error: 'invalid_grant', reason: 'code' });
      if (code.redirectUri !== undefined && params.get('redirect_uri') !== code.redirectUri)
        return this.opts.refuse({ error: 'invalid_grant', reason: 'redirect_uri' });
      code.used = true;
      return this.success(this.issue('authorization_code', 'new'), params);
    }
    const scopes = this.opts.scopes;
    const asked = params.has('scope')
      ? (params.get('scope') ?? '').split(/[,\s]+/).filter((s) => s !== '')
      : [...(scopes?.default ?? [])];
    const unknown = asked.find((s) => scopes !== undefined && !scopes.known.includes(s));
    if (unknown !== undefined) return this.opts.refuse({ error: 'invalid_scope', scope: unknown });
    return this.success(this.issue('client_credentials', undefined, asked), params);
  }

  private success(issued: Issued, params: URLSearchParams): Answer {
    this.log.push(issued);
    return {
      status: 200,
      headers: { ...(this.opts.headers ?? NO_STORE) },
      body: this.opts.answer(issued, params),
    };
  }

  /** The request's params from where the endpoint reads them, and whether client credentials are among them. */
  private params(req: TokenRequest): { params: URLSearchParams; bodyClient: boolean } | Refusal {
    const query = new URL(req.path, 'http://fake.invalid').searchParams;
    const inQuery = this.formats.has('query') && [...query.keys()].length > 0;
    let body: URLSearchParams | undefined;
    if (req.body !== '') {
      const type = String(req.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim()
        .toLowerCase();
      if (type === 'application/x-www-form-urlencoded' && this.formats.has('form'))
        body = new URLSearchParams(req.body);
      else if (type === 'application/json' && this.formats.has('json')) {
        const json = parseJsonObject(req.body);
        if (typeof json !== 'object') return { error: 'invalid_request', reason: 'body_syntax' };
        body = new URLSearchParams();
        for (const [k, v] of Object.entries(json)) if (typeof v === 'string') body.set(k, v);
      } else return { error: 'invalid_request', reason: 'body_format' };
    }
    if (inQuery && body !== undefined && this.opts.accept?.mixedParams !== true)
      return { error: 'invalid_request', reason: 'mixed' };
    const params = new URLSearchParams(inQuery ? query : undefined);
    for (const [k, v] of body ?? []) params.set(k, v);
    return { params, bodyClient: params.has('client_id') || params.has('client_secret') };
  }

  private client(
    authorization: string | undefined,
    params: URLSearchParams,
    bodyClient: boolean,
  ): Refusal | undefined {
    if (bodyClient && !this.clientAuth.has('body'))
      return { error: 'invalid_request', reason: 'client_method' };
    const basic = this.clientAuth.has('basic') ? parseBasic(authorization) : undefined;
    const id = params.get('client_id') ?? basic?.id;
    const secret = params.get('client_secret') ?? basic?.secret;
    if (id === undefined) return { error: 'invalid_client', reason: 'missing' };
    if (!safeEqual(id, this.clientId)) return { error: 'invalid_client', reason: 'id' };
    if (secret === undefined || !safeEqual(secret, this.clientSecret))
      return { error: 'invalid_client', reason: 'secret' };
    return undefined;
  }

  private newRefreshToken(): string {
    const token = this.opts.mint.refresh();
    this.refresh.set(token, 'live');
    this.issued.push(token);
    return token;
  }

  /** An access token, then (`new`) a new refresh token or the given one; `issued` keeps that order. */
  private issue(grant: Grant, refreshToken: 'new' | string | undefined, scopes?: string[]): Issued {
    const access = this.opts.mint.access();
    this.issued.push(access);
    const refresh = refreshToken === 'new' ? this.newRefreshToken() : refreshToken;
    const issuedAt = Date.now();
    const issued: Issued = {
      grant,
      access_token: access,
      ...(refresh === undefined ? {} : { refresh_token: refresh }),
      expires_in: this.expiresIn,
      issuedAt,
      expiresAt: this.expiresIn > 0 ? issuedAt + this.expiresIn * 1000 : Number.POSITIVE_INFINITY,
      ...(scopes === undefined ? {} : { scopes }),
    };
    this.access.set(access, issued);
    return issued;
  }
}

/**
 * RFC 6749 5.2's answer to a refusal, `{error, error_description}` (plus the provider's `extra` members), 401
 * with a Basic challenge for client authentication, else 400: what most providers answer.
 */
export function oauthError(
  refusal: Refusal,
  opts: { realm?: string; extra?: () => Record<string, unknown>; headers?: Record<string, string> } = {},
): Answer {
  const status = refusal.error === 'invalid_client' ? 401 : 400;
  const headers: Record<string, string> = { ...(opts.headers ?? NO_STORE) };
  if (status === 401 && opts.realm !== undefined) headers['www-authenticate'] = `Basic realm="${opts.realm}"`;
  return {
    status,
    headers,
    body: { error: refusal.error, error_description: describe(refusal), ...(opts.extra?.() ?? {}) },
  };
}

export function describe(refusal: Refusal): string {
  switch (refusal.error) {
    case 'invalid_client':
      return 'Client authentication failed.';
    case 'unsupported_grant_type':
      return `Unsupported grant type: ${refusal.grant}.`;
    case 'invalid_scope':
      return `Unknown scope: ${refusal.scope}.`;
    case 'invalid_grant':
      return refusal.reason === 'refresh_token'
        ? 'The refresh token is invalid, expired, revoked or was already used.'
        : refusal.reason === 'code'
          ? 'The authorization code is invalid or was already used.'
          : 'redirect_uri does not match the authorization request.';
    case 'invalid_request':
      return {
        body_format: 'The request body is not in a format this endpoint reads.',
        body_syntax: 'The request body does not parse.',
        mixed: 'Send the parameters in one place.',
        client_method: 'The client authenticated in a way this endpoint does not take.',
        grant_type: 'Missing grant_type.',
        refresh_token: 'Missing refresh_token.',
      }[refusal.reason];
  }
}

export function parseBasic(authorization: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
