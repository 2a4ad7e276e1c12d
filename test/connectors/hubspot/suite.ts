// The HubSpot provider of the definition-driven suite: the fake with its default dataset (lists page 10 by
// default; the cases ask for small pages), reached through a private-app token.
import type { SuiteProvider } from '../suite/types.ts';
import { hubspotCases } from './cases.ts';
import { HUBSPOT_FAKE_PRIVATE_APP_TOKEN, startHubSpotFake } from './fake/index.ts';

export const provider: SuiteProvider = {
  async start() {
    const fake = await startHubSpotFake();
    return {
      fake,
      env: { CES_UPSTREAM_OVERRIDES: JSON.stringify({ hubspot: fake.url }) },
      connector: {
        connector_type: 'hubspot',
        credentials: { option_title: 'Private App', access_token: HUBSPOT_FAKE_PRIVATE_APP_TOKEN },
      },
      cases: hubspotCases,
    };
  },
};
