// The authorization code grant of a credential option (`authorization`): the consent URL the end user's browser
// is sent to, PKCE, the code exchange at the option's token endpoint, the load-time checks of the block, and the
// blocks of the shipped definitions. The declarations are exercised on a fictional provider ("Consentia") so the
// runtime is tested on what the format promises rather than on one provider's choices.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import { parseDefinition, semanticErrors } from '../../../src/connectors/load.ts';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import {
  type CodeExchange,
  type ConsentUrlInput,
  codeExchangeRequest,
  consentOptions,
  consentUrl,
  pkcePair,
} from '../../../src/connectors/runtime/authorization-code.ts';
import { refreshSettings, type TokenTarget } from '../../../src/connectors/runtime/oauth2.ts';
import type { ConnectorDefinition, CredentialOption } from '../../../src/connectors/schema.ts';
import { DomainError } from '../../../src/errors.ts';
import { json, loadErrors, runtime, startServer } from './helpers.ts';

const YAML = `
id: 5a0c2d4e-6f81-4a93-b5c7-d9e1f3a5b7c9
slug: consentia
name: Consentia
icon_url: https://consentia.example/icon.svg
support_level: community
documentation_url: https://consentia.example/docs
base_url: "https://{tenant}.consentia.example/api"
base_url_variables:
  tenant: { description: The account's tenant., pattern: "^[a-z0-9-]+$" }
credential_options:
  - title: OAuth2.0
    description: Tokens from the consent flow plus the app's client id and secret.
    fields:
      access_token: { type: string, title: Access token, description: Obtained by ces., secret: true }
      refresh_token: { type: string, title: Refresh token, description: From the consent., secret: true }
      client_id: { type: string, title: Client id, description: The app's id. }
      client_secret: { type: string, title: Client secret, description: The app's secret., secret: true }
    required: [refresh_token, client_id, client_secret]
    auth: { type: bearer, token: "{access_token}" }
    refresh:
      token_url: "https://{tenant}.consentia.example/oauth/token"
      client_auth: body
      body_format: form
    authorization:
      url: "https://{tenant}.consentia.example/oauth/authorize"
      scopes: [items:read, items:write]
      scope_separator: ","
      pkce: true
      params: { prompt: consent, audience: api }
  - title: API Key
    description: A key in a header.
    fields:
      api_key: { type: string, title: API key, description: The key., secret: true }
    required: [api_key]
    auth: { type: header, name: X-Key, value: "{api_key}" }
check: { method: GET, path: /me }
replication_config:
  type: object
  properties:
    tenant: { type: string }
entities:
  - name: items
    description: Items.
    primary_key: [id]
    actions:
      list:
        description: Items.
        request: { method: GET, path: /items }
`;

// biome-ignore lint/suspicious/noExplicitAny: the document is edited into other shapes on purpose
type Change = (doc: any) => void;

function load(change: Change = () => {}): ConnectorDefinition {
  const doc = parse(YAML);
  change(doc);
  return parseDefinition(stringify(doc), 'consentia.yaml');
}

function errorsWith(change: Change): string[] {
  const doc = parse(YAML);
  change(doc);
  return loadErrors(doc, 'consentia.yaml');
}

function oauthOption(def: ConnectorDefinition): CredentialOption {
  const option = def.credential_options[0];
  assert.ok(option?.authorization, 'the fixture declares authorization on its first option');
  return option;
}

const INPUT: ConsentUrlInput = {
  config: { tenant: 'acme' },
  overrides: {},
  clientId: 'app-123',
  redirectUri: 'https://ces.example/v1/oauth/callback',
  state: 'st4te-value',
  codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
};

