// The Gmail provider of the definition-driven suite: the fake pages with Gmail's own default, and the cases ask
// for small pages so every list spans several; the connector holds only a refresh token, so its first request
// goes through the token endpoint.
import type { SuiteProvider } from '../suite/types.ts';
import { gmailCases } from './cases.ts';
import { GOOGLE_FAKE_CLIENT_ID, GOOGLE_FAKE_CLIENT_SECRET, startGmailFake } from './fake/index.ts';

export const provider: SuiteProvider = {
  async start() {
    const fake = await startGmailFake();
    const { refresh_token } = fake.oauth.grant();
    return {
      fake,
      env: { CES_UPSTREAM_OVERRIDES: JSON.stringify({ gmail: fake.url }) },
      connector: {
        connector_type: 'gmail',
        credentials: {
          refresh_token,
          client_id: GOOGLE_FAKE_CLIENT_ID,
          client_secret: GOOGLE_FAKE_CLIENT_SECRET,
        },
      },
      cases: gmailCases(fake.data),
    };
  },
};
