/**
 * OAuth 2.0 access-token refresh (RFC 6749 section 6) for credential options that declare `refresh`.
 *
 * The runtime decides *when* to refresh (the access token is missing or expires within a minute, or the
 * provider answered 401) and performs the token request. Persisting the result is the caller's business,
 * through a `CredentialStore` callback, so the runtime stays free of storage. Refreshes of one connector are
 * single-flight within the process: N concurrent executes that all find the token stale cause ONE token
 * request (refresh tokens may be single-use, so a second request with the same one would be refused).
 *
 * Token values never appear in messages: provider error descriptions are scrubbed of every credential value.
 */
import { DomainError } from '../../errors.ts';
import { EXPIRES_AT, type ResolvedCredentials } from '../credentials.ts';
import type { ConnectorDefinition, CredentialOption, RefreshDefinition } from '../schema.ts';
import { placeholders, render } from '../template.ts';
import type { UpstreamRequest, UpstreamResponse } from './http.ts';
import { NO_RUNTIME_OBSERVER, type RuntimeObserver } from './observer.ts';
import { resolveBaseUrl } from './request.ts';
import { retryAfterSeconds } from './upstream-errors.ts';

/** A token that expires within this margin is refreshed before use, so it can't expire mid-request. */
export const REFRESH_MARGIN_MS = 60_000;

export interface RefreshSettings {
  tokenUrl: string;
  grantType: 'refresh_token' | 'client_credentials';
  scope: string | undefined;
  clientAuth: 'basic' | 'body';
  bodyFormat: 'form' | 'json' | 'query';
  /** Credential field names. */
  fields: { access_token: string; refresh_token: string; client_id: string; client_secret: string };
  /** Token response keys. */
  response: { access_token: string; refresh_token: string; expires_in: string };
  /** Credential field -> token response key, for other values the answer carries (an instance URL). */
  values: Record<string, string>;
  /** The key of a 2xx answer that names an error, if the provider answers failures with a 2xx. */
  errorKey: string | undefined;
  /** Error codes that need new credentials. */
  reauthErrors: Set<string>;
}

export function refreshSettings(refresh: RefreshDefinition): RefreshSettings {
  return {
    tokenUrl: refresh.token_url,
    grantType: refresh.grant_type ?? 'refresh_token',
    scope: refresh.scope,
    clientAuth: refresh.client_auth ?? 'basic',
    bodyFormat: refresh.body_format ?? 'form',
    fields: {
      access_token: refresh.fields?.access_token ?? 'access_token',
      refresh_token: refresh.fields?.refresh_token ?? 'refresh_token',
      client_id: refresh.fields?.client_id ?? 'client_id',
      client_secret: refresh.fields?.client_secret ?? 'client_secret',
    },
    response: {
      access_token: refresh.response?.access_token ?? 'access_token',
      refresh_token: refresh.response?.refresh_token ?? 'refresh_token',
      expires_in: refresh.response?.expires_in ?? 'expires_in',
    },
    values: { ...(refresh.response?.values ?? {}) },
    errorKey: refresh.response?.error,
    reauthErrors: new Set([...REAUTH_ERRORS, ...(refresh.reauth_errors ?? [])]),
  };
}

/** The refresh settings of the option these credentials use, or undefined when it declares none. */
export function settingsFor(
  def: ConnectorDefinition,
  creds: ResolvedCredentials,
): RefreshSettings | undefined {
  const option = def.credential_options.find((o) => o.title === creds.option);
  return option?.refresh ? refreshSettings(option.refresh) : undefined;
}

/** The field a refresh writes the access token to: auth templates may use it even though it is optional. */
export function refreshedAccessField(option: CredentialOption): string | undefined {
  return option.refresh ? refreshSettings(option.refresh).fields.access_token : undefined;
}

/** True when the access token is missing or expires within REFRESH_MARGIN_MS. Unknown expiry = still good. */
export function isStale(settings: RefreshSettings, creds: ResolvedCredentials, nowMs: number): boolean {
  const access = creds.values[settings.fields.access_token];
  if (access === undefined || access === '') return true;
  const expiresAt = creds.values[EXPIRES_AT];
  if (expiresAt === undefined) return false;
  const at = Date.parse(expiresAt);
  return !Number.isFinite(at) || at - nowMs <= REFRESH_MARGIN_MS;
}

