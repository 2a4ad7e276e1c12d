import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, beforeEach, describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import type { ResolvedCredentials } from '../../../src/connectors/credentials.ts';
import { parseDefinition } from '../../../src/connectors/load.ts';
import type { ConnectorRuntime } from '../../../src/connectors/runtime/executor.ts';
import type { UpstreamResponse } from '../../../src/connectors/runtime/http.ts';
import {
  type CredentialStore,
  isStale,
  RefreshRejectedError,
  type RefreshSettings,
  refreshSettings,
  tokenRequest,
  tokenResponse,
  tokenTarget,
} from '../../../src/connectors/runtime/oauth2.ts';
import { parseRecords } from '../../../src/connectors/runtime/payload.ts';
import { DomainError } from '../../../src/errors.ts';
import { OAUTH_DEMO_YAML, oauthDemoDefinition } from '../../helpers/oauth.ts';
import { json, loadErrors, runtime, type SeenRequest, startServer } from './helpers.ts';

const NOW = Date.parse('2030-01-01T00:00:00.000Z');
const def = oauthDemoDefinition();
const settings = refreshSettings(def.credential_options[0]!.refresh!);
const CONFIG = { subdomain: 'acme' };

function creds(values: Record<string, string>): ResolvedCredentials {
  return { option: 'OAuth2.0', values: { client_id: 'cid', client_secret: 'csecret', ...values } };
}

function response(status: number, body: unknown, headers: Record<string, string> = {}): UpstreamResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    status,
    headers,
    body: Buffer.from(text),
    url: new URL('https://acme.oauthdemo.example/oauth/token'),
  };
}

