// A generic OAuth 2.0 authorization server (token endpoint only) plus a tiny protected resource server, on
// one real node:http server, for testing credential refresh. Routes and the references they follow:
//
//   POST /oauth/token   RFC 6749 section 6 (refresh_token grant). Client authentication: HTTP Basic
//                       (section 2.3.1, form-urlencoded id and secret) or client_id/client_secret in the body.
//                       Body: application/x-www-form-urlencoded (section 4.1.3 / appendix B). Success: section
//                       5.1 (`access_token`, `token_type`, `expires_in`, `refresh_token`, Cache-Control:
//                       no-store). Errors: section 5.2 (`{"error","error_description"}`, 400; 401 +
//                       WWW-Authenticate for a failed client authentication).
//                       Refresh tokens are single-use (rotated on every refresh, as OAuth 2.1 section 4.3.1
//                       and RFC 9700 section 4.14.2 recommend for public clients and Gong does): reuse is
//                       `invalid_grant`. A refresh revokes the access token issued with the old refresh token.
//   GET  /api/me        RFC 6750 section 2.1 bearer token; an unknown, revoked or expired token gets 401 with
//   GET  /api/items       `WWW-Authenticate: Bearer error="invalid_token"` (section 3.1).
//   anything else       404, recorded in `unhandled` so tests can fail on it.
import { randomBytes } from 'node:crypto';
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
}

export interface Grant {
  access_token: string;
  refresh_token: string;
}

export interface OAuthFake {
  /** Origin, e.g. http://127.0.0.1:54321 */
  url: string;
  /** The resource server's root (`${url}/api`): what an upstream override points at. */
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  requests: RecordedRequest[];
  unhandled: RecordedRequest[];
  /** Requests to the token endpoint. */
  tokenRequests(): RecordedRequest[];
  /** Requests to the resource server. */
  apiRequests(): RecordedRequest[];
  /** Every token value ever issued, for leak checks. */
  issued: string[];
  /** `expires_in` of tokens issued from now on. */
  expiresIn: number;
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
}

export async function startOAuthFake(opts: OAuthFakeOptions = {}): Promise<OAuthFake> {
  const clientId = opts.clientId ?? 'ces-test-client';
  const clientSecret = opts.clientSecret ?? `cs_${randomBytes(12).toString('hex')}`;
  const requests: RecordedRequest[] = [];
  const unhandled: RecordedRequest[] = [];
  const issued: string[] = [];
  const refreshTokens = new Map<string, RefreshState>();
  const accessTokens = new Map<string, { expiresAt: number }>();
  const faults: OAuthFault[] = [];
  let counter = 0;

  const fake = {
    expiresIn: opts.expiresIn ?? 3600,
    tokenDelayMs: 0,
  };

  const issue = (): Grant => {
    counter++;
    const access = `at_${counter}_${randomBytes(10).toString('hex')}`;
    const refresh = `rt_${counter}_${randomBytes(10).toString('hex')}`;
    issued.push(access, refresh);
    accessTokens.set(access, { expiresAt: Date.now() + fake.expiresIn * 1000 });
    refreshTokens.set(refresh, { used: false, revoked: false, accessToken: access });
    return { access_token: access, refresh_token: refresh };
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const tokenError = (res: ServerResponse, status: number, error: string, description: string) => {
    const headers: Record<string, string> = { 'cache-control': 'no-store', pragma: 'no-cache' };
    if (status === 401) headers['www-authenticate'] = 'Basic realm="oauth"';
    send(res, status, { error, error_description: description }, headers);
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
    if (form.get('grant_type') !== 'refresh_token') {
      tokenError(res, 400, 'unsupported_grant_type', 'Only refresh_token is supported here.');
      return;
    }
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
    const grant = issue();
    send(
      res,
      200,
      { ...grant, token_type: 'Bearer', expires_in: fake.expiresIn, scope: 'read' },
      { 'cache-control': 'no-store', pragma: 'no-cache' },
    );
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
    clientId,
    clientSecret,
    requests,
    unhandled,
    issued,
    tokenRequests: () => requests.filter((r) => r.path.startsWith('/oauth/token')),
    apiRequests: () => requests.filter((r) => r.path.startsWith('/api/')),
    grant: issue,
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
