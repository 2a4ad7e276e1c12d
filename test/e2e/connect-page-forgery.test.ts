// The consent flow against other sites, in Chromium: a page of another origin that opens /connect/oauth-done
// with a made-up result cannot change what a waiting connect page shows, and a consent flow begun with a forged
// Host header still ends on ces. The other site is a server of its own on another port (another origin).
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DefinitionRegistry } from '../../src/connectors/registry.ts';
import { type OAuthFake, startOAuthFake } from '../fakes/oauth/index.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { OAUTH_DEMO_ID, oauthDemoDefinition } from '../helpers/oauth.ts';

const CALLBACK = '/api/v1/integrations/connectors/oauth/callback';
const WAITING = 'Continue in the sign-in window. If you closed it, you can start again.';

/** The other site: its page opens ces's done page with a result of its making. */
function otherSite(cesOrigin: string, seen: string[]): Server {
  const spoof = new URL('/connect/oauth-done', cesOrigin);
  spoof.searchParams.set('error', 'account_locked');
  spoof.searchParams.set('error_description', 'SPOOFED: call +1 555 0100 to unlock your account');
  return createServer((req, res) => {
    seen.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Other site</title></head><body>
<button id="spoof" type="button">Win a prize</button>
<script>
  document.getElementById('spoof').addEventListener('click', () => window.open(${JSON.stringify(spoof.href)}));
</script></body></html>`);
  });
}

describe('the connect page against another site, in Chromium', () => {
  let oauth: OAuthFake;
  let h: Harness;
  let ces: string;
  let cesPort: number;
  let other: Server;
  let otherOrigin: string;
  /** Every request the other site received, by path. */
  const seen: string[] = [];
  let browser: Browser;
  let token: string;

  before(async () => {
    oauth = await startOAuthFake({ requirePkce: true });
    // No CES_PUBLIC_URL: the browser reaches ces over loopback, as a developer's does.
    h = await startHarness(
      { CES_UPSTREAM_OVERRIDES: JSON.stringify({ oauthdemo: oauth.apiUrl }), CES_SYNC_ENABLED: 'false' },
      { registry: new DefinitionRegistry([oauthDemoDefinition()]) },
    );
    ces = await h.app.listen({ host: '127.0.0.1', port: 0 });
    cesPort = Number(new URL(ces).port);
    other = otherSite(ces, seen);
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherOrigin = `http://localhost:${(other.address() as AddressInfo).port}`;
    // A provider app that accepts more than one redirect URI (several registered, or a lenient match), here
    // also one on the other site: then only ces itself keeps a flow's callback its own.
    oauth.redirectUris = [`${ces}${CALLBACK}`, `${otherOrigin}${CALLBACK}`];

    token = await h.token();
    const call = async (method: 'POST' | 'PUT', url: string, body: unknown) => {
      const res = await h.inject({ method, url, token, body });
      assert.equal(res.status, 200, res.body);
    };
    await call('POST', '/api/v1/integrations/templates/sources', {
      actor_definition_id: OAUTH_DEMO_ID,
      partial_default_config: { subdomain: 'acme' },
      name: 'OAuth Demo',
    });
    await call('PUT', '/api/v1/oauth/credentials', {
      connector_type: 'oauthdemo',
      configuration: { client_id: oauth.clientId, client_secret: oauth.clientSecret },
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => other?.close(resolve));
    await h?.close();
    await oauth?.close();
  });

  async function widgetToken(): Promise<string> {
    const res = await h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/widget-token',
      token,
      body: { workspace_name: 'customer-7', allowed_origin: ces },
    });
    assert.equal(res.status, 200, res.body);
    return res.json.token as string;
  }

  const text = (page: Page, selector: string) => page.locator(selector).innerText();

  test('a made-up result from another site is ignored; the real flow still ends connected', async () => {
    const context: BrowserContext = await browser.newContext();
    const page = await context.newPage();
    page.on('pageerror', (err) => assert.fail(`page error: ${err.message}`));
    // Opened on its own (a link an agent hands its user), so it shares its storage with any ces window.
    await page.goto(`${ces}/connect#token=${await widgetToken()}`);
    await page.click('[data-template="oauthdemo"]');
    const [popup] = await Promise.all([context.waitForEvent('page'), page.click('[data-action="oauth"]')]);
    await popup.waitForLoadState();
    assert.ok(popup.url().startsWith(oauth.authorizeUrl), popup.url());
    await page.locator('#status', { hasText: WAITING }).waitFor();

    // A listener of the test's own on the page's channel: it hears what the page's own listener hears.
    await page.evaluate(() => {
      const heard: unknown[] = [];
      (globalThis as unknown as { heard: unknown[] }).heard = heard;
      new BroadcastChannel('ces-connect-oauth').addEventListener('message', (e) =>
        heard.push((e as unknown as { data: unknown }).data),
      );
    });
    const site = await context.newPage();
    await site.goto(otherOrigin);
    const [spoofed] = await Promise.all([context.waitForEvent('page'), site.click('#spoof')]);
    await spoofed.waitForLoadState();
    assert.ok(spoofed.url().startsWith(`${ces}/connect/oauth-done`), spoofed.url());
    await page.waitForFunction(() => (globalThis as unknown as { heard: unknown[] }).heard.length > 0);
    const heard = await page.evaluate(() => (globalThis as unknown as { heard: unknown[] }).heard);
    assert.match(JSON.stringify(heard), /SPOOFED/, 'the made-up result reached the page');
    // One more turn of the page's event loop, so anything its listener began has shown.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    assert.equal(await text(page, '#alert'), '', 'the page shows nothing of the made-up result');
    assert.equal(await text(page, '#status'), WAITING, 'the page still waits for its own flow');
    assert.equal(await page.locator('#done').isVisible(), false);

    const closed = popup.waitForEvent('close', { timeout: 20_000 });
    await popup.click('button[value="approve"]');
    await closed;
    await page.locator('#done').waitFor();
    assert.equal(await text(page, '#done-title'), 'OAuth Demo is connected');
    assert.equal(await text(page, '#alert'), '');
    await context.close();
  });

  test('a consent flow begun with a forged Host header ends on ces, not on the site the Host names', async () => {
    // The end user holding a widget token asks for a flow with a Host of their choosing (no browser lets a
    // page set Host; any HTTP client does), and hands the consent URL to someone else.
    const widget = await widgetToken();
    const body = JSON.stringify({
      template_id: (await session(widget)).templates[0]!.id,
      nonce: 'n'.repeat(22),
    });
    const begun = await new Promise<{ status: number; json: { consent_url: string } }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: cesPort,
          method: 'POST',
          path: '/connect/api/oauth',
          headers: {
            host: new URL(otherOrigin).host,
            authorization: `Bearer ${widget}`,
            'content-type': 'application/json',
          },
        },
        (res) => {
          let raw = '';
          res.on('data', (c) => {
            raw += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(raw) }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    assert.equal(begun.status, 200, JSON.stringify(begun.json));

    const before = seen.length;
    const context = await browser.newContext();
    const victim = await context.newPage();
    await victim.goto(begun.json.consent_url);
    await victim.click('button[value="approve"]');
    // Wherever the provider's redirect and ces's lead the browser: ces's done page, or the other site.
    await victim.waitForURL(
      (url) => url.origin === otherOrigin || (url.origin === ces && url.pathname === '/connect/oauth-done'),
    );
    const landed = new URL(victim.url());
    assert.equal(landed.origin, ces, `the browser was sent to ${landed.href}`);
    assert.ok(landed.searchParams.get('connector_id'), landed.href);
    assert.deepEqual(seen.slice(before), [], 'the other site saw nothing of the flow');
    await context.close();
  });

  async function session(widget: string) {
    const res = await h.inject({
      method: 'GET',
      url: '/connect/api/session',
      headers: { authorization: `Bearer ${widget}` },
    });
    assert.equal(res.status, 200, res.body);
    return res.json as { templates: Array<{ id: string }> };
  }
});
