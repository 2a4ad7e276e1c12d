// The Zendesk Support provider of the definition-driven suite: the fake with its default dataset.
import type { SuiteProvider } from '../suite/types.ts';
import { zendeskCases } from './cases.ts';
import {
  startZendeskFake,
  ZENDESK_FAKE_API_TOKEN,
  ZENDESK_FAKE_EMAIL,
  ZENDESK_FAKE_SUBDOMAIN,
} from './fake/index.ts';

export const provider: SuiteProvider = {
  async start() {
    const fake = await startZendeskFake();
    return {
      fake,
      env: { CES_UPSTREAM_OVERRIDES: JSON.stringify({ 'zendesk-support': fake.url }) },
      connector: {
        connector_type: 'zendesk-support',
        credentials: {
          email: ZENDESK_FAKE_EMAIL,
          api_token: ZENDESK_FAKE_API_TOKEN,
          subdomain: ZENDESK_FAKE_SUBDOMAIN,
        },
      },
      cases: zendeskCases,
    };
  },
};
