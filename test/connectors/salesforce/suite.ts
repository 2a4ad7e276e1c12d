// The Salesforce provider of the definition-driven suite: query batches of two records (the fake seeds three of
// each object), so every SOQL list spans two batches through nextRecordsUrl; the connector is created with a
// refresh token only, so the credential check first obtains an access token from the fake's token endpoint.
import type { SuiteProvider } from '../suite/types.ts';
import { salesforceCases } from './cases.ts';
import {
  SALESFORCE_CLIENT_ID,
  SALESFORCE_CLIENT_SECRET,
  SALESFORCE_REFRESH_TOKEN,
  startSalesforceFake,
} from './fake/index.ts';

export const provider: SuiteProvider = {
  async start() {
    const fake = await startSalesforceFake({ batchSize: 2 });
    return {
      fake,
      env: { CES_UPSTREAM_OVERRIDES: JSON.stringify({ salesforce: fake.url }) },
      connector: {
        connector_type: 'salesforce',
        credentials: {
          refresh_token: SALESFORCE_REFRESH_TOKEN,
          client_id: SALESFORCE_CLIENT_ID,
          client_secret: SALESFORCE_CLIENT_SECRET,
        },
      },
      cases: salesforceCases(fake.data),
    };
  },
};