describe('consentUrl', () => {
  it('sets every parameter: constant params, the standard ones, the scopes joined, and the S256 challenge', () => {
    const def = load();
    const url = consentUrl(def, oauthOption(def), INPUT);
    assert.equal(`${url.origin}${url.pathname}`, 'https://acme.consentia.example/oauth/authorize');
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      prompt: 'consent',
      audience: 'api',
      response_type: 'code',
      client_id: 'app-123',
      redirect_uri: 'https://ces.example/v1/oauth/callback',
      scope: 'items:read,items:write',
      state: 'st4te-value',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    // Each parameter once: a repeated one would leave the provider to pick which value counts.
    assert.equal([...url.searchParams.keys()].length, 9);
  });

  it('puts the scopes under scope_param, space-joined by default, and sends no PKCE without pkce: true', () => {
    const def = load((d) => {
      const auth = d.credential_options[0].authorization;
      auth.scope_param = 'permissions';
      delete auth.scope_separator;
      delete auth.pkce;
      delete auth.params;
    });
    // A challenge handed in anyway is not sent: the option did not ask for PKCE.
    const url = consentUrl(def, oauthOption(def), INPUT);
    assert.equal(url.searchParams.get('permissions'), 'items:read items:write');
    assert.equal(url.searchParams.has('scope'), false);
    assert.equal(url.searchParams.has('code_challenge'), false);
    assert.equal(url.searchParams.has('code_challenge_method'), false);
    assert.deepEqual([...url.searchParams.keys()].sort(), [
      'client_id',
      'permissions',
      'redirect_uri',
      'response_type',
      'state',
    ]);
  });

  it('leaves the scope parameter out when no scopes are declared', () => {
    const def = load((d) => {
      delete d.credential_options[0].authorization.scopes;
    });
    const url = consentUrl(def, oauthOption(def), INPUT);
    assert.equal(url.searchParams.has('scope'), false);
    assert.equal(url.searchParams.get('client_id'), 'app-123');
  });

  it('refuses to build a PKCE consent URL without a challenge', () => {
    const def = load();
    const { codeChallenge: _, ...withoutChallenge } = INPUT;
    assert.throws(() => consentUrl(def, oauthOption(def), withoutChallenge), /code challenge/);
  });

  it('replaces the origin with the upstream override of the slug and keeps the path', () => {
    const def = load();
    // No tenant in the config: once the origin is the operator's, host variables do not matter.
    const url = consentUrl(def, oauthOption(def), {
      ...INPUT,
      config: {},
      overrides: { consentia: 'http://127.0.0.1:8999/api' },
    });
    assert.equal(url.origin, 'http://127.0.0.1:8999');
    assert.equal(url.pathname, '/oauth/authorize');
    assert.equal(url.searchParams.get('state'), 'st4te-value');
    assert.equal(url.searchParams.get('scope'), 'items:read,items:write');
  });

  it('fills a host variable from the config and refuses a value failing its pattern without echoing it', () => {
    const def = load();
    const url = consentUrl(def, oauthOption(def), { ...INPUT, config: { tenant: 'globex' } });
    assert.equal(url.host, 'globex.consentia.example');
    for (const tenant of ['evil.example/x?', 'a.b']) {
      assert.throws(
        () => consentUrl(def, oauthOption(def), { ...INPUT, config: { tenant } }),
        (err: unknown) =>
          err instanceof DomainError &&
          err.code === 'VALIDATION_ERROR' &&
          err.errors[0]?.field === 'replication_config.tenant' &&
          !err.message.includes(tenant),
      );
    }
    assert.throws(
      () => consentUrl(def, oauthOption(def), { ...INPUT, config: {} }),
      (err: unknown) => err instanceof DomainError && err.code === 'VALIDATION_ERROR',
    );
  });
});

