// A generic OAuth 2.0 authorization server (authorization endpoint with a consent page, token endpoint) plus a
// tiny protected resource server, on one real node:http server, for testing credential refresh and the
// authorization-code flow in a real browser. Routes and the references they follow:
//
//   GET  /oauth/authorize  RFC 6749 section 4.1.1 authorization request, with PKCE (RFC 7636 section 4.3).
//                          An unknown client_id or a redirect_uri that is not one of `redirectUris` (exact string
//                          comparison, section 3.1.2.3) gets a 400 HTML page and is never redirected to (section
//                          4.1.2.1, section 10.15 open redirectors). Every other error is a 302 to the redirect
//                          URI with `error` (+ `state`), section 4.1.2.1; a bad PKCE challenge or method is
//                          `invalid_request` (RFC 7636 section 4.4.1). Success: a 200 HTML consent page whose
//                          form posts the request back. Repeated parameters are refused (section 3.1); empty
//                          ones count as absent (same section).
//   POST /oauth/authorize  The consent form (application/x-www-form-urlencoded), validated exactly like the GET.
//                          `decision=approve`: 302 with `code` and `state` (section 4.1.2); `deny`: 302 with
//                          `error=access_denied` (section 4.1.2.1). Codes are single-use and live `codeTtlMs`.
//                          The consent page is served with frame-ancestors 'none' against clickjacking (section
//                          10.13).
//   POST /oauth/token      Client authentication: HTTP Basic (section 2.3.1, form-urlencoded id and secret) or
//                          client_id/client_secret in the body. Body: application/x-www-form-urlencoded
//                          (section 4.1.3 / appendix B). Success: section 5.1 (`access_token`, `token_type`,
//                          `expires_in`, `refresh_token`, `scope`, Cache-Control: no-store). Errors: section 5.2
//                          (`{"error","error_description"}`, 400; 401 + WWW-Authenticate for a failed client
//                          authentication). Two grants:
//                          - authorization_code, section 4.1.3: the code must be unexpired, issued to this
//                            client, and presented with the identical redirect_uri; with PKCE the verifier must
//                            match the challenge (RFC 7636 section 4.6), and a verifier for a code issued without
//                            a challenge is refused (RFC 9700 section 2.1.1, PKCE downgrade). Any failure is
//                            `invalid_grant`. A code is consumed by its first exchange attempt; a second use
//                            also revokes every token issued from it, refreshed ones included (section 4.1.2).
//                          - refresh_token, section 6. Refresh tokens are single-use (rotated on every
//                            refresh, as OAuth 2.1 section 4.3.1 and RFC 9700 section 4.14.2 recommend for
//                            public clients and Gong does): reuse is `invalid_grant`. A refresh revokes the
//                            access token issued with the old refresh token and keeps the original scope.
//   GET  /api/me           RFC 6750 section 2.1 bearer token; an unknown, revoked or expired token gets 401 with
//   GET  /api/items          `WWW-Authenticate: Bearer error="invalid_token"` (section 3.1).
//   anything else          404, recorded in `unhandled` so tests can fail on it.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** path + query as received */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface OAuthFault {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface OAuthFakeOptions {
  clientId?: string;
  clientSecret?: string;
  /** `expires_in` of issued access tokens, seconds (default 3600); may be changed later on the fake. */
  expiresIn?: number;
  /** Redirect URIs registered for the client (default none); may be changed later on the fake. */
  redirectUris?: string[];
  /** Refuse authorization requests without a PKCE code_challenge (default false). */
  requirePkce?: boolean;
  /** Lifetime of authorization codes, ms (default 60000). */
  codeTtlMs?: number;
}

export interface Grant {
  access_token: string;
  refresh_token: string;
}

