import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { decodeJwt, SignJWT } from 'jose';
import { createApplication } from '../../src/core/admin/applications.ts';
import { installAuth } from '../../src/http/auth.ts';
import { installErrorHandling } from '../../src/http/errors.ts';
import { type Harness, type InjectResult, startHarness } from '../helpers/harness.ts';
import { assertError, type RouteInfo } from './assertions.ts';
import { appRoutes } from './route-table.ts';

/** Every route that needs a bearer token, as routes/index.ts registers them. */
const EXPECTED_AUTHENTICATED = [
  'POST /api/v1/account/applications/scoped-token',
  'GET /api/v1/account/applications/scoped-token/info',
  'POST /api/v1/account/applications/widget-token',
  'GET /api/v1/integrations/definitions/sources',
  'GET /api/v1/integrations/definitions/sources/:id',
  'POST /api/v1/integrations/connectors',
  'GET /api/v1/integrations/connectors',
  'GET /api/v1/integrations/connectors/:id',
  'PUT /api/v1/integrations/connectors/:id',
  'DELETE /api/v1/integrations/connectors/:id',
  'POST /api/v1/integrations/connectors/check',
  'POST /api/v1/integrations/connectors/:id/check',
  'POST /api/v1/integrations/connectors/:id/execute',
  'GET /api/v1/integrations/templates/sources',
  'POST /api/v1/integrations/templates/sources',
  'GET /api/v1/integrations/templates/sources/:id',
  'GET /api/v1/integrations/templates/sources/global',
  'PATCH /api/v1/integrations/templates/sources/:id',
  'DELETE /api/v1/integrations/templates/sources/:id',
  'PUT /api/v1/oauth/credentials',
  'POST /api/v1/integrations/connectors/oauth/initiate',
  'POST /mcp',
  'DELETE /api/v1/oauth/credentials/connector_type/:connector_type',
  'GET /api/v1/integrations/connectors/:id/inspect',
  'GET /api/v1/organizations/:organization_id/credentials',
  'GET /api/v1/workspaces',
  'GET /api/v1/workspaces/stats',
  'GET /api/v1/workspaces/:workspace_id',
  'PUT /api/v1/workspaces/:workspace_id',
  'DELETE /api/v1/workspaces/:workspace_id',
  'GET /api/v1/skills',
  'GET /api/v1/skills/search',
  'GET /api/v1/skills/docs',
].sort();

/** The connect page's API: a widget token and no other (test/http/connect-api.test.ts). */
const EXPECTED_WIDGET = [
  'GET /connect/api/session',
  'POST /connect/api/check',
  'POST /connect/api/connectors',
  'GET /connect/api/connectors/:id',
  'POST /connect/api/oauth',
].sort();

/**
 * The routes that answer without a token: health, the token endpoint, and the API description (the OpenAPI
 * document and the docs UI, which holds no tenant data and is read by SDK generators before they have a token).
 */
const EXPECTED_PUBLIC = [
  'GET /healthz',
  'GET /readyz',
  'GET /api/v1/openapi.json',
  'POST /api/v1/account/applications/token',
  // The consent flow's callback: the signed, single-use state is its credential (test/http/oauth-consent.test.ts).
  'GET /api/v1/integrations/connectors/oauth/callback',
  // A signed, expiring download link is its own credential (test/e2e/mcp.test.ts, test/http/download-link.test.ts).
  'GET /api/v1/downloads',
  'GET /docs',
  'GET /docs/static/*',
  'GET /docs/json',
  'GET /docs/yaml',
  'GET /docs/static/index.html',
  'GET /docs/static/swagger-initializer.js',
  // The connect page: HTML, its script and style sheet, icons; it holds no data (its API takes a widget token).
  'GET /connect',
  'GET /connect/oauth-done',
  'GET /connect/assets/:name',
  'GET /connect/icons/:file',
].sort();

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