function rejectsWith(code: string, check?: (err: DomainError) => void) {
  return (err: unknown) => {
    assert.ok(err instanceof DomainError, String(err));
    assert.equal(err.code, code, err.message);
    check?.(err);
    return true;
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the document is edited into invalid shapes
function definitionWith(change: (option: any, doc: any) => void): string[] {
  const doc = parse(OAUTH_DEMO_YAML);
  change(doc.credential_options[0], doc);
  return loadErrors(doc, 'oauthdemo.yaml');
}

describe('oauth2: when to refresh', () => {
  it('refreshes without an access token, or when it expires within 60 s; unknown expiry is trusted', () => {
    const at = (ms: number) => new Date(NOW + ms).toISOString();
    assert.equal(isStale(settings, creds({ refresh_token: 'r' }), NOW), true);
    assert.equal(isStale(settings, creds({ access_token: '', refresh_token: 'r' }), NOW), true);
    assert.equal(isStale(settings, creds({ access_token: 'a' }), NOW), false);
    assert.equal(isStale(settings, creds({ access_token: 'a', expires_at: at(61_000) }), NOW), false);
    assert.equal(isStale(settings, creds({ access_token: 'a', expires_at: at(60_000) }), NOW), true);
    assert.equal(isStale(settings, creds({ access_token: 'a', expires_at: at(-5_000) }), NOW), true);
  });
});

describe('oauth2: the token request (RFC 6749 section 6)', () => {
  const target = { url: new URL('https://acme.oauthdemo.example/oauth/token'), guarded: true };

  it('defaults: form body, HTTP Basic client authentication, never repeated', () => {
    const req = tokenRequest(settings, creds({ refresh_token: 'rt-1' }), target, 'ces/test');
    assert.equal(req.method, 'POST');
    assert.equal(req.idempotent, false);
    assert.equal(req.guarded, true);
    assert.equal(req.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(req.headers.authorization, `Basic ${Buffer.from('cid:csecret').toString('base64')}`);
    assert.equal(req.body, 'grant_type=refresh_token&refresh_token=rt-1');
    assert.equal(req.url.href, target.url.href);
  });

  it('client_auth body with json, and query for providers that take the params in the URL', () => {
    const body: RefreshSettings = { ...settings, clientAuth: 'body', bodyFormat: 'json' };
    const req = tokenRequest(body, creds({ refresh_token: 'rt-1' }), target, 'ces/test');
    assert.equal(req.headers.authorization, undefined);
    assert.equal(req.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(req.body as string), {
      grant_type: 'refresh_token',
      refresh_token: 'rt-1',
      client_id: 'cid',
      client_secret: 'csecret',
    });
    const query = tokenRequest(
      { ...settings, bodyFormat: 'query' },
      creds({ refresh_token: 'rt 1' }),
      target,
      'x',
    );
    assert.equal(query.body, undefined);
    assert.equal(query.url.search, '?grant_type=refresh_token&refresh_token=rt+1');
    assert.equal(target.url.search, '', 'the target URL is not modified');
  });

  it('uses the declared field names', () => {
    const renamed: RefreshSettings = {
      ...settings,
      fields: { access_token: 'at', refresh_token: 'rt', client_id: 'app', client_secret: 'app_secret' },
    };
    const req = tokenRequest(
      renamed,
      { option: 'x', values: { rt: 'r', app: 'a', app_secret: 's' } },
      target,
      'x',
    );
    assert.equal(req.headers.authorization, `Basic ${Buffer.from('a:s').toString('base64')}`);
    assert.match(req.body as string, /refresh_token=r$/);
  });

  it('without a refresh token, or without client credentials for Basic, only re-authorisation helps', () => {
    assert.throws(
      () => tokenRequest(settings, creds({ access_token: 'a' }), target, 'x'),
      (e: unknown) => e instanceof RefreshRejectedError && /no refresh token/.test(e.reason),
    );
    assert.throws(
      () => tokenRequest(settings, { option: 'OAuth2.0', values: { refresh_token: 'r' } }, target, 'x'),
      (e: unknown) => e instanceof RefreshRejectedError && /client id/.test(e.reason),
    );
  });
});

describe('oauth2: the token response', () => {
  const old = creds({
    access_token: 'at-old',
    refresh_token: 'rt-old',
    expires_at: '2029-01-01T00:00:00.000Z',
  });

  it('stores the new access token, the rotated refresh token and the expiry', () => {
    const next = tokenResponse(
      def,
      settings,
      old,
      response(200, {
        access_token: 'at-new',
        refresh_token: 'rt-new',
        expires_in: 3600,
        token_type: 'Bearer',
      }),
      NOW,
    );
    assert.deepEqual(next, {
      option: 'OAuth2.0',
      values: {
        client_id: 'cid',
        client_secret: 'csecret',
        access_token: 'at-new',
        refresh_token: 'rt-new',
        expires_at: '2030-01-01T01:00:00.000Z',
      },
    });
  });

  it('keeps the old refresh token when none is returned, and forgets an expiry it no longer knows', () => {
    const next = tokenResponse(def, settings, old, response(200, { access_token: 'at-new' }), NOW);
    assert.equal(next.values.refresh_token, 'rt-old');
    assert.equal(next.values.expires_at, undefined);
    const asString = tokenResponse(
      def,
      settings,
      old,
      response(200, { access_token: 'a', expires_in: '60' }),
      NOW,
    );
    assert.equal(asString.values.expires_at, '2030-01-01T00:01:00.000Z');
  });

  it('reads declared response keys', () => {
    const custom: RefreshSettings = {
      ...settings,
      response: { access_token: 'token', refresh_token: 'refresh', expires_in: 'ttl' },
    };
    const next = tokenResponse(def, custom, old, response(200, { token: 'a2', refresh: 'r2', ttl: 10 }), NOW);
    assert.equal(next.values.access_token, 'a2');
    assert.equal(next.values.refresh_token, 'r2');
  });

  it('a success without an access token is a bad response, not a refusal', () => {
    assert.throws(
      () => tokenResponse(def, settings, old, response(200, { token_type: 'Bearer' }), NOW),
      rejectsWith('UPSTREAM_BAD_RESPONSE'),
    );
    assert.throws(
      () => tokenResponse(def, settings, old, response(200, 'not json'), NOW),
      rejectsWith('UPSTREAM_BAD_RESPONSE'),
    );
  });

  it('invalid_grant, invalid_client and any 401 are refusals; descriptions are scrubbed of credentials', () => {
    const grant = response(400, { error: 'invalid_grant', error_description: 'Token rt-old was revoked\n' });
    assert.throws(
      () => tokenResponse(def, settings, old, grant, NOW),
      (e: unknown) => {
        assert.ok(e instanceof RefreshRejectedError);
        assert.equal(e.code, 'CONNECTOR_REAUTH_REQUIRED');
        assert.equal(
          e.reason,
          "OAuth Demo's token endpoint refused to renew the access token (HTTP 400 invalid_grant: Token [redacted] was revoked).",
        );
        return true;
      },
    );
    for (const res of [
      response(401, { error: 'invalid_client' }),
      response(401, ''),
      response(400, { error: 'unauthorized_client' }),
    ]) {
      assert.throws(() => tokenResponse(def, settings, old, res, NOW), RefreshRejectedError);
    }
  });

  it('other failures are not refusals: the grant stays usable', () => {
    const cases: Array<[UpstreamResponse, string]> = [
      [response(400, { error: 'invalid_request' }), 'UPSTREAM_ERROR'],
      [response(400, { error: 'unsupported_grant_type' }), 'UPSTREAM_ERROR'],
      [response(500, 'oops'), 'UPSTREAM_ERROR'],
      [response(503, {}), 'UPSTREAM_UNAVAILABLE'],
      [response(429, {}, { 'retry-after': '7' }), 'UPSTREAM_RATE_LIMITED'],
    ];
    for (const [res, code] of cases) {
      assert.throws(
        () => tokenResponse(def, settings, old, res, NOW),
        (e: unknown) => e instanceof DomainError && !(e instanceof RefreshRejectedError) && e.code === code,
        code,
      );
    }
    try {
      tokenResponse(def, settings, old, response(429, {}, { 'retry-after': '7' }), NOW);
    } catch (e) {
      assert.equal((e as DomainError).retryAfter, 7);
    }
  });
});

describe('oauth2: the token URL', () => {
  const c = creds({ refresh_token: 'r' });

  it('fills base URL variables from the config, checking their patterns; it goes through the egress policy', () => {
    const target = tokenTarget(def, settings, CONFIG, {}, c);
    assert.equal(target.url.href, 'https://acme.oauthdemo.example/oauth/token');
    assert.equal(target.guarded, true);
    assert.throws(
      () => tokenTarget(def, settings, { subdomain: 'evil.example/x?' }, {}, c),
      rejectsWith('VALIDATION_ERROR'),
    );
    assert.throws(() => tokenTarget(def, settings, {}, {}, c), rejectsWith('VALIDATION_ERROR'));
  });

  it("an upstream override of the slug replaces the origin (not the path) and is trusted like the base URL's", () => {
    const target = tokenTarget(def, settings, {}, { oauthdemo: 'http://127.0.0.1:9/api' }, c);
    assert.equal(target.url.href, 'http://127.0.0.1:9/oauth/token');
    assert.equal(target.guarded, false);
  });
});

describe('oauth2: definition checks', () => {
  it('accepts the demo definition, whose auth template names the optional access_token', () => {
    assert.deepEqual(
      definitionWith(() => {}),
      [],
    );
  });

  it('without refresh, an optional field in the auth template is still an error', () => {
    const errors = definitionWith((o) => {
      delete o.refresh;
    });
    assert.ok(
      errors.some((e) => /auth\/token: placeholder \{access_token\} must be a required field/.test(e)),
    );
  });

  it('names undeclared variables, fields and a reserved expires_at field', () => {
    const errors = definitionWith((o) => {
      o.refresh.token_url = 'https://{tenant}.oauthdemo.example/oauth/token?x=1';
      o.refresh.fields = { refresh_token: 'rtoken' };
      delete o.fields.client_secret;
      o.required = ['refresh_token', 'client_id'];
      o.fields.expires_at = { type: 'string', title: 'Expiry', description: 'x' };
    });
    const want = [
      /\/credential_options\/0\/refresh\/token_url: placeholder \{tenant\} is not declared in base_url_variables/,
      /\/credential_options\/0\/refresh\/token_url: must be a plain http\(s\) URL without credentials, query or fragment/,
      /\/credential_options\/0\/refresh\/fields\/refresh_token: 'rtoken' is not a declared field/,
      /\/credential_options\/0\/refresh\/fields\/client_secret: 'client_secret' is not a declared field/,
      /\/credential_options\/0\/fields\/expires_at: reserved/,
    ];
    for (const re of want)
      assert.ok(
        errors.some((e) => re.test(e)),
        `${re} in ${errors.join('\n')}`,
      );
  });

  it('the schema refuses unknown refresh keys and values', () => {
    const errors = definitionWith((o) => {
      o.refresh.client_auth = 'jwt';
    });
    assert.ok(
      errors.some((e) => /refresh\/client_auth/.test(e)),
      errors.join('\n'),
    );
  });
});

describe('oauth2: the runtime', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let rt: ConnectorRuntime;
  let api: (req: SeenRequest, res: ServerResponse) => void;
  let token: (req: SeenRequest, res: ServerResponse) => void;
  let issued = 0;
  const tokenRequests = () => server.seen.filter((r) => r.url === '/oauth/token');
  const apiRequests = () => server.seen.filter((r) => r.url.startsWith('/api/'));
  const grantOk = (_req: SeenRequest, res: ServerResponse) => {
    issued++;
    setTimeout(
      () => json(res, 200, { access_token: `at-${issued}`, refresh_token: `rt-${issued}`, expires_in: 3600 }),
      20,
    );
  };

  before(async () => {
    server = await startServer((req, res) => (req.url === '/oauth/token' ? token(req, res) : api(req, res)));
    rt = runtime({ oauthdemo: `${server.url}/api` });
  });
  after(async () => {
    await rt.close();
    await server.close();
  });
  beforeEach(() => {
    server.seen.length = 0;
    token = grantOk;
    api = (_req, res) => json(res, 200, { items: [] });
  });

  const exec = (credentials: ResolvedCredentials, connectorId = 'c1', store?: CredentialStore) =>
    rt.execute({
      connectorId,
      definition: def,
      credentials,
      config: CONFIG,
      entity: 'items',
      action: 'list',
      params: {},
      credentialStore: store,
    });

  it('concurrent executes of one connector share one refresh; other connectors refresh on their own', async () => {
    let stored = 0;
    const store: CredentialStore = {
      refresh: async (current, doRefresh) => {
        stored++;
        return doRefresh(current);
      },
    };
    const stale = creds({ refresh_token: 'rt-0' });
    await Promise.all([
      ...Array.from({ length: 10 }, () => exec(stale, 'c1', store)),
      exec(stale, 'c2', store),
    ]);
    assert.equal(tokenRequests().length, 2);
    assert.equal(stored, 2, 'the store is asked once per flight');
    assert.equal(apiRequests().length, 11);
    // The next refresh of c1 is a new flight.
    await exec(stale, 'c1', store);
    assert.equal(tokenRequests().length, 3);
  });

  it('a failed flight fails every waiter, and the next call tries again', async () => {
    token = (_req, res) => setTimeout(() => json(res, 400, { error: 'invalid_grant' }), 20);
    const stale = creds({ refresh_token: 'rt-0' });
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => exec(stale)));
    for (const r of results) {
      assert.equal(r.status, 'rejected');
      assert.ok(r.reason instanceof RefreshRejectedError);
    }
    assert.equal(tokenRequests().length, 1);
    token = grantOk;
    await exec(stale);
    assert.equal(tokenRequests().length, 2);
  });

  it('a 401 refreshes once and retries once; a 401 to the renewed token is final', async () => {
    api = (req, res) =>
      req.headers.authorization === 'Bearer good'
        ? json(res, 200, { items: [{ id: 1 }] })
        : json(res, 401, {});
    token = (_req, res) => json(res, 200, { access_token: 'good' });
    const out = await exec(creds({ access_token: 'expired', refresh_token: 'rt' }));
    assert.deepEqual(parseRecords(out.payload), [{ id: 1 }]);
    assert.deepEqual(
      server.seen.map((r) => r.headers.authorization ?? r.url),
      ['Bearer expired', `Basic ${Buffer.from('cid:csecret').toString('base64')}`, 'Bearer good'],
    );

    server.seen.length = 0;
    token = (_req, res) => json(res, 200, { access_token: 'also-refused' });
    await assert.rejects(
      exec(creds({ access_token: 'expired', refresh_token: 'rt' })),
      rejectsWith('UPSTREAM_AUTH_FAILED'),
    );
    assert.equal(tokenRequests().length, 1);
    assert.equal(apiRequests().length, 2);

    // Just refreshed because stale: a 401 then is not followed by a second refresh.
    server.seen.length = 0;
    await assert.rejects(exec(creds({ refresh_token: 'rt' })), rejectsWith('UPSTREAM_AUTH_FAILED'));
    assert.equal(tokenRequests().length, 1);
    assert.equal(apiRequests().length, 1);
  });

  it('options without refresh are untouched by all this', async () => {
    const plain = parse(OAUTH_DEMO_YAML);
    delete plain.credential_options[0].refresh;
    delete plain.credential_options[0].authorization;
    plain.credential_options[0].required = ['access_token'];
    const noRefresh = parseDefinition(stringify(plain), 'plain.yaml');
    api = (_req, res) => json(res, 401, {});
    await assert.rejects(
      rt.execute({
        connectorId: 'c3',
        definition: noRefresh,
        credentials: { option: 'OAuth2.0', values: { access_token: 'a' } },
        config: CONFIG,
        entity: 'items',
        action: 'list',
        params: {},
      }),
      rejectsWith('UPSTREAM_AUTH_FAILED'),
    );
    assert.equal(tokenRequests().length, 0);
  });

  it('checkCredentials returns the refreshed credentials to store, and turns a refusal into INVALID_CREDENTIALS', async () => {
    issued = 0;
    const checked = await rt.checkCredentials(def, creds({ refresh_token: 'rt-0' }), CONFIG);
    assert.equal(checked.values.access_token, 'at-1');
    assert.equal(checked.values.refresh_token, 'rt-1');
    assert.ok(checked.values.expires_at);
    token = (_req, res) => json(res, 400, { error: 'invalid_grant', error_description: 'rt-0 is revoked' });
    await assert.rejects(
      rt.checkCredentials(def, creds({ refresh_token: 'rt-0' }), CONFIG),
      rejectsWith('INVALID_CREDENTIALS', (e) => {
        assert.match(e.message, /invalid_grant: \[redacted\] is revoked/);
      }),
    );
  });

  it('without an override the token URL must pass the egress policy', async () => {
    const guarded = runtime({});
    try {
      const local = parse(OAUTH_DEMO_YAML);
      local.base_url = `${server.url}/api`;
      local.credential_options[0].refresh.token_url = `${server.url}/oauth/token`;
      delete local.base_url_variables;
      delete local.credential_options[0].authorization;
      const localDef = parseDefinition(stringify(local), 'local.yaml');
      await assert.rejects(
        guarded.execute({
          connectorId: 'c4',
          definition: localDef,
          credentials: creds({ refresh_token: 'rt' }),
          config: {},
          entity: 'items',
          action: 'list',
          params: {},
        }),
        rejectsWith('EGRESS_DENIED'),
      );
      assert.equal(server.seen.length, 0);
    } finally {
      await guarded.close();
    }
  });
});