/** What the user decided on the consent page, as the authorization server saw it. */
export interface AuthorizationRecord {
  decision: 'approve' | 'deny';
  clientId: string;
  redirectUri: string;
  /** The requested scope, as sent (space-delimited). */
  scope: string | undefined;
  state: string | undefined;
  /** undefined: the request carried no PKCE code_challenge. */
  codeChallengeMethod: 'S256' | 'plain' | undefined;
  /** The code issued on approval. */
  code?: string;
}

export interface OAuthFake {
  /** Origin, e.g. http://127.0.0.1:54321 */
  url: string;
  /** The resource server's root (`${url}/api`): what an upstream override points at. */
  apiUrl: string;
  /** The authorization endpoint (`${url}/oauth/authorize`). */
  authorizeUrl: string;
  /** The token endpoint (`${url}/oauth/token`). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  /** Requests to the token endpoint. */
  tokenRequests(): RecordedRequest[];
  /** Requests to the resource server. */
  apiRequests(): RecordedRequest[];
  /** Requests to the authorization endpoint (the GETs and the consent form's POSTs). */
  authorizeRequests(): RecordedRequest[];
  /** Every token value ever issued, for leak checks (authorization codes included). */
  issued: string[];
  /** `expires_in` of tokens issued from now on. */
  expiresIn: number;
  /** Redirect URIs registered for the client, compared as exact strings. */
  redirectUris: string[];
  /** Authorization requests without a code_challenge are refused with `invalid_request`. */
  requirePkce: boolean;
  /** Lifetime of authorization codes issued from now on, ms. */
  codeTtlMs: number;
  /** The latest consent decision (approve or deny) that passed validation. */
  lastAuthorization: AuthorizationRecord | undefined;
  /** A new authorization, as if the user had just completed the authorization-code flow. */
  grant(): Grant;
  /** Every access token stops working (the provider's tokens expired or were revoked). */
  revokeAccessTokens(): void;
  /** Every refresh token stops working (the user revoked the app). */
  revokeRefreshTokens(): void;
  /** The next token request gets this answer instead. */
  failNextToken(fault: OAuthFault): void;
  /** Delay (ms) before the token endpoint answers: lets concurrent refreshes overlap. */
  tokenDelayMs: number;
  close(): Promise<void>;
}

interface RefreshState {
  used: boolean;
  revoked: boolean;
  /** The access token issued together with this refresh token. */
  accessToken: string;
  scope: string;
  /** The authorization code this token descends from, so a replayed code can revoke the lot. */
  family: string | undefined;
}

interface CodeState {
  used: boolean;
  expiresAt: number;
  clientId: string;
  redirectUri: string;
  scope: string | undefined;
  challenge: { value: string; method: 'S256' | 'plain' } | undefined;
}

/** A validated authorization request (RFC 6749 section 4.1.1 + RFC 7636 section 4.3). */
interface AuthorizeParams {
  clientId: string;
  redirectUri: string;
  scope: string | undefined;
  state: string | undefined;
  challenge: CodeState['challenge'];
}

type AuthorizeCheck =
  | { kind: 'ok'; params: AuthorizeParams }
  /** Never redirect: the client or its redirect URI could not be trusted. */
  | { kind: 'page'; message: string }
  | { kind: 'redirect'; redirectUri: string; state: string | undefined; error: string; description: string };

/** RFC 7636 section 4.1: code-verifier = 43*128unreserved; a plain challenge is a verifier, S256 is 43 chars. */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;
/** RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), space-delimited. */
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/;
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

