// The Google Drive provider of the definition-driven suite: the fake pages with Drive's own defaults, and the
// cases ask for small pages so every list spans several; the connector holds only a refresh token, so its
// first request goes through the token endpoint.
import type { SuiteProvider } from '../suite/types.ts';
import { driveCases } from './cases.ts';
import { GOOGLE_FAKE_CLIENT_ID, GOOGLE_FAKE_CLIENT_SECRET, startDriveFake } from './fake/index.ts';

export const provider: SuiteProvider = {
  async start() {
    const fake = await startDriveFake();
    const { refresh_token } = fake.oauth.grant();
    return {
      fake,
      env: { CES_UPSTREAM_OVERRIDES: JSON.stringify({ 'google-drive': fake.url }) },
      connector: {
        connector_type: 'google-drive',
        credentials: {
          refresh_token,
          client_id: GOOGLE_FAKE_CLIENT_ID,
          client_secret: GOOGLE_FAKE_CLIENT_SECRET,
        },
      },
      cases: driveCases(fake.data),
    };
  },
};
