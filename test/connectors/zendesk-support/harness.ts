import assert from 'node:assert/strict';
import { type Harness, startHarness } from '../../helpers/harness.ts';
import {
  startZendeskFake,
  ZENDESK_FAKE_API_TOKEN,
  ZENDESK_FAKE_EMAIL,
  ZENDESK_FAKE_SUBDOMAIN,
  type ZendeskFake,
} from './fake/index.ts';

/**
 * A harness whose Zendesk Support connector type is pointed at a fresh Zendesk fake, with one API-token
 * connector created through the API; `close` also fails the test if the fake saw a request it does not serve.
 */
export async function startWithZendesk(env: Record<string, string> = {}) {
  const fake = await startZendeskFake();
  const h = await startHarness({
    CES_UPSTREAM_OVERRIDES: JSON.stringify({ 'zendesk-support': fake.url }),
    ...env,
  });
  const token = await h.token();
  const created = await h.inject({
    method: 'POST',
    url: '/api/v1/integrations/connectors',
    token,
    body: {
      workspace_name: 'default',
      name: 'helpdesk',
      connector_type: 'zendesk-support',
      credentials: {
        email: ZENDESK_FAKE_EMAIL,
        api_token: ZENDESK_FAKE_API_TOKEN,
        subdomain: ZENDESK_FAKE_SUBDOMAIN,
      },
    },
  });
  assert.equal(created.status, 200, created.body);
  const close = async () => {
    await h.close();
    await fake.close();
    assert.deepEqual(
      fake.unhandled.map((r) => `${r.method} ${r.path}`),
      [],
    );
  };
  return { h, fake, token, connectorId: created.json.id as string, close };
}

export type { Harness, ZendeskFake };
