// Widget tokens (POST /api/v1/account/applications/widget-token) and the connect page's API (/connect/api/*):
// what a widget token may do (its workspace, the templates its tags select) and may not (any other route).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DefinitionRegistry } from '../../src/connectors/registry.ts';
import {
  GITHUB_FAKE_DEFAULT_TOKEN,
  type GithubFake,
  startGithubFake,
} from '../connectors/github/fake/index.ts';
import { type OAuthFake, startOAuthFake } from '../fakes/oauth/index.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { consentAtProvider, OAUTH_DEMO_ID, oauthDemoDefinition } from '../helpers/oauth.ts';
import { assertMatchesReference } from '../helpers/reference-spec.ts';
import { assertError } from './assertions.ts';

const WIDGET = '/api/v1/account/applications/widget-token';
const ORIGIN = 'https://app.example.com';
const PUBLIC = 'http://ces.test';

describe('widget tokens and the connect page API', () => {
  let github: GithubFake;
  let oauth: OAuthFake;
  let h: Harness;
  let token: string;
  let githubTemplate: string;
  let oauthTemplate: string;
  let githubId: string;

  before(async () => {
    github = await startGithubFake({ tokens: [GITHUB_FAKE_DEFAULT_TOKEN] });
    oauth = await startOAuthFake({
      requirePkce: true,
      redirectUris: [`${PUBLIC}/api/v1/integrations/connectors/oauth/callback`],
    });
    const defaults = DefinitionRegistry.default();
    githubId = defaults.bySlug('github')!.id;
    h = await startHarness(
      {
        CES_SYNC_ENABLED: 'false',
        CES_PUBLIC_URL: PUBLIC,
        CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: github.url, oauthdemo: oauth.apiUrl }),
      },
      { registry: new DefinitionRegistry([defaults.bySlug('github')!, oauthDemoDefinition()]) },
    );
    token = await h.token();
    const template = async (body: Record<string, unknown>) => {
      const res = await h.inject({
        method: 'POST',
        url: '/api/v1/integrations/templates/sources',
        token,
        body,
      });
      assert.equal(res.status, 200, res.body);
      return res.json.id as string;
    };
    githubTemplate = await template({
      actor_definition_id: githubId,
      partial_default_config: { repositories: ['ces-demo/widgets'] },
      name: 'GitHub (widgets)',
      tags: ['code'],
    });
    oauthTemplate = await template({
      actor_definition_id: OAUTH_DEMO_ID,
      partial_default_config: { subdomain: 'acme' },
      name: 'OAuth Demo',
      tags: ['crm'],
    });
    const app = await h.inject({
      method: 'PUT',
      url: '/api/v1/oauth/credentials',
      token,
      body: {
        connector_type: 'oauthdemo',
        configuration: { client_id: oauth.clientId, client_secret: oauth.clientSecret },
      },
    });
    assert.equal(app.status, 200, app.body);
  });
  after(async () => {
    await h.close();
    await github.close();
    await oauth.close();
  });

  const widgetToken = async (body: Record<string, unknown> = {}) => {
    const res = await h.inject({
      method: 'POST',
      url: WIDGET,
      token,
      body: { workspace_name: 'customer-1', allowed_origin: ORIGIN, ...body },
    });
    assert.equal(res.status, 200, res.body);
    return res.json.token as string;
  };
  const api = (method: 'GET' | 'POST', url: string, widget: string, body?: unknown) =>
    h.inject({ method, url, headers: { authorization: `Bearer ${widget}` }, ...(body ? { body } : {}) });

  test('widget-token answers the reference shape, a connect URL, and creates the workspace', async () => {
    const res = await h.inject({
      method: 'POST',
      url: WIDGET,
      token,
      body: {
        workspace_name: 'customer-new',
        allowed_origin: ORIGIN,
        region_id: null,
        selected_source_template_tags: ['code'],
        selected_source_template_tags_mode: 'all',
        selected_connection_template_tags: [],
        selected_connection_template_tags_mode: null,
      },
    });
    assert.equal(res.status, 200, res.body);
    assertMatchesReference('POST', WIDGET, 200, res.json);
    assert.equal(res.json.expires_in, 900);
    const connect = new URL(res.json.connect_url);
    assert.equal(`${connect.origin}${connect.pathname}`, `${PUBLIC}/connect`);
    assert.equal(connect.searchParams.get('origin'), ORIGIN);
    assert.equal(connect.hash, `#token=${res.json.token}`);
    const ws = await h.inject({ method: 'GET', url: '/api/v1/workspaces?name_contains=customer-new', token });
    assert.equal(ws.json.data.length, 1);
  });

  test('widget-token refuses a bad origin, a missing workspace, and a scoped token', async () => {
    for (const origin of [
      'app.example.com',
      'https://app.example.com/path',
      'ftp://x.example',
      'https://a:b@x.example',
      // Each of these the URL parser takes as a host, and each would change a frame-ancestors source list.
      'https://*',
      'https://*.example.com',
      'https://app".example.com',
      "https://app'.example.com",
      'https://app.example.com;script-src',
      'https://app.example.com,https://evil.example',
      'https://app.example.com ',
      'https://app.example.com?x=1',
      'https://app.example.com#x',
      'https://app.example.com:0',
      'https://app.example.com:65536',
      'https://[::1]:3000',
      'https://1.2.3',
      // In clear to another machine: whatever the page posts there would cross the network readable.
      'http://app.example.com',
    ]) {
      const res = await h.inject({
        method: 'POST',
        url: WIDGET,
        token,
        body: { workspace_name: 'w', allowed_origin: origin },
      });
      assertError(res, 422, 'VALIDATION_ERROR');
      assert.equal(res.json.errors[0].field, 'allowed_origin', origin);
    }
    assertError(
      await h.inject({ method: 'POST', url: WIDGET, token, body: { allowed_origin: ORIGIN } }),
      422,
      'VALIDATION_ERROR',
    );
    const scoped = await h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/scoped-token',
      token,
      body: { workspace_name: 'customer-1' },
    });
    assertError(
      await h.inject({
        method: 'POST',
        url: WIDGET,
        token: scoped.json.token,
        body: { workspace_name: 'customer-1', allowed_origin: ORIGIN },
      }),
      403,
      'FORBIDDEN',
    );
    assertError(
      await h.inject({ method: 'POST', url: WIDGET, body: { workspace_name: 'w', allowed_origin: ORIGIN } }),
      401,
      'UNAUTHENTICATED',
    );
  });

  test('widget-token keeps an origin as a browser writes it: lower-case, without its default port', async () => {
    for (const [given, kept] of [
      ['HTTPS://App.Example.COM:443/', 'https://app.example.com'],
      ['https://app.example.com:8443', 'https://app.example.com:8443'],
      ['http://localhost:3000', 'http://localhost:3000'],
      ['http://127.0.0.1:80', 'http://127.0.0.1'],
    ]) {
      const res = await h.inject({
        method: 'POST',
        url: WIDGET,
        token,
        body: { workspace_name: 'customer-1', allowed_origin: given },
      });
      assert.equal(res.status, 200, res.body);
      assert.equal(new URL(res.json.connect_url).searchParams.get('origin'), kept);
      const session = await api('GET', '/connect/api/session', res.json.token);
      assert.equal(session.json.allowed_origin, kept);
    }
  });

  test("the session lists the templates the token's tags select, with forms and consent options", async () => {
    const all = await api('GET', '/connect/api/session', await widgetToken());
    assert.equal(all.status, 200, all.body);
    assert.equal(all.json.workspace_name, 'customer-1');
    assert.equal(all.json.allowed_origin, ORIGIN);
    const byType = Object.fromEntries(
      all.json.templates.map((t: { connector_type: string }) => [t.connector_type, t]),
    );
    assert.deepEqual(Object.keys(byType).sort(), ['github', 'oauthdemo']);
    const gh = byType.github;
    assert.equal(gh.id, githubTemplate);
    assert.equal(gh.icon_url, `/connect/icons/${githubId}.svg`);
    const pat = gh.credential_options.find((o: { title: string }) => o.title === 'PAT Credentials');
    assert.equal(pat.kind, 'form');
    assert.deepEqual(
      pat.fields.map((f: { name: string; secret: boolean; required: boolean }) => [
        f.name,
        f.secret,
        f.required,
      ]),
      [['personal_access_token', true, true]],
    );
    const demo = byType.oauthdemo;
    assert.deepEqual(
      demo.credential_options.map((o: { title: string; kind: string; fields: unknown[] }) => [
        o.title,
        o.kind,
        o.fields.length,
      ]),
      [['OAuth2.0', 'oauth', 0]],
      "an option renewed with the app's secret is offered as consent only",
    );
    assert.deepEqual(demo.credential_options[0].environment, [], 'the template fixes the subdomain');

    const code = await api(
      'GET',
      '/connect/api/session',
      await widgetToken({ selected_source_template_tags: ['code'] }),
    );
    assert.deepEqual(
      code.json.templates.map((t: { id: string }) => t.id),
      [githubTemplate],
    );
    const none = await api(
      'GET',
      '/connect/api/session',
      await widgetToken({
        selected_source_template_tags: ['code', 'crm'],
        selected_source_template_tags_mode: 'all',
      }),
    );
    assert.deepEqual(none.json.templates, []);
  });

  test('check then create a connector from a template in the token’s workspace; it executes', async () => {
    const widget = await widgetToken();
    const bad = await api('POST', '/connect/api/check', widget, {
      template_id: githubTemplate,
      credentials: { personal_access_token: 'ghp_wrong' },
    });
    assert.equal(bad.status, 200, bad.body);
    assert.equal(bad.json.status, 'failed');
    const good = await api('POST', '/connect/api/check', widget, {
      template_id: githubTemplate,
      option: 'PAT Credentials',
      credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
    });
    assert.equal(good.json.status, 'succeeded', good.body);

    const made = await api('POST', '/connect/api/connectors', widget, {
      template_id: githubTemplate,
      name: 'My GitHub',
      credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
    });
    assert.equal(made.status, 201, made.body);
    assert.equal(made.json.name, 'My GitHub');
    assert.ok(!made.body.includes(GITHUB_FAKE_DEFAULT_TOKEN));
    const mine = await api('GET', `/connect/api/connectors/${made.json.id}`, widget);
    assert.equal(mine.status, 200, mine.body);

    const stored = await h.inject({
      method: 'GET',
      url: `/api/v1/integrations/connectors/${made.json.id}`,
      token,
    });
    assert.equal(stored.json.source_template.id, githubTemplate);
    assert.deepEqual(stored.json.replication_config, { repositories: ['ces-demo/widgets'] });
    const run = await h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${made.json.id}/execute`,
      token,
      body: { entity: 'issues', action: 'list', params: { owner: 'ces-demo', repo: 'widgets' } },
    });
    assert.equal(run.status, 200, run.body);

    // Another workspace's token sees neither the connector nor a template its tags do not select.
    const other = await widgetToken({ workspace_name: 'customer-2', selected_source_template_tags: ['crm'] });
    // (As for a scoped token: the connector exists, in another workspace of the organization.)
    assertError(
      await api('GET', `/connect/api/connectors/${made.json.id}`, other),
      403,
      'WORKSPACE_SCOPE_VIOLATION',
    );
    assertError(
      await api('POST', '/connect/api/connectors', other, {
        template_id: githubTemplate,
        credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
      }),
      404,
      'SOURCE_TEMPLATE_NOT_FOUND',
    );
  });

  test('check and create take credential values within the API’s own bound, and refuse larger ones', async () => {
    const widget = await widgetToken();
    const before = github.requests.length;
    for (const url of ['/connect/api/check', '/connect/api/connectors']) {
      const res = await api('POST', url, widget, {
        template_id: githubTemplate,
        credentials: { personal_access_token: 'x'.repeat(20_000) },
      });
      assertError(res, 422, 'VALIDATION_ERROR');
      assert.match(res.body, /credentials/);
    }
    assert.equal(github.requests.length, before, 'nothing reached the provider');
  });

  test('a consent flow from the connect page comes back to the connect page with the connector id', async () => {
    const widget = await widgetToken();
    const nonce = 'n0nce-of-the-waiting-page_1';
    // With CES_PUBLIC_URL set, every URL of the flow is built from it, whatever Host the request names.
    const res = await h.inject({
      method: 'POST',
      url: '/connect/api/oauth',
      headers: { authorization: `Bearer ${widget}`, host: 'evil.example' },
      body: { template_id: oauthTemplate, name: 'Demo', nonce },
    });
    assert.equal(res.status, 200, res.body);
    assert.equal(
      new URL(res.json.consent_url).searchParams.get('redirect_uri'),
      `${PUBLIC}/api/v1/integrations/connectors/oauth/callback`,
    );
    const consentUrl = new URL(res.json.consent_url);
    const back = await consentAtProvider(oauth, consentUrl, 'approve');
    const done = await h.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    assert.equal(done.status, 302, done.body);
    const landing = new URL(done.headers.location as string);
    assert.equal(`${landing.origin}${landing.pathname}`, `${PUBLIC}/connect/oauth-done`);
    assert.equal(landing.searchParams.get('nonce'), nonce, "the done page carries the waiting page's nonce");
    const id = landing.searchParams.get('connector_id') as string;
    const got = await api('GET', `/connect/api/connectors/${id}`, widget);
    assert.equal(got.status, 200, got.body);
    assert.equal(got.json.name, 'Demo');
  });

  test('a consent flow needs the waiting page’s nonce', async () => {
    const widget = await widgetToken();
    for (const nonce of [undefined, '', 'short', 'has spaces in it, 22+ characters', 'x'.repeat(129)]) {
      const res = await api('POST', '/connect/api/oauth', widget, { template_id: oauthTemplate, nonce });
      assertError(res, 422, 'VALIDATION_ERROR');
    }
  });

  test('a widget token is refused by every other route, and stops working when its application is revoked', async () => {
    const widget = await widgetToken();
    for (const url of [
      '/api/v1/workspaces',
      '/api/v1/integrations/connectors',
      '/api/v1/integrations/templates/sources',
    ]) {
      assertError(
        await h.inject({ method: 'GET', url, headers: { authorization: `Bearer ${widget}` } }),
        401,
        'UNAUTHENTICATED',
      );
    }
    // An API token is refused by the connect page's API.
    assertError(await api('GET', '/connect/api/session', token), 401, 'UNAUTHENTICATED');
    const other = await h.otherOrg();
    const theirs = await h.inject({
      method: 'POST',
      url: WIDGET,
      token: other.token,
      body: { workspace_name: 'w', allowed_origin: ORIGIN },
    });
    assert.equal((await api('GET', '/connect/api/session', theirs.json.token)).status, 200);
    const app = await h.deps.store.applications.findByClientIdForLogin(other.clientId);
    await h.deps.store.applications.revoke(other.organizationId, app!.id, new Date().toISOString());
    assertError(await api('GET', '/connect/api/session', theirs.json.token), 401, 'UNAUTHENTICATED');
  });

  test('the page and its assets are served by ces under a strict Content-Security-Policy', async () => {
    const page = await h.inject({ method: 'GET', url: `/connect?origin=${encodeURIComponent(ORIGIN)}` });
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, new RegExp(`frame-ancestors ${ORIGIN}`));
    assert.doesNotMatch(page.body, /https?:\/\/(?!www\.w3\.org)/, 'the page loads nothing from elsewhere');
    for (const origin of [
      'javascript:alert(1)',
      'https://*',
      'https://app.example.com;script-src *',
      "https://app.example.com 'unsafe-inline'",
      'https://a".example.com',
      'http://app.example.com',
    ]) {
      const bare = await h.inject({ method: 'GET', url: `/connect?origin=${encodeURIComponent(origin)}` });
      const policy = String(bare.headers['content-security-policy']);
      assert.match(policy, /frame-ancestors 'none'$/, origin);
      assert.equal(policy.split(';').length, 8, `one directive more from ${origin}`);
    }
    const normalized = await h.inject({
      method: 'GET',
      url: `/connect?origin=${encodeURIComponent('HTTPS://App.Example.com:443')}`,
    });
    assert.match(
      String(normalized.headers['content-security-policy']),
      /frame-ancestors https:\/\/app\.example\.com$/,
    );
    for (const asset of ['connect.js', 'connect.css']) {
      const res = await h.inject({ method: 'GET', url: `/connect/assets/${asset}` });
      assert.equal(res.status, 200, asset);
    }
    assert.equal((await h.inject({ method: 'GET', url: '/connect/assets/../deps.ts' })).status, 404);
    assertError(await h.inject({ method: 'GET', url: '/connect/assets/deps.ts' }), 404, 'NOT_FOUND');
    const icon = await h.inject({ method: 'GET', url: `/connect/icons/${githubId}.svg` });
    assert.equal(icon.status, 200);
    assert.equal(icon.headers['content-type'], 'image/svg+xml');
    assert.match(icon.body, /^<svg [^>]*>.*>G<\/text><\/svg>$/);
    assertError(await h.inject({ method: 'GET', url: '/connect/icons/nope.svg' }), 404, 'NOT_FOUND');
  });
});
