/**
 * The OAuth 2.0 authorization code grant (RFC 6749 section 4.1) of a credential option that declares
 * `authorization`: the consent URL the end user's browser is sent to, PKCE (RFC 7636, S256), and the exchange of
 * the returned code at the option's token endpoint. The exchange shares the refresh's client authentication,
 * body format and response keys (`refresh`), so a definition says each of them once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ResolvedCredentials } from '../credentials.ts';
import type { ConnectorDefinition, CredentialOption } from '../schema.ts';
import { placeholders, render } from '../template.ts';
import type { UpstreamRequest } from './http.ts';
import { encodeTokenRequest, type RefreshSettings, refreshSettings, type TokenTarget } from './oauth2.ts';
import { resolveBaseUrl } from './request.ts';

/** Query parameters ces itself sets on the consent URL; a definition's `params` may not name them. */
const RESERVED = new Set([
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'code_challenge',
  'code_challenge_method',
]);

/** The options of a definition an end user can connect through a consent flow. */
export function consentOptions(def: ConnectorDefinition): CredentialOption[] {
  return def.credential_options.filter((o) => o.authorization !== undefined && o.refresh !== undefined);
}

/** A PKCE verifier (43 characters of base64url, 256 bits) and its S256 challenge (RFC 7636 4.1, 4.2). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface ConsentUrlInput {
  config: Record<string, unknown>;
  overrides: Record<string, string>;
  clientId: string;
  redirectUri: string;
  state: string;
  /** Required when the option declares `pkce: true`. */
  codeChallenge?: string | undefined;
}

/**
 * The authorization endpoint with every parameter. Its `{variables}` are filled from the connector's config as
 * a base URL's are (patterns checked); an upstream override of the slug replaces its origin, as it does the
 * token URL's, so one fake can play the provider's consent page too.
 */
export function consentUrl(def: ConnectorDefinition, option: CredentialOption, input: ConsentUrlInput): URL {
  const auth = option.authorization;
  if (!auth) throw new Error(`credential option '${option.title}' of ${def.slug} has no authorization`);
  let url: URL;
  const override = input.overrides[def.slug];
  if (override !== undefined) {
    const names = Object.fromEntries(placeholders(auth.url).map((n) => [n, n]));
    const declared = new URL(render(auth.url, names));
    url = new URL(declared.pathname + declared.search, new URL(override));
  } else {
    url = new URL(resolveBaseUrl({ ...def, base_url: auth.url }, input.config, {}).href);
  }
  for (const [name, value] of Object.entries(auth.params ?? {})) url.searchParams.set(name, value);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', input.clientId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  if (auth.scopes && auth.scopes.length > 0)
    url.searchParams.set(auth.scope_param ?? 'scope', auth.scopes.join(auth.scope_separator ?? ' '));
  url.searchParams.set('state', input.state);
  if (auth.pkce === true) {
    if (!input.codeChallenge) throw new Error('a PKCE option needs a code challenge');
    url.searchParams.set('code_challenge', input.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url;
}

export interface CodeExchange {
  code: string;
  redirectUri: string;
  codeVerifier?: string | undefined;
  clientId: string;
  clientSecret: string;
}

/**
 * The token request of RFC 6749 section 4.1.3 (+ RFC 7636 4.5's `code_verifier`). Never repeated: a code is
 * single-use, and a lost answer would have consumed it.
 */
export function codeExchangeRequest(
  settings: RefreshSettings,
  exchange: CodeExchange,
  target: TokenTarget,
  userAgent: string,
): UpstreamRequest {
  const params: Array<[string, string]> = [
    ['grant_type', 'authorization_code'],
    ['code', exchange.code],
    ['redirect_uri', exchange.redirectUri],
  ];
  if (exchange.codeVerifier !== undefined) params.push(['code_verifier', exchange.codeVerifier]);
  return encodeTokenRequest(settings, params, exchange.clientId, exchange.clientSecret, target, userAgent);
}

/** The credentials the exchange starts from: the app's client id and secret in the option's own fields. */
export function appCredentials(option: CredentialOption, clientId: string, clientSecret: string) {
  const settings = refreshSettings(option.refresh ?? { token_url: 'unused' });
  const creds: ResolvedCredentials = {
    option: option.title,
    values: { [settings.fields.client_id]: clientId, [settings.fields.client_secret]: clientSecret },
  };
  return { settings, creds };
}

/** Definition checks for an `authorization` block (called by the loader); messages are `path: problem`. */
export function authorizationProblems(
  def: ConnectorDefinition,
  option: CredentialOption,
  at: string,
): string[] {
  const auth = option.authorization;
  if (!auth) return [];
  const out: string[] = [];
  const where = `${at}/authorization`;
  if (!option.refresh || (option.refresh.grant_type ?? 'refresh_token') !== 'refresh_token') {
    out.push(`${where}: needs a refresh block with the refresh_token grant (the code is exchanged there)`);
  } else {
    const settings = refreshSettings(option.refresh);
    for (const role of ['client_id', 'client_secret'] as const) {
      if (!(settings.fields[role] in option.fields))
        out.push(`${where}: the option declares no '${settings.fields[role]}' field for the app's ${role}`);
    }
  }
  const vars = def.base_url_variables ?? {};
  const sample: Record<string, string> = {};
  for (const name of placeholders(auth.url)) {
    if (!(name in vars))
      out.push(`${where}/url: placeholder {${name}} is not declared in base_url_variables`);
    sample[name] = vars[name]?.default ?? 'example';
  }
  try {
    const url = new URL(render(auth.url, sample));
    if (url.protocol !== 'https:') out.push(`${where}/url: must be an https URL`);
    if (url.hash !== '') out.push(`${where}/url: must have no fragment`);
    if (url.search !== '') out.push(`${where}/url: must have no query (constant parameters go in params)`);
  } catch {
    out.push(`${where}/url: does not form a URL (with variable defaults filled in)`);
  }
  const scopeParam = auth.scope_param ?? 'scope';
  for (const name of Object.keys(auth.params ?? {})) {
    if (RESERVED.has(name) || name === scopeParam) out.push(`${where}/params/${name}: set by ces itself`);
  }
  if (RESERVED.has(scopeParam)) out.push(`${where}/scope_param: '${scopeParam}' is set by ces itself`);
  return out;
}
