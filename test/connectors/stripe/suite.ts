// The Stripe provider of the definition-driven suite: the fake with its default dataset (30 of each resource);
// the cases choose small page sizes so every list and search spans several pages.
import type { SuiteProvider } from '../suite/types.ts';
import { stripeCases } from './cases.ts';
import { STRIPE_FAKE_SECRET_KEY, startStripeFake } from './fake/index.ts';

export const provider: SuiteProvider = {
  async start() {
    const fake = await startStripeFake();
    return {
      fake,
      // The fake serves /v1/... at its origin; the definition's base URL ends in /v1.
      env: { CES_UPSTREAM_OVERRIDES: JSON.stringify({ stripe: `${fake.url}/v1` }) },
      connector: { connector_type: 'stripe', credentials: { api_key: STRIPE_FAKE_SECRET_KEY } },
      cases: stripeCases(fake.data),
    };
  },
};
