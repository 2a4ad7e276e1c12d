// The connect page in a real browser (Debian's Chromium through playwright-core): an embedding page of another
// origin gets a widget token, frames /connect, and an end user connects an API-key connector (GitHub fake) and
// an OAuth connector (the OAuth fake's consent page, clicked through in a popup). The embedding page receives the
// outcome events, and the connectors then execute. Screenshots of each step go to test-results/connect-page/
// (not committed).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Frame, Page } from 'playwright-core';
import { DefinitionRegistry } from '../../src/connectors/registry.ts';
import {
  GITHUB_FAKE_DEFAULT_TOKEN,
  type GithubFake,
  startGithubFake,
} from '../connectors/github/fake/index.ts';
import { type OAuthFake, startOAuthFake } from '../fakes/oauth/index.ts';
import { launchChromium } from '../helpers/chromium.ts';
import { type Harness, startHarness } from '../helpers/harness.ts';
import { OAUTH_DEMO_ID, oauthDemoDefinition } from '../helpers/oauth.ts';

const SHOTS = path.resolve(import.meta.dirname, '../../test-results/connect-page');

interface Received {
  type: string;
  message: string;
  data?: { id: string; name: string; connector_type?: string };
  error?: { code: string; message: string };
}

/** The application's page: frames the connect page and keeps every message it receives from it. */
function embeddingPage(connectUrl: string, cesOrigin: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme app</title></head><body>
<h1>Acme app: integrations</h1>
<iframe title="Connect an account" src="${connectUrl}" width="520" height="760"></iframe>
<script>
  window.received = [];
  window.addEventListener('message', (event) => {
    if (event.origin !== ${JSON.stringify(cesOrigin)}) return;
    window.received.push(event.data);
  });
</script></body></html>`;
}

describe('the connect page in Chromium', () => {
  let github: GithubFake;
  let oauth: OAuthFake;
  let h: Harness;
  let ces: string;
  let embed: Server;
  let embedOrigin: string;
  let browser: Browser;
  let token: string;
  /** The connect URL each embedding page load frames (a fresh widget token each time). */
  let nextConnectUrl = '';

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    github = await startGithubFake({ tokens: [GITHUB_FAKE_DEFAULT_TOKEN] });
    oauth = await startOAuthFake({ requirePkce: true });
    const defaults = DefinitionRegistry.default();
    h = await startHarness(
      {
        CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: github.url, oauthdemo: oauth.apiUrl }),
        CES_SYNC_ENABLED: 'false',
      },
      { registry: new DefinitionRegistry([defaults.bySlug('github')!, oauthDemoDefinition()]) },
    );
    // The browser talks to ces over real HTTP.
    ces = await h.app.listen({ host: '127.0.0.1', port: 0 });
    oauth.redirectUris = [`${ces}/api/v1/integrations/connectors/oauth/callback`];
    embed = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(embeddingPage(nextConnectUrl, ces));
    });
    await new Promise<void>((resolve) => embed.listen(0, '127.0.0.1', resolve));
    // Another origin than ces's (another port), as an application's own site is.
    embedOrigin = `http://localhost:${(embed.address() as AddressInfo).port}`;

    token = await h.token();
    const call = async (method: 'POST' | 'PUT', url: string, body: unknown) => {
      const res = await h.inject({ method, url, token, body });
      assert.equal(res.status, 200, res.body);
      return res.json;
    };
    await call('POST', '/api/v1/integrations/templates/sources', {
      actor_definition_id: defaults.bySlug('github')!.id,
      partial_default_config: { repositories: ['ces-demo/widgets'] },
      name: 'GitHub',
    });
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
    await new Promise((resolve) => embed?.close(resolve));
    await h?.close();
    await github?.close();
    await oauth?.close();
  });

  /** The application's backend: a widget token for its end user, and the page framing the connect URL. */
  async function openEmbedding(): Promise<{ page: Page; frame: Frame }> {
    const res = await h.inject({
      method: 'POST',
      url: '/api/v1/account/applications/widget-token',
      token,
      body: { workspace_name: 'customer-42', allowed_origin: embedOrigin },
    });
    assert.equal(res.status, 200, res.body);
    const connect = new URL(res.json.connect_url);
    // connect_url carries CES_PUBLIC_URL or the host the request came to; the browser reaches ces at `ces`.
    nextConnectUrl = `${ces}${connect.pathname}${connect.search}${connect.hash}`;
    const page = await browser.newPage({ viewport: { width: 640, height: 900 } });
    page.on('pageerror', (err) => assert.fail(`page error: ${err.message}`));
    await page.goto(embedOrigin);
    const frame = page.frames().find((f) => f.url().startsWith(`${ces}/connect`));
    assert.ok(frame, 'the connect page is framed');
    await frame.waitForSelector('[data-template="github"]');
    return { page, frame };
  }

  const received = (page: Page) =>
    page.evaluate(() => (globalThis as unknown as { received: Received[] }).received);

  async function waitForEvent(page: Page): Promise<Received> {
    await page.waitForFunction(
      () => (globalThis as unknown as { received: unknown[] }).received.length > 0,
      null,
      {
        timeout: 20_000,
      },
    );
    const [event] = await received(page);
    return event as Received;
  }

  test('an API-key connector: choose GitHub, test the token, connect; the application is told', async () => {
    const { page, frame } = await openEmbedding();
    await page.screenshot({ path: path.join(SHOTS, '1-list.png') });
    // The list is keyboard-usable: the template is a button, reached and pressed from the keyboard.
    await frame.focus('[data-template="github"]');
    await frame.press('[data-template="github"]', 'Enter');
    const input = frame.locator('input[name="personal_access_token"]');
    await input.waitFor();
    assert.equal(await input.getAttribute('type'), 'password', 'a secret field is masked');
    assert.ok(await frame.locator('label[for]').count(), 'fields are labelled');

    await input.fill('ghp_not_the_token');
    await frame.click('[data-action="check"]');
    // The status region ends with a tone: ok or error (while the test runs it says so, without one).
    await frame.waitForSelector('#status[data-tone="error"]');
    assert.match(await frame.locator('#status').innerText(), /failed/i);
    await page.screenshot({ path: path.join(SHOTS, '2-check-failed.png') });

    await input.fill(GITHUB_FAKE_DEFAULT_TOKEN);
    await frame.click('[data-action="check"]');
    await frame.waitForSelector('#status[data-tone="ok"]');
    assert.match(await frame.locator('#status').innerText(), /works/);
    await page.screenshot({ path: path.join(SHOTS, '3-check-succeeded.png') });
    await frame.fill('input[name="connection.name"]', 'Widgets repo');
    await frame.click('[data-action="connect"]');
    const event = await waitForEvent(page);
    await frame.locator('#done').waitFor();
    await page.screenshot({ path: path.join(SHOTS, '4-connected.png') });

    assert.equal(event.type, 'end_user_action_result');
    assert.equal(event.message, 'source_created');
    assert.equal(event.data?.name, 'Widgets repo');
    assert.ok(!JSON.stringify(event).includes(GITHUB_FAKE_DEFAULT_TOKEN), 'the event carries no secret');
    const run = await h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${event.data?.id}/execute`,
      token,
      body: { entity: 'issues', action: 'list', params: { owner: 'ces-demo', repo: 'widgets' } },
    });
    assert.equal(run.status, 200, run.body);
    await page.close();
  });

  test('an OAuth connector: consent in a popup on the provider’s page; the application is told', async () => {
    const { page, frame } = await openEmbedding();
    await frame.click('[data-template="oauthdemo"]');
    await frame.locator('[data-action="oauth"]').waitFor();
    await page.screenshot({ path: path.join(SHOTS, '5-oauth-option.png') });
    const [popup] = await Promise.all([
      page.context().waitForEvent('page'),
      frame.click('[data-action="oauth"]'),
    ]);
    await popup.waitForLoadState();
    assert.ok(popup.url().startsWith(oauth.authorizeUrl), popup.url());
    await popup.screenshot({ path: path.join(SHOTS, '6-consent-page.png') });
    const closed = popup.waitForEvent('close', { timeout: 20_000 });
    await popup.click('button[value="approve"]');
    const event = await waitForEvent(page);
    await closed;
    await frame.locator('#done').waitFor();
    await page.screenshot({ path: path.join(SHOTS, '7-oauth-connected.png') });

    assert.equal(event.message, 'source_created', JSON.stringify(event));
    assert.equal(event.data?.connector_type, 'oauthdemo');
    assert.equal(oauth.lastAuthorization?.codeChallengeMethod, 'S256');
    const run = await h.inject({
      method: 'POST',
      url: `/api/v1/integrations/connectors/${event.data?.id}/execute`,
      token,
      body: { entity: 'items', action: 'list', params: {} },
    });
    assert.equal(run.status, 200, run.body);
    await page.close();
  });

  test('a denied consent is reported to the application as source_create_error', async () => {
    const { page, frame } = await openEmbedding();
    await frame.click('[data-template="oauthdemo"]');
    const [popup] = await Promise.all([
      page.context().waitForEvent('page'),
      frame.click('[data-action="oauth"]'),
    ]);
    await popup.waitForLoadState();
    await popup.click('button[value="deny"]');
    const event = await waitForEvent(page);
    assert.equal(event.message, 'source_create_error', JSON.stringify(event));
    assert.equal(event.error?.code, 'access_denied');
    await frame.locator('#alert').waitFor();
    await page.screenshot({ path: path.join(SHOTS, '8-denied.png') });
    await page.close();
  });
});