/**
 * Persistence of refreshed credentials, supplied by the caller (core). `doRefresh` performs the token
 * request; the store may instead return newer credentials someone else already stored. It throws
 * CONNECTOR_REAUTH_REQUIRED when the connector needs new credentials from its owner.
 */
export interface CredentialStore {
  refresh(
    current: ResolvedCredentials,
    doRefresh: (credentials: ResolvedCredentials) => Promise<ResolvedCredentials>,
  ): Promise<ResolvedCredentials>;
}

/**
 * The token endpoint refused the grant (or there is none to use): only new credentials from the user help.
 * `reason` is safe to store and show: it holds no credential value.
 */
export class RefreshRejectedError extends DomainError {
  constructor(readonly reason: string) {
    super('CONNECTOR_REAUTH_REQUIRED', reason);
    this.name = 'RefreshRejectedError';
  }
}

/** RFC 6749 section 5.2 errors that only new credentials can fix (the others are a definition's mistake). */
const REAUTH_ERRORS = new Set(['invalid_grant', 'invalid_client', 'unauthorized_client']);

export interface TokenTarget {
  url: URL;
  /** False only when the URL came from the operator's upstream overrides. */
  guarded: boolean;
}

/**
 * The token URL. Its `{variables}` are the definition's base URL variables, filled exactly as for the base
 * URL (credential field, replication_config, default; patterns checked), and it must be a plain http(s) URL.
 * An upstream override of the slug replaces the token URL's origin with the override's (path kept), so one
 * fake can stand in for both the API and its token endpoint; such a URL is trusted exactly like the
 * overridden base URL, and any other one goes through the egress policy.
 */
export function tokenTarget(
  def: ConnectorDefinition,
  settings: RefreshSettings,
  config: Record<string, unknown>,
  overrides: Record<string, string>,
  credentials: ResolvedCredentials,
): TokenTarget {
  const override = overrides[def.slug];
  if (override !== undefined) {
    // Host variables don't matter once the origin is the operator's; the path keeps the declared shape.
    const names = Object.fromEntries(placeholders(settings.tokenUrl).map((n) => [n, n]));
    const declared = new URL(render(settings.tokenUrl, names));
    return { url: new URL(declared.pathname + declared.search, new URL(override)), guarded: false };
  }
  const built = resolveBaseUrl({ ...def, base_url: settings.tokenUrl }, config, {}, credentials);
  return { url: new URL(built.href), guarded: true };
}

/**
 * The token request: RFC 6749 section 6 (refresh_token grant) or 4.4 (client_credentials grant). Throws
 * RefreshRejectedError when the credentials can't make one.
 */
export function tokenRequest(
  settings: RefreshSettings,
  creds: ResolvedCredentials,
  target: TokenTarget,
  userAgent: string,
): UpstreamRequest {
  const { fields } = settings;
  const params: Array<[string, string]> = [['grant_type', settings.grantType]];
  if (settings.grantType === 'refresh_token') {
    const refreshToken = creds.values[fields.refresh_token];
    if (!refreshToken) {
      throw new RefreshRejectedError(
        'The credentials hold no refresh token, so the access token cannot be renewed.',
      );
    }
    params.push(['refresh_token', refreshToken]);
  }
  if (settings.scope !== undefined) params.push(['scope', settings.scope]);
  const clientId = creds.values[fields.client_id];
  const clientSecret = creds.values[fields.client_secret];
  if (settings.grantType === 'client_credentials' && (!clientId || !clientSecret)) {
    throw new RefreshRejectedError(
      'The credentials hold no client id and secret to obtain an access token with.',
    );
  }
  if (settings.clientAuth === 'basic' && (!clientId || clientSecret === undefined)) {
    throw new RefreshRejectedError(
      'The credentials hold no client id and secret to renew the access token with.',
    );
  }
  return encodeTokenRequest(settings, params, clientId, clientSecret, target, userAgent);
}

