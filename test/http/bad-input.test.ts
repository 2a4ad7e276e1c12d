import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { WIRE_CODES } from '../../src/http/errors.ts';
import { type Harness, type InjectResult, startHarness } from '../helpers/harness.ts';
import { assertError, errorFields, registeredRoutes } from './assertions.ts';

const TOKEN_URL = '/api/v1/account/applications/token';
const SCOPED_URL = '/api/v1/account/applications/scoped-token';
const GITHUB_ID = 'ef69ef6e-aa7f-4af1-a01d-ef775033524e';

interface ObjectSchema {
  type: string;
  required: string[];
  properties: Record<string, Record<string, unknown>>;
}

/**
 * Hostile and malformed requests. The main harness has a 2 KiB body limit; a second one with the default limit
 * serves the over-long-field cases (a 10 000-character name would otherwise be refused as too large first).
 */
describe('bad input', () => {
  let h: Harness;
  let roomy: Harness;
  let token: string;
  let roomyToken: string;

  before(async () => {
    [h, roomy] = await Promise.all([startHarness({ CES_BODY_LIMIT_BYTES: '2048' }), startHarness()]);
    [token, roomyToken] = await Promise.all([h.token(), roomy.token()]);
  });
  after(() => Promise.all([h.close(), roomy.close()]));

  /** Both JSON-body endpoints: the public token endpoint and an authenticated one. */
  const endpoints = () => [
    { url: TOKEN_URL, token: undefined as string | undefined },
    { url: SCOPED_URL, token },
  ];
  const post = (url: string, t: string | undefined, body: string, headers: Record<string, string> = {}) =>
    h.inject({
      method: 'POST',
      url,
      body,
      headers: { 'content-type': 'application/json', ...headers },
      ...(t ? { token: t } : {}),
    });

  const stillServing = async () => {
    const health = await h.inject({ method: 'GET', url: '/healthz' });
    assert.equal(health.status, 200, health.body);
    const ok = await h.inject({
      method: 'POST',
      url: TOKEN_URL,
      body: { client_id: h.boot.client_id, client_secret: h.boot.client_secret },
    });
    assert.equal(ok.status, 200, ok.body);
  };

  test('malformed JSON is 400 INVALID_JSON', async () => {
    for (const { url, token: t } of endpoints()) {
      for (const body of ['{bad', '{"client_id": "a",}', '[1, 2', "{'single': 'quotes'}"]) {
        assertError(await post(url, t, body), 400, 'INVALID_JSON');
      }
    }
  });

  test('an empty JSON body is 400 INVALID_JSON', async () => {
    for (const { url, token: t } of endpoints()) {
      const res = await h.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', ...(t ? { authorization: `Bearer ${t}` } : {}) },
      });
      const wrapped: InjectResult = {
        status: res.statusCode,
        headers: res.headers,
        body: res.body,
        raw: res.rawPayload,
        json: JSON.parse(res.body),
      };
      assertError(wrapped, 400, 'INVALID_JSON');
    }
  });

  test('a form-encoded body is 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const { url, token: t } of endpoints()) {
      const res = await post(url, t, 'client_id=a&client_secret=b', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      assertError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
  });

  test('Content-Type: text/plain is 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const { url, token: t } of endpoints()) {
      const body =
        url === TOKEN_URL
          ? JSON.stringify({ client_id: h.boot.client_id, client_secret: h.boot.client_secret })
          : JSON.stringify({ workspace_name: 'plain-text' });
      const res = await post(url, t, body, { 'content-type': 'text/plain' });
      assertError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
  });

  test('a body over the configured limit is 413 PAYLOAD_TOO_LARGE', async () => {
    const big = 'x'.repeat(3000);
    const tokenRes = await post(TOKEN_URL, undefined, JSON.stringify({ client_id: big, client_secret: 'y' }));
    assertError(tokenRes, 413, 'PAYLOAD_TOO_LARGE');
    const scopedRes = await post(SCOPED_URL, token, JSON.stringify({ workspace_name: big }));
    assertError(scopedRes, 413, 'PAYLOAD_TOO_LARGE');
    // Just under the limit is parsed (and then validated).
    const under = await post(SCOPED_URL, token, JSON.stringify({ workspace_name: 'x'.repeat(1900) }));
    assertError(under, 422, 'VALIDATION_ERROR');
    await stillServing();
  });

  test('a 10 000-character workspace_name (or client_id) is 422 naming the field', async () => {
    const long = 'w'.repeat(10_000);
    const scoped = await roomy.inject({
      method: 'POST',
      url: SCOPED_URL,
      token: roomyToken,
      body: { workspace_name: long },
    });
    assertError(scoped, 422, 'VALIDATION_ERROR');
    assert.ok(errorFields(scoped).includes('body.workspace_name'), scoped.body);
    assert.ok(!scoped.body.includes(long), 'the value is not echoed back');
    const list = await roomy.inject({
      method: 'GET',
      url: '/api/v1/workspaces?limit=100',
      token: roomyToken,
    });
    assert.deepEqual(
      list.json.data.map((w: { name: string }) => w.name),
      ['default'],
      'no workspace was created',
    );

    const tok = await roomy.inject({
      method: 'POST',
      url: TOKEN_URL,
      body: { client_id: long, client_secret: 's' },
    });
    assertError(tok, 422, 'VALIDATION_ERROR');
    assert.ok(errorFields(tok).includes('body.client_id'), tok.body);
  });

  test('prototype-poisoning bodies are refused with 400 and the process keeps serving', async () => {
    const bodies = [
      '{"__proto__": {"polluted": "yes"}, "client_id": "a", "client_secret": "b", "workspace_name": "p"}',
      '{"client_id": "a", "client_secret": "b", "workspace_name": "p", "nested": {"__proto__": {"polluted": "yes"}}}',
      '{"constructor": {"prototype": {"polluted": "yes"}}, "client_id": "a", "client_secret": "b", "workspace_name": "p"}',
    ];
    for (const { url, token: t } of endpoints()) {
      for (const body of bodies) {
        const res = await post(url, t, body);
        assert.equal(res.status, 400, `${url} ${body}: ${res.body}`);
        assertError(res, 400, 'INVALID_JSON');
      }
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype was polluted');
    const names = await h.inject({ method: 'GET', url: '/api/v1/workspaces?name_contains=p', token });
    assert.ok(
      !names.json.data.some((w: { name: string }) => w.name === 'p'),
      'the poisoned body created a workspace',
    );
    await stillServing();
  });

  test('JSON nested deeper than 64 levels is 422 before anything walks it; 64 levels are parsed', async () => {
    const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    // The roomy harness: 10,000 levels are 20 kB, past the main harness's body limit.
    const roomyPost = (url: string, t: string | undefined, body: string) =>
      roomy.inject({ method: 'POST', url, body, ...(t ? { token: t } : {}) });
    for (const { url, token: t } of [
      { url: TOKEN_URL, token: undefined },
      { url: SCOPED_URL, token: roomyToken },
    ]) {
      // 10,000 levels overflowed the stack of the recursive code behind the parser (a 500), past ~1,900.
      for (const levels of [65, 10_000]) {
        const res = await roomyPost(url, t, `{"client_id":${deep(levels - 1)},"workspace_name":"d"}`);
        assertError(res, 422, 'VALIDATION_ERROR');
        assert.deepEqual(res.json.errors, [
          {
            field: 'body',
            message: 'is nested deeper than 64 levels',
            error_code: 'max_depth',
            details: { max_depth: 64 },
          },
        ]);
      }
      const at = await roomyPost(url, t, `{"client_id":${deep(63)},"workspace_name":${deep(63)}}`);
      assertError(at, 422, 'VALIDATION_ERROR');
      assert.notEqual(at.json.errors[0].error_code, 'max_depth', at.body);
    }
    await stillServing();
  });

  test('a lone UTF-16 surrogate escape is 422; a surrogate pair is text', async () => {
    const res = await post(SCOPED_URL, token, '{"workspace_name":"a\\ud800b"}');
    assertError(res, 422, 'VALIDATION_ERROR');
    assert.equal(res.json.errors[0].error_code, 'invalid_unicode');
    const pair = await post(SCOPED_URL, token, '{"workspace_name":"smile \\ud83d\\ude00"}');
    assert.equal(pair.status, 200, pair.body);
  });

  test('an unknown route is 404 ROUTE_NOT_FOUND, with or without a token', async () => {
    const cases: Array<{ method: 'GET' | 'POST' | 'DELETE'; url: string; token?: string; body?: unknown }> = [
      { method: 'GET', url: '/nope' },
      { method: 'GET', url: '/api/v1/nope' },
      { method: 'GET', url: '/api/v1/nope', token },
      { method: 'POST', url: '/api/v1/account/applications/nope', body: { a: 1 } },
      { method: 'GET', url: '/api/v2/workspaces', token },
    ];
    for (const c of cases) {
      const res = await h.inject(c);
      assertError(res, 404, 'ROUTE_NOT_FOUND');
    }
  });

  test('every request gets its own request id', async () => {
    const a = await h.inject({ method: 'GET', url: '/nope' });
    const b = await h.inject({ method: 'GET', url: '/nope' });
    assert.notEqual(a.json.request_id, b.json.request_id);
    // A client-chosen id is not trusted as ours.
    const c = await h.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'client-chosen' } });
    assertError(c, 404, 'ROUTE_NOT_FOUND');
    assert.notEqual(c.json.request_id, 'client-chosen');
  });

  test('after all of it /healthz still answers 200', async () => {
    await stillServing();
  });

  describe('catalog', () => {
    const list = (query: string) =>
      h.inject({ method: 'GET', url: `/api/v1/integrations/definitions/sources${query}`, token });

    test('?name=git finds GitHub with the reference camelCase fields', async () => {
      const res = await list('?name=git');
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(Object.keys(res.json), ['definitions']);
      const gh = res.json.definitions.find(
        (d: { sourceDefinitionId: string }) => d.sourceDefinitionId === GITHUB_ID,
      );
      assert.ok(gh, res.body);
      assert.equal(gh.name, 'GitHub');
      assert.match(gh.iconUrl, /^https:\/\//);
      assert.ok(['archived', 'certified', 'community', 'none'].includes(gh.supportLevel), gh.supportLevel);
      for (const d of res.json.definitions) assert.match(`${d.name}`.toLowerCase(), /git/);
    });

    test('the name match is case-insensitive; no match is an empty array', async () => {
      const lower = await list('?name=git');
      const upper = await list('?name=GIT');
      assert.equal(upper.status, 200, upper.body);
      assert.deepEqual(upper.json, lower.json);
      const partial = await list('?name=tHu');
      assert.ok(partial.json.definitions.some((d: { name: string }) => d.name === 'GitHub'));
      const none = await list('?name=zzz');
      assert.equal(none.status, 200, none.body);
      assert.deepEqual(none.json, { definitions: [] });
      const all = await list('');
      assert.ok(all.json.definitions.length >= 1);
      assert.ok(all.json.definitions.some((d: { name: string }) => d.name === 'GitHub'));
    });

    test('the GitHub definition: credential options, replication_config, entities and actions', async () => {
      const res = await h.inject({
        method: 'GET',
        url: `/api/v1/integrations/definitions/sources/${GITHUB_ID}`,
        token,
      });
      assert.equal(res.status, 200, res.body);
      const def = res.json;
      assert.equal(def.sourceDefinitionId, GITHUB_ID);
      assert.equal(def.name, 'GitHub');

      const options = def.credential_options as Array<{ option_title: string; schema: ObjectSchema }>;
      assert.deepEqual(options.map((o) => o.option_title).sort(), ['OAuth Credentials', 'PAT Credentials']);
      const pat = options.find((o) => o.option_title === 'PAT Credentials')!;
      assert.equal(pat.schema.type, 'object');
      assert.ok(pat.schema.required.includes('personal_access_token'));
      assert.equal(pat.schema.properties.personal_access_token?.airbyte_secret, true);
      const oauth = options.find((o) => o.option_title === 'OAuth Credentials')!;
      assert.ok(oauth.schema.required.includes('access_token'));
      assert.equal(oauth.schema.properties.access_token?.airbyte_secret, true);
      // Every required credential field of either option is a secret.
      for (const o of options) {
        for (const f of o.schema.required)
          assert.equal(o.schema.properties[f]?.['x-secret'], true, `${o.option_title}.${f}`);
      }

      assert.equal(def.replication_config.type, 'object');
      assert.ok(def.replication_config.required.includes('repositories'));
      assert.equal(def.replication_config.properties.repositories.type, 'array');

      const issues = def.entities.find((e: { name: string }) => e.name === 'issues');
      assert.ok(issues, 'no issues entity');
      const listAction = issues.actions.find((a: { name: string }) => a.name === 'list');
      assert.ok(listAction, 'issues has no list action');
      const param = (n: string) => listAction.params.find((p: { name: string }) => p.name === n);
      assert.equal(param('owner')?.required, true);
      assert.equal(param('repo')?.required, true);
      assert.equal(param('state')?.required, false);

      // The reference shape: definition.spec.connectionSpecification with a oneOf of credential options.
      const spec = def.definition.spec.connectionSpecification;
      const titles = spec.properties.credentials.oneOf.map(
        (b: { properties: { option_title: { const: string } } }) => b.properties.option_title.const,
      );
      assert.deepEqual(titles.sort(), ['OAuth Credentials', 'PAT Credentials']);
      assert.ok(spec.required.includes('repositories'));
    });

    test('an unknown definition id is 404; a non-uuid is 422', async () => {
      const unknown = await h.inject({
        method: 'GET',
        url: `/api/v1/integrations/definitions/sources/${randomUUID()}`,
        token,
      });
      assertError(unknown, 404, 'DEFINITION_NOT_FOUND');
      const bad = await h.inject({
        method: 'GET',
        url: '/api/v1/integrations/definitions/sources/github',
        token,
      });
      assertError(bad, 422, 'VALIDATION_ERROR');
    });
  });

  test('/api/v1/openapi.json is an OpenAPI 3.1 document listing every /api/v1 operation', async () => {
    const res = await h.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    assert.equal(res.status, 200, res.body);
    const doc = res.json;
    assert.match(doc.openapi, /^3\.1\./);
    assert.equal(typeof doc.info?.title, 'string');
    const ops = registeredRoutes(h.deps).filter(
      (r) => r.url.startsWith('/api/v1/') && r.url !== '/api/v1/openapi.json', // the document does not list itself
    );
    assert.ok(ops.length >= 16, `only ${ops.length} routes found`);
    const missing: string[] = [];
    for (const r of ops) {
      const path = r.url.replace(/:([a-z_]+)/g, '{$1}');
      if (!doc.paths?.[path]?.[r.method.toLowerCase()]) missing.push(`${r.method} ${path}`);
    }
    assert.deepEqual(missing, [], 'operations missing from the document');
    // The token endpoint is documented as public, the others need the bearer scheme.
    assert.deepEqual(doc.paths['/api/v1/account/applications/token'].post.security, []);
    assert.ok(doc.components.securitySchemes.bearerAuth);
  });

  test("the error body's code is published as a closed enum of every code the wire carries", async () => {
    const doc = (await h.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json;
    const code = doc.components.schemas.ApiErrorResponse.properties.code;
    // Still a string, as the reference's free-string `code`: the enum only narrows it.
    assert.equal(code.type, 'string');
    assert.deepEqual([...code.enum].sort(), [...WIRE_CODES].sort());
    // Both halves: a code core throws and one only the transport answers with, each as a real answer.
    const unknownConnector = await h.inject({
      method: 'GET',
      url: `/api/v1/integrations/connectors/${randomUUID()}`,
      token: await h.token(),
    });
    assertError(unknownConnector, 404, 'CONNECTOR_NOT_FOUND');
    assertError(await h.inject({ method: 'GET', url: '/api/v1/no-such-route' }), 404, 'ROUTE_NOT_FOUND');
    assert.ok(code.enum.includes('CONNECTOR_NOT_FOUND') && code.enum.includes('ROUTE_NOT_FOUND'));
  });
});

describe('a failing store', () => {
  let h: Harness;
  let token: string;

  before(async () => {
    h = await startHarness();
    token = await h.token();
  });
  after(() => h.close());

  test('a 5xx never echoes the internal error; readiness reports it; liveness does not', async () => {
    await h.deps.store.close();
    const res = await h.inject({ method: 'GET', url: '/api/v1/workspaces', token });
    assertError(res, 500, 'INTERNAL_ERROR');
    assert.deepEqual(Object.keys(res.json).sort(), ['code', 'errors', 'message', 'request_id']);
    assert.doesNotMatch(res.body, /sqlite|database|kysely|driver|destroy|closed|stack/i);
    assert.ok(h.logs().includes(res.json.request_id), 'the log does not carry the request id');

    const ready = await h.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.status, 503, ready.body);
    const live = await h.inject({ method: 'GET', url: '/healthz' });
    assert.equal(live.status, 200, live.body);
  });
});
