// What a consent flow needs from the server before it sends anyone to a provider: an address of its own that no
// request can choose (CES_PUBLIC_URL, or the loopback address a local request arrived on), and room under the caps
// on open flows per widget token and per workspace. Over real HTTP on loopback (the socket's addresses are what
// is checked), and through inject for a peer on another machine.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, beforeEach, describe, test } from 'node:test';
import { DefinitionRegistry } from '../../src/connectors/registry.ts';
import { type OAuthFake, startOAuthFake } from '../fakes/oauth/index.ts';
import { type Harness, type InjectResult, startHarness } from '../helpers/harness.ts';
import { consentAtProvider, OAUTH_DEMO_ID, oauthDemoDefinition } from '../helpers/oauth.ts';
import { assertError } from './assertions.ts';

const CALLBACK = '/api/v1/integrations/connectors/oauth/callback';
const INITIATE = '/api/v1/integrations/connectors/oauth/initiate';
const BACK = 'https://app.example.com/connected';
const NONCE = 'the-waiting-pages-nonce-0001';

describe('consent flows: the address they are built on, and the caps on open ones', () => {
  let fake: OAuthFake;
  let h: Harness;
  let ces: string;
  let port: number;
  let token: string;
  let template: string;
  let clockOffsetMs = 0;

  before(async () => {
    fake = await startOAuthFake({ requirePkce: true });
    h = await startHarness(
      {
        CES_UPSTREAM_OVERRIDES: JSON.stringify({ oauthdemo: fake.apiUrl }),
        CES_SYNC_ENABLED: 'false',
        CES_MAX_OPEN_CONSENTS_PER_WIDGET_TOKEN: '2',
        CES_MAX_OPEN_CONSENTS_PER_WORKSPACE: '3',
      },
      {
        registry: new DefinitionRegistry([oauthDemoDefinition()]),
        now: () => new Date(Date.now() + clockOffsetMs),
      },
    );
    ces = await h.app.listen({ host: '127.0.0.1', port: 0 });
    port = Number(new URL(ces).port);
    fake.redirectUris = [`${ces}${CALLBACK}`, `http://localhost:${port}${CALLBACK}`];
    token = await h.token();
    const app = await h.deps.store.applications.findByClientIdForLogin(h.boot.client_id);
    await h.deps.store.applications.setRedirectUrls(app!.id, [BACK], new Date().toISOString());
    const put = await h.inject({
      method: 'PUT',
      url: '/api/v1/oauth/credentials',
      token,
      body: {
        connector_type: 'oauthdemo',
        configuration: { client_id: fake.clientId, client_secret: fake.clientSecret },
      },
    });
    assert.equal(put.status, 200, put.body);
    const made = await h.inject({
      method: 'POST',
      url: '/api/v1/integrations/templates/sources',
      token,
      body: {
        actor_definition_id: OAUTH_DEMO_ID,
        partial_default_config: { subdomain: 'acme' },
        name: 'Demo',
      },
    });
    assert.equal(made.status, 200, made.body);
    template = made.json.id;
  });
  after(async () => {
    await h?.close();
    await fake?.close();
  });
  beforeEach(() => {
    clockOffsetMs = 0;
  });

  /** A request over real HTTP to ces's loopback address, with whatever Host header the test names. */
  function send(
    method: 'GET' | 'POST',
    path: string,
    opts: { host?: string; bearer?: string; body?: unknown } = {},
  ): Promise<InjectResult> {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const headers: Record<string, string> = { host: opts.host ?? `127.0.0.1:${port}` };
    if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
    if (payload !== undefined) headers['content-type'] = 'application/json';
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const body = raw.toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(body);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json, body, raw });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  const widgetToken = async (workspace: string) => {
    const res = await h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/widget-token',
      token,
      body: { workspace_name: workspace, allowed_origin: 'https://app.example.com' },
    });
    assert.equal(res.status, 200, res.body);
    return res.json.token as string;
  };
  const initiateBody = (workspace: string) => ({
    workspace_name: workspace,
    connector_type: 'oauthdemo',
    redirect_url: BACK,
    environment: { subdomain: 'acme' },
  });

  const consent = (consentUrl: string, decision: 'approve' | 'deny') =>
    consentAtProvider(fake, consentUrl, decision);

  test('from another machine, without CES_PUBLIC_URL, no consent flow begins or ends', async () => {
    const widget = await widgetToken('remote');
    // Host and X-Forwarded-For are the client's to write; only the TCP peer counts.
    const remote = (method: 'GET' | 'POST', url: string, authorization?: string, body?: unknown) =>
      h.app.inject({
        method,
        url,
        remoteAddress: '203.0.113.7',
        headers: {
          host: 'ces.example.com',
          'x-forwarded-for': '127.0.0.1',
          ...(authorization ? { authorization: `Bearer ${authorization}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });
    const answers = [
      await remote('POST', INITIATE, token, initiateBody('remote')),
      await remote('POST', '/connect/api/oauth', widget, { template_id: template, nonce: NONCE }),
      await remote('GET', `${CALLBACK}?state=s&code=c`),
    ];
    for (const res of answers) {
      const answer = {
        status: res.statusCode,
        headers: res.headers,
        body: res.body,
        raw: res.rawPayload,
        json: res.json(),
      };
      assertError(answer, 403, 'PUBLIC_URL_REQUIRED');
      assert.match(answer.json.message, /CES_PUBLIC_URL/);
      assert.equal(answer.json.errors[0].details.variable, 'CES_PUBLIC_URL');
    }
    const open = await h.query('SELECT id FROM oauth_states');
    assert.equal(open.length, 0, 'no state was stored');
  });

  test('over loopback, every URL of the flow is on the address the request arrived at, whatever Host says', async () => {
    const widget = await widgetToken('loopback');
    const begun = await send('POST', '/connect/api/oauth', {
      host: 'evil.example',
      bearer: widget,
      body: { template_id: template, name: 'Looped', nonce: NONCE },
    });
    assert.equal(begun.status, 200, begun.body);
    assert.equal(new URL(begun.json.consent_url).searchParams.get('redirect_uri'), `${ces}${CALLBACK}`);
    const back = await consent(begun.json.consent_url, 'approve');
    assert.equal(`${back.origin}${back.pathname}`, `${ces}${CALLBACK}`);
    const done = await send('GET', `${back.pathname}${back.search}`, { host: 'evil.example' });
    assert.equal(done.status, 302, done.body);
    const landing = new URL(done.headers.location as string);
    assert.equal(`${landing.origin}${landing.pathname}`, `${ces}/connect/oauth-done`);
    assert.equal(landing.searchParams.get('nonce'), NONCE);
    assert.ok(landing.searchParams.get('connector_id'), done.headers.location as string);

    // The API's own initiate too; and `localhost` on ces's own port names this machine as well.
    const api = await send('POST', INITIATE, {
      host: 'evil.example',
      bearer: token,
      body: initiateBody('loopback'),
    });
    assert.equal(api.status, 200, api.body);
    assert.equal(new URL(api.json.consent_url).searchParams.get('redirect_uri'), `${ces}${CALLBACK}`);
    const local = await send('POST', INITIATE, {
      host: `localhost:${port}`,
      bearer: token,
      body: initiateBody('loopback'),
    });
    assert.equal(
      new URL(local.json.consent_url).searchParams.get('redirect_uri'),
      `http://localhost:${port}${CALLBACK}`,
    );
    const elsewhere = await send('POST', INITIATE, {
      host: `localhost:${port + 1}`,
      bearer: token,
      body: initiateBody('loopback'),
    });
    assert.equal(new URL(elsewhere.json.consent_url).searchParams.get('redirect_uri'), `${ces}${CALLBACK}`);
  });

  test('a widget token holds at most its cap of open flows; a workspace at most its own', async () => {
    const [a, b] = [await widgetToken('capped'), await widgetToken('capped')];
    const begin = (widget: string) =>
      send('POST', '/connect/api/oauth', { bearer: widget, body: { template_id: template, nonce: NONCE } });
    for (let i = 0; i < 2; i++) assert.equal((await begin(a)).status, 200);
    const third = await begin(a);
    assertError(third, 429, 'RATE_LIMITED');
    assert.equal(third.json.errors[0].error_code, 'too_many_open_consent_flows');
    assert.deepEqual(third.json.errors[0].details, {
      limit: 2,
      variable: 'CES_MAX_OPEN_CONSENTS_PER_WIDGET_TOKEN',
    });
    const wait = Number(third.headers['retry-after']);
    assert.ok(wait > 0 && wait <= 900, `Retry-After ${wait}: until the oldest open flow expires`);

    // Another token of the workspace has room of its own, up to the workspace's cap of 3, which the API's own
    // flows count against too.
    assert.equal((await begin(b)).status, 200);
    const full = await begin(b);
    assertError(full, 429, 'RATE_LIMITED');
    assert.equal(full.json.errors[0].details.variable, 'CES_MAX_OPEN_CONSENTS_PER_WORKSPACE');
    assertError(
      await send('POST', INITIATE, { bearer: token, body: initiateBody('capped') }),
      429,
      'RATE_LIMITED',
    );
    // Another workspace is not held back.
    assert.equal((await begin(await widgetToken('capped-other'))).status, 200);
  });

  test('a completed flow no longer counts, nor does one that expired', async () => {
    const widget = await widgetToken('freed');
    const begin = () =>
      send('POST', '/connect/api/oauth', { bearer: widget, body: { template_id: template, nonce: NONCE } });
    const first = await begin();
    assert.equal((await begin()).status, 200);
    assertError(await begin(), 429, 'RATE_LIMITED');
    // The end user says no at the provider: the flow is over, its state spent.
    const back = await consent(first.json.consent_url, 'deny');
    assert.equal((await send('GET', `${back.pathname}${back.search}`)).status, 302);
    assert.equal((await begin()).status, 200);
    assertError(await begin(), 429, 'RATE_LIMITED');
    // Past the states' 15 minutes, none of them counts.
    clockOffsetMs = 16 * 60_000;
    assert.equal((await begin()).status, 200);
    assert.equal((await begin()).status, 200);
    assertError(await begin(), 429, 'RATE_LIMITED');
  });
});
