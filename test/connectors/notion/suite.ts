// The Notion provider of the definition-driven suite: the fake answers 5 records per page unless asked for
// more, so every list spans several pages; hosted files live on the fake's media host, a second origin.
import type { SuiteProvider } from '../suite/types.ts';
import { notionCases } from './cases.ts';
import { NOTION_FAKE_TOKEN, startNotionFake } from './fake/index.ts';

export const provider: SuiteProvider = {
  async start() {
    const fake = await startNotionFake({ pageSize: 5 });
    return {
      fake,
      otherUnhandled: () => fake.media.unhandled,
      env: {
        CES_UPSTREAM_OVERRIDES: JSON.stringify({ notion: fake.url }),
        // Hosted files are served from the media host, a loopback address here: allowed by host and port only.
        CES_EGRESS_ALLOW: new URL(fake.media.origin).host,
      },
      connector: {
        connector_type: 'notion',
        credentials: { token: NOTION_FAKE_TOKEN },
        replication_config: { page_ids: [fake.data.handbookId] },
      },
      cases: notionCases(fake.data),
    };
  },
};