/**
 * A token endpoint request of any grant: the client authenticated as the option declares (HTTP Basic, or both
 * values as params), the params encoded as the option declares (form, JSON, or query).
 */
export function encodeTokenRequest(
  settings: Pick<RefreshSettings, 'clientAuth' | 'bodyFormat'>,
  grantParams: Array<[string, string]>,
  clientId: string | undefined,
  clientSecret: string | undefined,
  target: TokenTarget,
  userAgent: string,
): UpstreamRequest {
  const params = [...grantParams];
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent };
  if (settings.clientAuth === 'basic') {
    // RFC 6749 2.3.1 form-encodes both parts first; providers in practice take them as they are, and the
    // ids and secrets they issue contain no characters where the two differ.
    headers.authorization = `Basic ${Buffer.from(`${clientId ?? ''}:${clientSecret ?? ''}`).toString('base64')}`;
  } else {
    if (clientId) params.push(['client_id', clientId]);
    if (clientSecret) params.push(['client_secret', clientSecret]);
  }
  const url = new URL(target.url);
  let body: string | undefined;
  if (settings.bodyFormat === 'query') {
    for (const [k, v] of params) url.searchParams.append(k, v);
  } else if (settings.bodyFormat === 'json') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(Object.fromEntries(params));
  } else {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(params).toString();
  }
  // Never repeated: a refresh token or code may be single-use, and a lost answer would have consumed it.
  return {
    method: 'POST',
    url,
    headers,
    guarded: target.guarded,
    idempotent: false,
    ...(body ? { body } : {}),
  };
}

/** New credentials from a token response, or the error it means. */
export function tokenResponse(
  def: ConnectorDefinition,
  settings: RefreshSettings,
  creds: ResolvedCredentials,
  res: UpstreamResponse,
  nowMs: number,
  grant: 'refresh' | 'code' = 'refresh',
): ResolvedCredentials {
  const doing = grant === 'refresh' ? 'renew the access token' : 'exchange the authorization code';
  let body: unknown;
  try {
    body = res.body.length === 0 ? undefined : JSON.parse(res.body.toString('utf8'));
  } catch {
    body = undefined;
  }
  const obj =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  const who = `${def.name}'s token endpoint`;
  const errorInSuccess =
    settings.errorKey !== undefined &&
    typeof obj[settings.errorKey] === 'string' &&
    obj[settings.errorKey] !== '';
  if (res.status >= 200 && res.status < 300 && !errorInSuccess) {
    const access = obj[settings.response.access_token];
    if (typeof access !== 'string' || access === '') {
      throw new DomainError(
        'UPSTREAM_BAD_RESPONSE',
        `${who} answered ${grant === 'refresh' ? 'a refresh' : 'a code exchange'} without an access token.`,
      );
    }
    const values = { ...creds.values, [settings.fields.access_token]: access };
    // RFC 6749 section 6: without a new refresh token in the answer, the old one stays valid.
    const rotated = obj[settings.response.refresh_token];
    if (settings.grantType !== 'client_credentials' && typeof rotated === 'string' && rotated !== '')
      values[settings.fields.refresh_token] = rotated;
    // Declared extra values (a per-account API host) follow the answer; a missing one keeps the stored one.
    for (const [field, key] of Object.entries(settings.values)) {
      const value = obj[key];
      if (typeof value === 'string' && value !== '') values[field] = value;
    }
    const expiresIn = Number(obj[settings.response.expires_in]);
    if (obj[settings.response.expires_in] !== undefined && Number.isFinite(expiresIn) && expiresIn >= 0)
      values[EXPIRES_AT] = new Date(nowMs + expiresIn * 1000).toISOString();
    else delete values[EXPIRES_AT];
    return { option: creds.option, values };
  }
  // The provider's own key first; RFC 6749's `error` still counts when that one is absent.
  const named = (settings.errorKey !== undefined ? obj[settings.errorKey] : undefined) ?? obj.error;
  const code =
    typeof named === 'string' && /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/.test(named) ? named : undefined;
  const said = describe(res.status, code, obj.error_description, Object.values(creds.values));
  if ((code !== undefined && settings.reauthErrors.has(code)) || res.status === 401) {
    throw new RefreshRejectedError(`${who} refused to ${doing} (${said}).`);
  }
  if (res.status === 429) {
    const retryAfter = retryAfterSeconds(res, def.errors, () => nowMs);
    throw new DomainError('UPSTREAM_RATE_LIMITED', `${who} rate limit reached while trying to ${doing}.`, {
      ...(retryAfter === undefined ? {} : { retryAfter }),
    });
  }
  if (res.status >= 502 && res.status <= 504) {
    throw new DomainError(
      'UPSTREAM_UNAVAILABLE',
      `${who} is unavailable (HTTP ${res.status}); try again later.`,
    );
  }
  throw new DomainError(
    'UPSTREAM_ERROR',
    `${who} answered ${grant === 'refresh' ? 'a refresh' : 'a code exchange'} with ${said}.`,
  );
}