describe('pkcePair', () => {
  const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

  it('computes the challenge as RFC 7636 appendix B does', () => {
    // The RFC's own example pair proves the oracle below before it judges pkcePair.
    assert.equal(
      s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'),
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('gives a 43-character base64url verifier and base64url(sha256(verifier)) as its challenge', () => {
    const { verifier, challenge } = pkcePair();
    assert.match(verifier, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(challenge, s256(verifier));
    assert.match(challenge, /^[A-Za-z0-9_-]{43}$/);
  });

  it('draws a fresh verifier every time', () => {
    const verifiers = new Set(Array.from({ length: 20 }, () => pkcePair().verifier));
    assert.equal(verifiers.size, 20);
  });
});

describe('codeExchangeRequest', () => {
  const target: TokenTarget = { url: new URL('https://acme.consentia.example/oauth/token'), guarded: true };
  const exchange: CodeExchange = {
    code: 'c0de',
    redirectUri: 'https://ces.example/v1/oauth/callback',
    codeVerifier: 'v3rifier',
    clientId: 'app-123',
    clientSecret: 's3cret',
  };
  const GRANT = {
    grant_type: 'authorization_code',
    code: 'c0de',
    redirect_uri: 'https://ces.example/v1/oauth/callback',
    code_verifier: 'v3rifier',
  };
  const settingsFor = (client_auth: 'basic' | 'body', body_format: 'form' | 'json' | 'query') =>
    refreshSettings({
      token_url: 'https://{tenant}.consentia.example/oauth/token',
      client_auth,
      body_format,
    });
  const basic = `Basic ${Buffer.from('app-123:s3cret').toString('base64')}`;

  it('posts a form with the client in it (client_auth: body), once', () => {
    const req = codeExchangeRequest(settingsFor('body', 'form'), exchange, target, 'ces-test');
    assert.equal(req.method, 'POST');
    assert.equal(req.idempotent, false);
    assert.equal(req.guarded, true);
    assert.equal(req.url.href, 'https://acme.consentia.example/oauth/token');
    assert.equal(req.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(req.headers.authorization, undefined);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(String(req.body))), {
      ...GRANT,
      client_id: 'app-123',
      client_secret: 's3cret',
    });
  });

  it('authenticates with HTTP Basic and keeps the client out of the params (client_auth: basic)', () => {
    const req = codeExchangeRequest(settingsFor('basic', 'form'), exchange, target, 'ces-test');
    assert.equal(req.headers.authorization, basic);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(String(req.body))), GRANT);
  });

  it('sends JSON when body_format is json', () => {
    const withBody = codeExchangeRequest(settingsFor('body', 'json'), exchange, target, 'ces-test');
    assert.equal(withBody.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(String(withBody.body)), {
      ...GRANT,
      client_id: 'app-123',
      client_secret: 's3cret',
    });
    const withBasic = codeExchangeRequest(settingsFor('basic', 'json'), exchange, target, 'ces-test');
    assert.equal(withBasic.headers.authorization, basic);
    assert.deepEqual(JSON.parse(String(withBasic.body)), GRANT);
  });

  it('puts the params in the URL and sends no body when body_format is query', () => {
    const req = codeExchangeRequest(settingsFor('body', 'query'), exchange, target, 'ces-test');
    assert.equal(req.body, undefined);
    assert.equal(req.headers['content-type'], undefined);
    assert.deepEqual(Object.fromEntries(req.url.searchParams), {
      ...GRANT,
      client_id: 'app-123',
      client_secret: 's3cret',
    });
    // The target itself is left as it was: it may be reused for the next exchange.
    assert.equal(target.url.search, '');
    const withBasic = codeExchangeRequest(settingsFor('basic', 'query'), exchange, target, 'ces-test');
    assert.equal(withBasic.headers.authorization, basic);
    assert.deepEqual(Object.fromEntries(withBasic.url.searchParams), GRANT);
  });

  it('sends no code_verifier when there is none (an option without PKCE)', () => {
    const { codeVerifier: _, ...noVerifier } = exchange;
    const req = codeExchangeRequest(settingsFor('body', 'form'), noVerifier, target, 'ces-test');
    assert.equal(new URLSearchParams(String(req.body)).has('code_verifier'), false);
  });
});

describe('the code exchange on the wire', () => {
  let fake: Awaited<ReturnType<typeof startServer>>;
  let rt: ReturnType<typeof runtime>;

  before(async () => {
    fake = await startServer((req, res) => {
      if (req.method === 'POST' && req.url === '/oauth/token')
        return json(res, 200, { access_token: 'at-1', refresh_token: 'rt-1', expires_in: 3600 });
      json(res, 404, { message: 'unexpected request' });
    });
    rt = runtime({ consentia: `${fake.url}/api` });
  });
  after(() => fake.close());

  it('reaches the token URL under the override and returns the option credentials', async () => {
    const def = load();
    const creds = await rt.exchangeAuthorizationCode(
      def,
      oauthOption(def),
      {
        code: 'c0de',
        redirectUri: 'https://ces.example/cb',
        codeVerifier: 'v3rifier',
        clientId: 'app-123',
        clientSecret: 's3cret',
      },
      { tenant: 'acme' },
    );
    assert.deepEqual(
      fake.seen.map((r) => `${r.method} ${r.url}`),
      ['POST /oauth/token'],
    );
    assert.deepEqual(Object.fromEntries(new URLSearchParams(fake.seen[0]?.body)), {
      grant_type: 'authorization_code',
      code: 'c0de',
      redirect_uri: 'https://ces.example/cb',
      code_verifier: 'v3rifier',
      client_id: 'app-123',
      client_secret: 's3cret',
    });
    assert.equal(creds.option, 'OAuth2.0');
    assert.equal(creds.values.access_token, 'at-1');
    assert.equal(creds.values.refresh_token, 'rt-1');
    assert.equal(creds.values.client_id, 'app-123');
    assert.equal(creds.values.client_secret, 's3cret');
    assert.match(creds.values.expires_at ?? '', /^\d{4}-\d\d-\d\dT/);
  });
});

describe('authorization load-time checks', () => {
  it('loads the fixture as it is', () => {
    assert.deepEqual(
      errorsWith(() => {}),
      [],
    );
  });

  it('refuses an authorization block on an option without a refresh_token refresh', () => {
    assert.deepEqual(
      errorsWith((d) => {
        d.credential_options[1].authorization = { url: 'https://consentia.example/oauth/authorize' };
      }),
      [
        'consentia.yaml: /credential_options/1/authorization: needs a refresh block with the refresh_token grant (the code is exchanged there)',
      ],
    );
    assert.deepEqual(
      errorsWith((d) => {
        d.credential_options[0].refresh.grant_type = 'client_credentials';
        d.credential_options[0].required = ['client_id', 'client_secret'];
      }),
      [
        'consentia.yaml: /credential_options/0/authorization: needs a refresh block with the refresh_token grant (the code is exchanged there)',
      ],
    );
  });

  it('refuses it on an option without fields for the client id and secret', () => {
    assert.deepEqual(
      errorsWith((d) => {
        const option = d.credential_options[0];
        delete option.fields.client_id;
        delete option.fields.client_secret;
        option.required = ['refresh_token'];
      }),
      [
        "consentia.yaml: /credential_options/0/authorization: the option declares no 'client_id' field for the app's client_id",
        "consentia.yaml: /credential_options/0/authorization: the option declares no 'client_secret' field for the app's client_secret",
      ],
    );
    // Renamed fields count, through refresh.fields.
    assert.deepEqual(
      errorsWith((d) => {
        const option = d.credential_options[0];
        option.fields.app_id = option.fields.client_id;
        delete option.fields.client_id;
        option.required = ['refresh_token', 'app_id', 'client_secret'];
        option.refresh.fields = { client_id: 'app_id' };
      }),
      [],
    );
  });

  it('refuses a URL that is not https', () => {
    assert.deepEqual(
      errorsWith((d) => {
        d.credential_options[0].authorization.url = 'http://{tenant}.consentia.example/oauth/authorize';
      }),
      ['consentia.yaml: /credential_options/0/authorization/url: must be an https URL'],
    );
  });

  it('refuses a placeholder that is not a base URL variable', () => {
    assert.deepEqual(
      errorsWith((d) => {
        d.credential_options[0].authorization.url = 'https://{region}.consentia.example/oauth/authorize';
      }),
      [
        'consentia.yaml: /credential_options/0/authorization/url: placeholder {region} is not declared in base_url_variables',
      ],
    );
  });

  it('refuses params naming a parameter ces sets itself, or the scope parameter', () => {
    assert.deepEqual(
      errorsWith((d) => {
        d.credential_options[0].authorization.params = {
          state: 'fixed',
          client_id: 'other',
          code_challenge_method: 'plain',
          scope: 'all',
          prompt: 'consent',
        };
      }),
      [
        'consentia.yaml: /credential_options/0/authorization/params/state: set by ces itself',
        'consentia.yaml: /credential_options/0/authorization/params/client_id: set by ces itself',
        'consentia.yaml: /credential_options/0/authorization/params/code_challenge_method: set by ces itself',
        'consentia.yaml: /credential_options/0/authorization/params/scope: set by ces itself',
      ],
    );
    assert.deepEqual(
      errorsWith((d) => {
        d.credential_options[0].authorization.scope_param = 'redirect_uri';
      }),
      [
        "consentia.yaml: /credential_options/0/authorization/scope_param: 'redirect_uri' is set by ces itself",
      ],
    );
  });
});

describe('the shipped definitions', () => {
  // Where each provider documents its consent page, and how it wants scopes and PKCE (see each YAML's comment).
  const EXPECTED: Record<string, { endpoint: string; separator: string; pkce: boolean }> = {
    asana: { endpoint: 'https://app.asana.com/-/oauth_authorize', separator: ' ', pkce: true },
    gong: { endpoint: 'https://app.gong.io/oauth2/authorize', separator: ' ', pkce: false },
    gmail: { endpoint: 'https://accounts.google.com/o/oauth2/v2/auth', separator: ' ', pkce: false },
    'google-drive': { endpoint: 'https://accounts.google.com/o/oauth2/v2/auth', separator: ' ', pkce: false },
    hubspot: { endpoint: 'https://app.hubspot.com/oauth/authorize', separator: ' ', pkce: false },
    linear: { endpoint: 'https://linear.app/oauth/authorize', separator: ',', pkce: true },
    notion: { endpoint: 'https://api.notion.com/v1/oauth/authorize', separator: ' ', pkce: false },
    salesforce: {
      endpoint: 'https://login.salesforce.com/services/oauth2/authorize',
      separator: ' ',
      pkce: true,
    },
    slack: { endpoint: 'https://slack.com/oauth/v2/authorize', separator: ',', pkce: false },
    'zendesk-support': {
      endpoint: 'https://acme.zendesk.com/oauth/authorizations/new',
      separator: ' ',
      pkce: true,
    },
  };
  const registry = DefinitionRegistry.default();

  for (const [slug, expected] of Object.entries(EXPECTED)) {
    it(`${slug} declares one consent option whose URL parses`, () => {
      const def = registry.bySlug(slug);
      assert.ok(def, `${slug} is shipped`);
      assert.deepEqual(semanticErrors(def), []);
      const options = consentOptions(def);
      assert.equal(options.length, 1);
      const option = options[0] as CredentialOption;
      const auth = option.authorization;
      assert.ok(auth && option.refresh);
      assert.equal(option.refresh.grant_type ?? 'refresh_token', 'refresh_token');
      assert.equal(auth.pkce === true, expected.pkce);
      const { challenge } = pkcePair();
      const url = new URL(
        consentUrl(def, option, {
          config: { subdomain: 'acme' },
          overrides: {},
          clientId: 'app-123',
          redirectUri: 'https://ces.example/v1/oauth/callback',
          state: 'st4te',
          codeChallenge: challenge,
        }).href,
      );
      assert.equal(`${url.origin}${url.pathname}`, expected.endpoint);
      assert.equal(url.searchParams.get('client_id'), 'app-123');
      assert.equal(url.searchParams.get('response_type'), 'code');
      assert.equal(url.searchParams.get('state'), 'st4te');
      assert.equal(url.searchParams.get('code_challenge'), expected.pkce ? challenge : null);
      const scopes = url.searchParams.get(auth.scope_param ?? 'scope');
      if (auth.scopes && auth.scopes.length > 0) {
        assert.equal(scopes, auth.scopes.join(expected.separator));
        if (auth.scopes.length > 1) assert.ok(scopes?.includes(expected.separator));
      } else {
        assert.equal(scopes, null);
      }
    });
  }

  it('covers every shipped consent option', () => {
    const withConsent = registry
      .all()
      .filter((d) => consentOptions(d).length > 0)
      .map((d) => d.slug)
      .sort();
    assert.deepEqual(withConsent, Object.keys(EXPECTED).sort());
  });

  it('asks Notion for owner=user and no scopes', () => {
    const def = registry.bySlug('notion') as ConnectorDefinition;
    const option = consentOptions(def)[0] as CredentialOption;
    const url = consentUrl(def, option, {
      config: {},
      overrides: {},
      clientId: 'app-123',
      redirectUri: 'https://ces.example/cb',
      state: 's',
    });
    assert.equal(url.searchParams.get('owner'), 'user');
    assert.equal(url.searchParams.has('scope'), false);
  });
});