export async function startOAuthFake(opts: OAuthFakeOptions = {}): Promise<OAuthFake> {
  const clientId = opts.clientId ?? 'ces-test-client';
  const clientSecret = opts.clientSecret ?? `cs_${randomBytes(12).toString('hex')}`;
  const requests: RecordedRequest[] = [];
  const unhandled: RecordedRequest[] = [];
  const issued: string[] = [];
  const refreshTokens = new Map<string, RefreshState>();
  const accessTokens = new Map<string, { expiresAt: number; family: string | undefined }>();
  const codes = new Map<string, CodeState>();
  const faults: OAuthFault[] = [];
  let counter = 0;

  const fake = {
    expiresIn: opts.expiresIn ?? 3600,
    tokenDelayMs: 0,
    redirectUris: [...(opts.redirectUris ?? [])],
    requirePkce: opts.requirePkce ?? false,
    codeTtlMs: opts.codeTtlMs ?? 60_000,
    lastAuthorization: undefined as AuthorizationRecord | undefined,
  };

  const issue = (scope = 'read', family: string | undefined = undefined): Grant => {
    counter++;
    const access = `at_${counter}_${randomBytes(10).toString('hex')}`;
    const refresh = `rt_${counter}_${randomBytes(10).toString('hex')}`;
    issued.push(access, refresh);
    accessTokens.set(access, { expiresAt: Date.now() + fake.expiresIn * 1000, family });
    refreshTokens.set(refresh, { used: false, revoked: false, accessToken: access, scope, family });
    return { access_token: access, refresh_token: refresh };
  };
  const revokeFamily = (code: string) => {
    for (const state of refreshTokens.values()) if (state.family === code) state.revoked = true;
    for (const [token, at] of accessTokens) if (at.family === code) accessTokens.delete(token);
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const tokenError = (res: ServerResponse, status: number, error: string, description: string) => {
    const headers: Record<string, string> = { ...NO_STORE };
    if (status === 401) headers['www-authenticate'] = 'Basic realm="oauth"';
    send(res, status, { error, error_description: description }, headers);
  };
  const tokenAnswer = (res: ServerResponse, grant: Grant, scope: string) =>
    send(res, 200, { ...grant, token_type: 'Bearer', expires_in: fake.expiresIn, scope }, NO_STORE);

  const refreshGrant = (form: URLSearchParams, res: ServerResponse): void => {
    const presented = form.get('refresh_token') ?? '';
    const state = refreshTokens.get(presented);
    if (!state || state.revoked) {
      tokenError(res, 400, 'invalid_grant', 'The refresh token is invalid or revoked.');
      return;
    }
    if (state.used) {
      tokenError(res, 400, 'invalid_grant', 'The refresh token has already been used.');
      return;
    }
    state.used = true;
    accessTokens.delete(state.accessToken);
    tokenAnswer(res, issue(state.scope, state.family), state.scope);
  };

  const codeGrant = (form: URLSearchParams, client: { id: string }, res: ServerResponse): void => {
    if (['code', 'redirect_uri', 'code_verifier'].some((name) => form.getAll(name).length > 1)) {
      tokenError(res, 400, 'invalid_request', 'A parameter was repeated.');
      return;
    }
    const code = form.get('code') ?? '';
    const entry = codes.get(code);
    if (!entry) {
      tokenError(res, 400, 'invalid_grant', 'The authorization code is invalid.');
      return;
    }
    if (entry.used) {
      revokeFamily(code);
      tokenError(res, 400, 'invalid_grant', 'The authorization code has already been used.');
      return;
    }
    // Consumed by the first attempt, successful or not: a failed PKCE check must not allow guessing again.
    entry.used = true;
    const failure = codeFailure(entry, client.id, form);
    if (failure) {
      tokenError(res, 400, 'invalid_grant', failure);
      return;
    }
    const scope = entry.scope ?? 'read';
    tokenAnswer(res, issue(scope, code), scope);
  };

  const token = (req: RecordedRequest, res: ServerResponse): void => {
    const fault = faults.shift();
    if (fault) {
      send(res, fault.status, fault.body ?? { error: 'server_error' }, fault.headers ?? {});
      return;
    }
    const type = String(req.headers['content-type'] ?? '').split(';')[0];
    if (type !== 'application/x-www-form-urlencoded') {
      tokenError(res, 400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
      return;
    }
    const form = new URLSearchParams(req.body);
    const client = clientCredentials(req.headers.authorization, form);
    if (client === 'both') {
      tokenError(res, 400, 'invalid_request', 'Use only one client authentication method.');
      return;
    }
    if (!client || client.id !== clientId || client.secret !== clientSecret) {
      tokenError(res, 401, 'invalid_client', 'Client authentication failed.');
      return;
    }
    const grantType = form.get('grant_type');
    if (grantType === 'refresh_token') refreshGrant(form, res);
    else if (grantType === 'authorization_code') codeGrant(form, client, res);
    else
      tokenError(
        res,
        400,
        'unsupported_grant_type',
        'Only authorization_code and refresh_token are supported.',
      );
  };

  const checkAuthorize = (params: URLSearchParams): AuthorizeCheck => {
    const client = single(params, 'client_id');
    if (client !== clientId) return { kind: 'page', message: 'Unknown or missing client_id.' };
    const redirectUri = single(params, 'redirect_uri');
    if (redirectUri === undefined || !fake.redirectUris.includes(redirectUri)) {
      return { kind: 'page', message: 'The redirect_uri is missing or not registered for this client.' };
    }
    const state = params.get('state') || undefined;
    const fail = (error: string, description: string): AuthorizeCheck => ({
      kind: 'redirect',
      redirectUri,
      state,
      error,
      description,
    });
    const names = ['response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'];
    const repeated = names.find((name) => params.getAll(name).length > 1);
    if (repeated) return fail('invalid_request', `The ${repeated} parameter was repeated.`);
    const responseType = single(params, 'response_type');
    if (responseType === undefined) return fail('invalid_request', 'The response_type parameter is missing.');
    if (responseType !== 'code')
      return fail('unsupported_response_type', 'Only response_type=code is supported.');
    const scope = single(params, 'scope');
    if (scope !== undefined && !SCOPE.test(scope)) return fail('invalid_scope', 'The scope is malformed.');
    const challenge = single(params, 'code_challenge');
    const method = single(params, 'code_challenge_method');
    if (challenge === undefined) {
      if (method !== undefined)
        return fail('invalid_request', 'code_challenge_method without code_challenge.');
      if (fake.requirePkce) return fail('invalid_request', 'PKCE is required: send a code_challenge.');
      return { kind: 'ok', params: { clientId: client, redirectUri, scope, state, challenge: undefined } };
    }
    // RFC 7636 section 4.3: an absent method means plain.
    const resolved = method ?? 'plain';
    if (resolved !== 'S256' && resolved !== 'plain') {
      return fail('invalid_request', 'Unsupported code_challenge_method.');
    }
    if (!PKCE_VALUE.test(challenge) || (resolved === 'S256' && challenge.length !== 43)) {
      return fail('invalid_request', 'The code_challenge is malformed.');
    }
    const pkce = { value: challenge, method: resolved } as const;
    return { kind: 'ok', params: { clientId: client, redirectUri, scope, state, challenge: pkce } };
  };

  const authorize = (req: RecordedRequest, res: ServerResponse, pathname: string): boolean => {
    if (pathname !== '/oauth/authorize' || (req.method !== 'GET' && req.method !== 'POST')) return false;
    let params: URLSearchParams;
    if (req.method === 'GET') {
      params = new URL(req.path, 'http://fake.invalid').searchParams;
    } else {
      const type = String(req.headers['content-type'] ?? '').split(';')[0];
      if (type !== 'application/x-www-form-urlencoded') {
        html(res, 400, errorPage('The consent form must be sent as application/x-www-form-urlencoded.'));
        return true;
      }
      params = new URLSearchParams(req.body);
    }
    const checked = checkAuthorize(params);
    if (checked.kind === 'page') {
      html(res, 400, errorPage(checked.message));
      return true;
    }
    if (checked.kind === 'redirect') {
      const { error, description, state } = checked;
      redirect(res, checked.redirectUri, { error, error_description: description, state });
      return true;
    }
    const p = checked.params;
    if (req.method === 'GET') {
      html(res, 200, consentPage(p));
      return true;
    }
    const decision = single(params, 'decision');
    if (decision !== 'approve' && decision !== 'deny') {
      redirect(res, p.redirectUri, {
        error: 'invalid_request',
        error_description: 'The decision must be approve or deny.',
        state: p.state,
      });
      return true;
    }
    const record: AuthorizationRecord = {
      decision,
      clientId: p.clientId,
      redirectUri: p.redirectUri,
      scope: p.scope,
      state: p.state,
      codeChallengeMethod: p.challenge?.method,
    };
    if (decision === 'deny') {
      fake.lastAuthorization = record;
      redirect(res, p.redirectUri, {
        error: 'access_denied',
        error_description: 'The resource owner denied the request.',
        state: p.state,
      });
      return true;
    }
    const code = `ac_${randomBytes(16).toString('hex')}`;
    issued.push(code);
    codes.set(code, {
      used: false,
      expiresAt: Date.now() + fake.codeTtlMs,
      clientId: p.clientId,
      redirectUri: p.redirectUri,
      scope: p.scope,
      challenge: p.challenge,
    });
    fake.lastAuthorization = { ...record, code };
    redirect(res, p.redirectUri, { code, state: p.state });
    return true;
  };

  const api = (req: RecordedRequest, res: ServerResponse, pathname: string): boolean => {
    if (req.method !== 'GET' || (pathname !== '/api/me' && pathname !== '/api/items')) return false;
    const match = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''));
    const at = match ? accessTokens.get(match[1] as string) : undefined;
    if (!at || at.expiresAt <= Date.now()) {
      const challenge = match ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"';
      send(res, 401, { error: 'invalid_token' }, { 'www-authenticate': challenge });
      return true;
    }
    if (pathname === '/api/me') send(res, 200, { id: 1, name: 'Demo user' });
    else
      send(res, 200, {
        items: [
          { id: 1, name: 'first' },
          { id: 2, name: 'second' },
        ],
      });
    return true;
  };

  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const req: RecordedRequest = {
        method: (raw.method ?? 'GET').toUpperCase(),
        path: raw.url ?? '/',
        headers: raw.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(req);
      const { pathname } = new URL(req.path, 'http://fake.invalid');
      try {
        if (req.method === 'POST' && pathname === '/oauth/token') {
          if (fake.tokenDelayMs > 0) setTimeout(() => token(req, res), fake.tokenDelayMs);
          else token(req, res);
          return;
        }
        if (authorize(req, res, pathname)) return;
        if (api(req, res, pathname)) return;
        unhandled.push(req);
        send(res, 404, { error: 'not_found' });
      } catch (error) {
        unhandled.push(req);
        send(res, 500, { error: String(error) });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return Object.assign(fake, {
    url,
    apiUrl: `${url}/api`,
    authorizeUrl: `${url}/oauth/authorize`,
    tokenUrl: `${url}/oauth/token`,
    clientId,
    clientSecret,
    requests,
    unhandled,
    issued,
    tokenRequests: () => requests.filter((r) => r.path.startsWith('/oauth/token')),
    apiRequests: () => requests.filter((r) => r.path.startsWith('/api/')),
    authorizeRequests: () => requests.filter((r) => r.path.startsWith('/oauth/authorize')),
    grant: () => issue(),
    revokeAccessTokens: () => accessTokens.clear(),
    revokeRefreshTokens: () => {
      for (const state of refreshTokens.values()) state.revoked = true;
    },
    failNextToken: (fault: OAuthFault) => {
      faults.push(fault);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  });
}

/** RFC 6749 section 4.1.3 and RFC 7636 section 4.6: why this code may not be exchanged, if it may not. */
function codeFailure(entry: CodeState, client: string, form: URLSearchParams): string | undefined {
  if (entry.expiresAt <= Date.now()) return 'The authorization code has expired.';
  if (entry.clientId !== client) return 'The authorization code was issued to another client.';
  if (form.get('redirect_uri') !== entry.redirectUri)
    return 'The redirect_uri does not match the authorization request.';
  const verifier = form.get('code_verifier');
  if (!entry.challenge) return verifier === null ? undefined : 'No code_challenge was sent for this code.';
  if (verifier === null || !PKCE_VALUE.test(verifier)) return 'A valid code_verifier is required.';
  const derived =
    entry.challenge.method === 'S256'
      ? createHash('sha256').update(verifier, 'ascii').digest('base64url')
      : verifier;
  const a = Buffer.from(derived);
  const b = Buffer.from(entry.challenge.value);
  if (a.length !== b.length || !timingSafeEqual(a, b))
    return 'The code_verifier does not match the code_challenge.';
  return undefined;
}

/** RFC 6749 section 3.1: a repeated parameter is no value; one sent without a value counts as omitted. */
function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  return values.length === 1 && values[0] !== '' ? values[0] : undefined;
}

/** RFC 6749 section 3.1.2: the redirect URI's own query is kept; the response parameters are added to it. */
function redirect(
  res: ServerResponse,
  redirectUri: string,
  params: Record<string, string | undefined>,
): void {
  const target = new URL(redirectUri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) target.searchParams.append(name, value);
  res.writeHead(302, { location: target.href, ...NO_STORE });
  res.end();
}

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

function html(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'content-type': 'text/html;charset=utf-8',
    // No form-action: Chromium applies it to the redirect that follows the form, and redirect URIs are
    // usually on another origin.
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
    'x-frame-options': 'DENY',
    ...NO_STORE,
  });
  res.end(body);
}