/** "HTTP 400 invalid_grant: Refresh token reused", with any credential value and control character removed. */
function describe(status: number, code: string | undefined, description: unknown, secrets: string[]): string {
  let text = `HTTP ${status}${code ? ` ${code}` : ''}`;
  if (typeof description === 'string' && description.trim() !== '') {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
    let d = description.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
    for (const secret of secrets) if (secret.length >= 4) d = d.split(secret).join('[redacted]');
    text += `: ${d.length > 200 ? `${d.slice(0, 200)}...` : d}`;
  }
  return text;
}

export interface OAuth2Options {
  /** Sends the token request (through the runtime's transport, so timeouts and egress apply). */
  send: (req: UpstreamRequest, def: ConnectorDefinition) => Promise<UpstreamResponse>;
  overrides: Record<string, string>;
  userAgent: string;
  now: () => number;
  /** Told of every token request and its outcome (metrics). */
  observer?: RuntimeObserver;
}

export interface AuthorisedCall {
  def: ConnectorDefinition;
  config: Record<string, unknown>;
  credentials: ResolvedCredentials;
  /** Refreshes with the same key share one token request; absent for a credential check. */
  flightKey?: string | undefined;
  /** Where refreshed credentials are persisted; absent: they live only for this call. */
  store?: CredentialStore | undefined;
}

export class OAuth2Refresher {
  private readonly flights = new Map<string, Promise<ResolvedCredentials>>();

  constructor(private readonly opts: OAuth2Options) {}

  /**
   * Runs `send` with credentials fresh enough to use: refreshed first when stale, and refreshed once more and
   * retried once when the provider answers 401 (UPSTREAM_AUTH_FAILED) to a token ces had not just renewed.
   * A 401 on a retry is never followed by yet another refresh. Returns the credentials finally used.
   */
  async run<T>(
    call: AuthorisedCall,
    send: (credentials: ResolvedCredentials) => Promise<T>,
  ): Promise<{ value: T; credentials: ResolvedCredentials }> {
    const settings = settingsFor(call.def, call.credentials);
    let credentials = call.credentials;
    if (!settings) return { value: await send(credentials), credentials };
    let refreshed = false;
    if (isStale(settings, credentials, this.opts.now())) {
      credentials = await this.refresh(call, settings, credentials);
      refreshed = true;
    }
    try {
      return { value: await send(credentials), credentials };
    } catch (err) {
      if (refreshed || !(err instanceof DomainError) || err.code !== 'UPSTREAM_AUTH_FAILED') throw err;
    }
    credentials = await this.refresh(call, settings, credentials);
    return { value: await send(credentials), credentials };
  }

  /** The credentials, refreshed first if stale: for streamed calls, which can't be replayed after a 401. */
  async fresh(call: AuthorisedCall): Promise<ResolvedCredentials> {
    const settings = settingsFor(call.def, call.credentials);
    if (!settings || !isStale(settings, call.credentials, this.opts.now())) return call.credentials;
    return this.refresh(call, settings, call.credentials);
  }

