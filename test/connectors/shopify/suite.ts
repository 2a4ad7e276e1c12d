// The Shopify provider of the definition-driven suite: one record per page unless `limit` says otherwise, so
// every paged list spans several pages (the fake's children come two to four per parent).
import type { SuiteProvider } from '../suite/types.ts';
import { shopifyCases } from './cases.ts';
import { SHOPIFY_FAKE_SHOP, SHOPIFY_FAKE_TOKEN, startShopifyFake } from './fake/index.ts';

export const provider: SuiteProvider = {
  async start() {
    const fake = await startShopifyFake({ pageSize: 1 });
    return {
      fake,
      env: { CES_UPSTREAM_OVERRIDES: JSON.stringify({ shopify: fake.url }) },
      connector: {
        connector_type: 'shopify',
        credentials: { api_key: SHOPIFY_FAKE_TOKEN },
        replication_config: { shop: SHOPIFY_FAKE_SHOP },
      },
      cases: shopifyCases(fake.data),
    };
  },
};