function page(title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
</head>
<body>
<main>
${main}
</main>
</body>
</html>
`;
}

function errorPage(message: string): string {
  return page(
    'Authorization error',
    `<h1>Authorization error</h1>\n<p role="alert">${escapeHtml(message)}</p>`,
  );
}

/** The consent page: the request travels in hidden inputs, so the POST can be validated exactly like the GET. */
function consentPage(p: AuthorizeParams): string {
  const client = escapeHtml(p.clientId);
  const scopes = p.scope?.split(' ') ?? [];
  const scopeList =
    scopes.length > 0
      ? `<ul aria-labelledby="scopes">\n${scopes.map((s) => `<li>${escapeHtml(s)}</li>`).join('\n')}\n</ul>`
      : '<p>No specific scopes were requested.</p>';
  const carried: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: p.clientId,
    redirect_uri: p.redirectUri,
    scope: p.scope,
    state: p.state,
    code_challenge: p.challenge?.value,
    code_challenge_method: p.challenge?.method,
  };
  const hidden = Object.entries(carried)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('\n');
  return page(
    `Authorize ${p.clientId}`,
    `<h1>Authorize ${client}</h1>
<p><strong>${client}</strong> is asking for access to your account.</p>
<h2 id="scopes">Requested scopes</h2>
${scopeList}
<p>Whatever you decide, you will be sent back to <code>${escapeHtml(p.redirectUri)}</code>.</p>
<form method="post" action="/oauth/authorize">
${hidden}
<button name="decision" value="approve">Approve</button>
<button name="decision" value="deny">Deny</button>
</form>`,
  );
}

/** RFC 6749 2.3.1: Basic (form-urlencoded parts) or body params; 'both' is an error per the same section. */
function clientCredentials(
  authorization: string | undefined,
  form: URLSearchParams,
): { id: string; secret: string } | 'both' | undefined {
  const inBody = form.has('client_id') || form.has('client_secret');
  const basic = /^Basic ([A-Za-z0-9+/=]+)$/.exec(authorization ?? '');
  if (basic && inBody) return 'both';
  if (basic) {
    const decoded = Buffer.from(basic[1] as string, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    try {
      return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
    } catch {
      return undefined;
    }
  }
  if (inBody) return { id: form.get('client_id') ?? '', secret: form.get('client_secret') ?? '' };
  return undefined;
}