  private refresh(
    call: AuthorisedCall,
    settings: RefreshSettings,
    current: ResolvedCredentials,
  ): Promise<ResolvedCredentials> {
    const doRefresh = (credentials: ResolvedCredentials) => this.requestTokens(call, settings, credentials);
    const start = () => (call.store ? call.store.refresh(current, doRefresh) : doRefresh(current));
    const key = call.flightKey;
    if (key === undefined) return start();
    const running = this.flights.get(key);
    if (running) return running;
    const flight = start().finally(() => this.flights.delete(key));
    this.flights.set(key, flight);
    return flight;
  }

  private async requestTokens(
    call: AuthorisedCall,
    settings: RefreshSettings,
    credentials: ResolvedCredentials,
  ): Promise<ResolvedCredentials> {
    const observer = this.opts.observer ?? NO_RUNTIME_OBSERVER;
    try {
      const target = tokenTarget(call.def, settings, call.config, this.opts.overrides, credentials);
      const req = tokenRequest(settings, credentials, target, this.opts.userAgent);
      const res = await this.opts.send(req, call.def);
      const renewed = tokenResponse(call.def, settings, credentials, res, this.opts.now());
      observer.oauthRefresh(call.def.slug, 'success');
      return renewed;
    } catch (err) {
      observer.oauthRefresh(call.def.slug, err instanceof RefreshRejectedError ? 'rejected' : 'error');
      throw err;
    }
  }
}

/** Definition checks for a `refresh` block (called by the loader); messages are `path: problem`. */
export function refreshProblems(def: ConnectorDefinition, option: CredentialOption, at: string): string[] {
  if (!option.refresh) return [];
  const out: string[] = [];
  const settings = refreshSettings(option.refresh);
  const declared = new Set(Object.keys(option.fields));
  if (declared.has(EXPIRES_AT)) out.push(`${at}/fields/${EXPIRES_AT}: reserved for the expiry ces keeps`);
  const explicit = option.refresh.fields ?? {};
  for (const [role, field] of Object.entries(settings.fields)) {
    const clientCredentials = settings.grantType === 'client_credentials';
    const needed =
      role === 'access_token' ||
      (role === 'refresh_token' && !clientCredentials) ||
      ((settings.clientAuth === 'basic' || clientCredentials) &&
        (role === 'client_id' || role === 'client_secret')) ||
      role in explicit;
    if (needed && !declared.has(field))
      out.push(`${at}/refresh/fields/${role}: '${field}' is not a declared field of the option`);
  }
  for (const [field, key] of Object.entries(settings.values)) {
    const where = `${at}/refresh/response/values/${field}`;
    if (!declared.has(field)) out.push(`${where}: '${field}' is not a declared field of the option`);
    // Such a value may become part of a base URL, which is logged and sealed into cursors: never a secret.
    else if (option.fields[field]?.secret === true)
      out.push(`${where}: '${field}' is secret; a token response value may not be`);
    if (Object.values(settings.fields).includes(field) || field === EXPIRES_AT)
      out.push(`${where}: '${field}' already holds a token value`);
    if (Object.values(settings.response).includes(key))
      out.push(`${where}: '${key}' is already read as a token value`);
  }
  const vars = def.base_url_variables ?? {};
  const sample: Record<string, string> = {};
  for (const name of placeholders(settings.tokenUrl)) {
    if (!(name in vars))
      out.push(`${at}/refresh/token_url: placeholder {${name}} is not declared in base_url_variables`);
    sample[name] = vars[name]?.default ?? 'example';
  }
  let url: URL | undefined;
  try {
    url = new URL(render(settings.tokenUrl, sample));
  } catch {
    out.push(`${at}/refresh/token_url: does not form a URL (with variable defaults filled in)`);
  }
  const plain = url && (url.protocol === 'https:' || url.protocol === 'http:');
  if (url && (!plain || url.username || url.password || url.search || url.hash))
    out.push(`${at}/refresh/token_url: must be a plain http(s) URL without credentials, query or fragment`);
  return out;
}