describe('authentication of every private route', () => {
  let h: Harness;
  let token: string;
  let applicationId: string;
  let all: RouteInfo[];
  let authRoutes: RouteInfo[];
  let widgetRoutes: RouteInfo[];

  before(async () => {
    h = await startHarness();
    token = await h.token();
    applicationId = String(decodeJwt(token).sub);
    all = await appRoutes(h.deps);
    authRoutes = all.filter((r) => r.auth && !r.widget);
    widgetRoutes = all.filter((r) => r.widget);
  });
  after(() => h.close());

  /** Calls a route with a concrete URL; write routes get an invalid body, so a 401 proves auth runs first. */
  const call = (route: RouteInfo, headers: Record<string, string>): Promise<InjectResult> => {
    const url = route.url.replace(/:[a-z_]+/g, randomUUID());
    const write = route.method === 'POST' || route.method === 'PUT';
    return h.inject({
      method: route.method as 'GET' | 'POST' | 'PUT' | 'DELETE',
      url,
      headers,
      ...(write ? { body: { not_a_field: true } } : {}),
    });
  };

  const expect401Everywhere = async (headers: Record<string, string>, message?: RegExp) => {
    assert.ok(authRoutes.length >= EXPECTED_AUTHENTICATED.length);
    for (const route of authRoutes) {
      const res = await call(route, headers);
      try {
        assertError(res, 401, 'UNAUTHENTICATED');
        assert.deepEqual(Object.keys(res.json).sort(), ['code', 'errors', 'message', 'request_id']);
        if (message) assert.match(res.json.message, message);
      } catch (err) {
        (err as Error).message = `${route.method} ${route.url}: ${(err as Error).message}`;
        throw err;
      }
    }
  };

  test('the route table has exactly the expected private and public routes', () => {
    const key = (r: RouteInfo) => `${r.method} ${r.url}`;
    assert.deepEqual(
      all
        .filter((r) => r.auth && !r.widget)
        .map(key)
        .sort(),
      EXPECTED_AUTHENTICATED,
    );
    assert.deepEqual(
      all
        .filter((r) => r.widget)
        .map(key)
        .sort(),
      EXPECTED_WIDGET,
    );
    assert.deepEqual(
      all
        .filter((r) => !r.auth)
        .map(key)
        .sort(),
      EXPECTED_PUBLIC,
    );
  });

  test('the connect page API refuses an application token, and answers 401 without one', async () => {
    assert.equal(widgetRoutes.length, EXPECTED_WIDGET.length);
    for (const route of widgetRoutes) {
      assertError(await call(route, { authorization: `Bearer ${token}` }), 401, 'UNAUTHENTICATED');
      assertError(await call(route, {}), 401, 'UNAUTHENTICATED');
    }
  });

  test('a valid application token gets past authentication on every private route', async () => {
    for (const route of authRoutes) {
      const res = await call(route, { authorization: `Bearer ${token}` });
      assert.notEqual(res.status, 401, `${route.method} ${route.url}: ${res.body}`);
      assert.notEqual(res.status, 500, `${route.method} ${route.url}: ${res.body}`);
    }
  });

  test('no Authorization header: 401 UNAUTHENTICATED with the error body and a matching request_id', async () => {
    await expect401Everywhere({}, /Authorization/);
  });

  test('Basic credentials: 401', async () => {
    await expect401Everywhere({ authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` });
  });

  test('the bare token without the Bearer scheme: 401', async () => {
    await expect401Everywhere({ authorization: token });
  });

  test('a garbage bearer token: 401', async () => {
    await expect401Everywhere({ authorization: 'Bearer not-a-jwt' });
  });

  test('a token whose org claim was changed (signature kept): 401', async () => {
    const other = await h.otherOrg();
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(String(payload), 'base64url').toString('utf8'));
    assert.equal(claims.org, h.boot.organization_id);
    const tampered = `${header}.${b64url({ ...claims, org: other.organizationId })}.${signature}`;
    await expect401Everywhere({ authorization: `Bearer ${tampered}` });
  });

  test('a token signed with another key: 401', async () => {
    const forged = await new SignJWT({ org: h.boot.organization_id, typ: 'application' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('ces')
      .setAudience('ces-api')
      .setSubject(applicationId)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(randomBytes(32));
    await expect401Everywhere({ authorization: `Bearer ${forged}` }, /invalid/i);
  });

  test('an alg:none token carrying valid claims: 401', async () => {
    const claims = decodeJwt(token);
    const unsigned = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`;
    await expect401Everywhere({ authorization: `Bearer ${unsigned}` });
    // The same with the genuine signature left in place.
    const withSig = `${b64url({ alg: 'none', typ: 'JWT' })}.${token.split('.')[1]}.${token.split('.')[2]}`;
    await expect401Everywhere({ authorization: `Bearer ${withSig}` });
  });

  test('an expired token signed with the real key: 401 saying it expired', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ org: h.boot.organization_id, typ: 'application' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('ces')
      .setAudience('ces-api')
      .setSubject(applicationId)
      .setIssuedAt(now - 3600)
      .setExpirationTime(now - 60)
      .sign(h.deps.secrets.jwtSigningKey);
    await expect401Everywhere({ authorization: `Bearer ${expired}` }, /expired/i);
  });

  test('a real-key token for another audience or issuer: 401', async () => {
    const sign = (iss: string, aud: string) =>
      new SignJWT({ org: h.boot.organization_id, typ: 'application' })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(iss)
        .setAudience(aud)
        .setSubject(applicationId)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(h.deps.secrets.jwtSigningKey);
    await expect401Everywhere({ authorization: `Bearer ${await sign('ces', 'someone-else')}` });
    await expect401Everywhere({ authorization: `Bearer ${await sign('not-ces', 'ces-api')}` });
  });

  test('a real-key token naming an organization the application is not a member of: 401', async () => {
    const other = await h.otherOrg();
    const crossOrg = await new SignJWT({ org: other.organizationId, typ: 'application' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('ces')
      .setAudience('ces-api')
      .setSubject(applicationId)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(h.deps.secrets.jwtSigningKey);
    await expect401Everywhere({ authorization: `Bearer ${crossOrg}` });
  });

  test('a token of a revoked application stops working at once: 401', async () => {
    const created = await createApplication(h.deps.store, h.deps.secrets.clientSecretPepper, {
      name: 'to-revoke',
      organizationIds: [h.boot.organization_id],
      now: new Date().toISOString(),
    });
    const res = await h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/token',
      body: { client_id: created.client_id, client_secret: created.client_secret },
    });
    assert.equal(res.status, 200, res.body);
    const doomed = res.json.access_token as string;
    const works = await h.inject({ method: 'GET', url: '/api/v1/workspaces', token: doomed });
    assert.equal(works.status, 200, works.body);

    const revoked = await h.deps.store.applications.revoke(
      h.boot.organization_id,
      created.client_id,
      new Date().toISOString(),
    );
    assert.equal(revoked, true);
    await expect401Everywhere({ authorization: `Bearer ${doomed}` }, /revoked/i);
    // Other applications of the organization are unaffected.
    const still = await h.inject({ method: 'GET', url: '/api/v1/workspaces', token });
    assert.equal(still.status, 200, still.body);
  });

  test('public routes answer without a token', async () => {
    const health = await h.inject({ method: 'GET', url: '/healthz' });
    assert.equal(health.status, 200, health.body);
    assert.deepEqual(health.json, { status: 'ok' });

    const ready = await h.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.status, 200, ready.body);
    assert.deepEqual(ready.json, { status: 'ready' });

    const doc = await h.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    assert.equal(doc.status, 200, doc.body);
    assert.equal(doc.json.openapi, '3.1.0');

    const tok = await h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/token',
      body: { client_id: h.boot.client_id, client_secret: h.boot.client_secret },
    });
    assert.equal(tok.status, 200, tok.body);
    assert.equal(typeof tok.json.access_token, 'string');

    // The docs UI and its copies of the document are public too, and describe the API without tenant data.
    const ui = await h.inject({ method: 'GET', url: '/docs' });
    assert.equal(ui.status, 200, ui.body);
    assert.match(String(ui.headers['content-type']), /^text\/html/);
    const json = await h.inject({ method: 'GET', url: '/docs/json' });
    assert.equal(json.status, 200, json.body);
    assert.equal(json.json.openapi, '3.1.0');
    assert.ok(!json.body.includes(h.boot.organization_id), 'the API description names an organization');
  });

  test('a route outside /api/v1 needs a token unless it is marked public', async () => {
    // The policy is the route's own mark, not its prefix: a route added anywhere is private by default.
    const app = Fastify();
    installErrorHandling(app);
    installAuth(app, h.deps);
    app.get('/elsewhere', async () => ({ ok: true }));
    app.get('/elsewhere/public', { config: { auth: false } }, async () => ({ ok: true }));
    try {
      const denied = await app.inject({ method: 'GET', url: '/elsewhere' });
      assert.equal(denied.statusCode, 401, denied.body);
      assert.equal(denied.json().code, 'UNAUTHENTICATED');
      const allowed = await app.inject({
        method: 'GET',
        url: '/elsewhere',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(allowed.statusCode, 200, allowed.body);
      const open = await app.inject({ method: 'GET', url: '/elsewhere/public' });
      assert.equal(open.statusCode, 200, open.body);
    } finally {
      await app.close();
    }
  });
});
