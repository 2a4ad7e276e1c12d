import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/connectors/load.ts';
import { DefinitionRegistry } from '../../src/connectors/registry.ts';
import { type Grant, type OAuthFake, startOAuthFake } from '../fakes/oauth/index.ts';
import { type Harness, startHarness } from './harness.ts';

export const OAUTH_DEMO_ID = '5f0c8a52-7a3e-4c1b-9a57-0d2e4b6c8f10';

/**
 * A test-only connector type whose only option is OAuth2 with refresh. Host and token URL use a base URL
 * variable, so the override must rewrite both; the fake serves the API under /api and tokens at /oauth/token.
 */
export const OAUTH_DEMO_YAML = `
id: ${OAUTH_DEMO_ID}
slug: oauthdemo
name: OAuth Demo
icon_url: https://oauthdemo.example/icon.svg
support_level: community
documentation_url: https://oauthdemo.example/docs
base_url: "https://{subdomain}.oauthdemo.example/api"
base_url_variables:
  subdomain: { description: Account subdomain., pattern: "^[a-z0-9-]+$" }
credential_options:
  - title: OAuth2.0
    description: Tokens from the provider's authorization-code flow, renewed by ces.
    fields:
      access_token: { type: string, title: Access token, description: Current access token., secret: true }
      refresh_token: { type: string, title: Refresh token, description: Refresh token., secret: true }
      client_id: { type: string, title: Client ID, description: The OAuth app's client id. }
      client_secret: { type: string, title: Client secret, description: The OAuth app's secret., secret: true }
    required: [refresh_token, client_id, client_secret]
    auth: { type: bearer, token: "{access_token}" }
    refresh:
      token_url: "https://{subdomain}.oauthdemo.example/oauth/token"
    authorization:
      url: "https://{subdomain}.oauthdemo.example/oauth/authorize"
      scopes: [items.read, me.read]
      pkce: true
check: { method: GET, path: /me }
replication_config:
  type: object
  required: [subdomain]
  properties:
    subdomain: { type: string }
entities:
  - name: items
    description: Items.
    primary_key: [id]
    actions:
      list:
        description: All items.
        request: { method: GET, path: /items }
        record_selector: [items]
`;

export function oauthDemoDefinition() {
  return parseDefinition(OAUTH_DEMO_YAML, 'oauthdemo.yaml');
}

export async function startWithOAuth(env: Record<string, string> = {}) {
  const fake = await startOAuthFake();
  const registry = new DefinitionRegistry([oauthDemoDefinition()]);
  const h = await startHarness(
    { CES_UPSTREAM_OVERRIDES: JSON.stringify({ oauthdemo: fake.apiUrl }), ...env },
    { registry },
  );
  return { fake, h, close: async () => Promise.all([h.close(), fake.close()]) };
}

export function oauthCredentials(fake: OAuthFake, grant: Partial<Grant>) {
  return { ...grant, client_id: fake.clientId, client_secret: fake.clientSecret };
}

export async function createOAuthConnector(h: Harness, token: string, credentials: Record<string, unknown>) {
  return h.inject({
    method: 'POST',
    url: '/api/v1/integrations/connectors',
    token,
    body: {
      workspace_name: 'default',
      definition_id: OAUTH_DEMO_ID,
      name: 'oauth demo',
      credentials,
      replication_config: { subdomain: 'acme' },
    },
  });
}

/**
 * The end user's browser on the fake provider's consent page: it loads the page, submits its form with
 * `decision`, and returns where the provider sends the browser back to (ces's callback, with code or error).
 */
export async function consentAtProvider(
  fake: OAuthFake,
  consentUrl: string | URL,
  decision: 'approve' | 'deny',
): Promise<URL> {
  const page = await fetch(consentUrl);
  assert.equal(page.status, 200, await page.clone().text());
  const form = new URLSearchParams();
  for (const m of (await page.text()).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.set(m[1] as string, (m[2] as string).replaceAll('&amp;', '&'));
  form.set('decision', decision);
  const res = await fetch(`${fake.url}/oauth/authorize`, { method: 'POST', body: form, redirect: 'manual' });
  assert.equal(res.status, 302);
  return new URL(res.headers.get('location') as string);
}

export type { Harness, OAuthFake };
