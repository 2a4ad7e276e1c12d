// The Confluence provider of the definition-driven suite: the fake with its default site (cases choose small
// pages). Attachment downloads redirect to the fake's media host, a second origin allowed by host and port.
import type { SuiteProvider } from '../suite/types.ts';
import { confluenceCases } from './cases.ts';
import { CONFLUENCE_FAKE_API_TOKEN, CONFLUENCE_FAKE_EMAIL, startConfluenceFake } from './fake/index.ts';

export const provider: SuiteProvider = {
  async start() {
    const fake = await startConfluenceFake();
    return {
      fake,
      otherUnhandled: () => fake.media.unhandled,
      env: {
        CES_UPSTREAM_OVERRIDES: JSON.stringify({ confluence: fake.url }),
        CES_EGRESS_ALLOW: new URL(fake.media.origin).host,
      },
      connector: {
        connector_type: 'confluence',
        credentials: {
          email: CONFLUENCE_FAKE_EMAIL,
          api_token: CONFLUENCE_FAKE_API_TOKEN,
          subdomain: 'ces-fake',
        },
      },
      cases: confluenceCases(fake.data),
    };
  },
};
