// Each provider of the definition-driven suite: its fake, started with the credentials its existing tests use,
// the harness env that points the connector type at it, and the body that creates a connector through the API.
import { GITHUB_FAKE_DEFAULT_TOKEN, startGithubFake } from '../../fakes/github/index.ts';
import { GONG_FAKE_ACCESS_KEY, GONG_FAKE_ACCESS_KEY_SECRET, startGongFake } from '../../fakes/gong/index.ts';
import {
  startZendeskFake,
  ZENDESK_FAKE_API_TOKEN,
  ZENDESK_FAKE_EMAIL,
  ZENDESK_FAKE_SUBDOMAIN,
} from '../../fakes/zendesk/index.ts';
import { githubCases } from './github.cases.ts';
import { gongCases } from './gong.cases.ts';
import type { SuiteProvider } from './types.ts';
import { zendeskCases } from './zendesk-support.cases.ts';

/** Keyed by definition slug; a definition without an entry here fails the suite. */
export const PROVIDERS: Record<string, SuiteProvider> = {
  github: {
    async start() {
      const fake = await startGithubFake();
      // A second repository of ces-demo, so the organization's repositories span two pages of one.
      fake.seedIssues('ces-demo', 'gizmos', 1);
      return {
        fake,
        env: { CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: fake.url }) },
        connector: {
          connector_type: 'github',
          credentials: { personal_access_token: GITHUB_FAKE_DEFAULT_TOKEN },
          replication_config: { repositories: ['ces-demo/widgets'] },
        },
        cases: githubCases,
      };
    },
  },
  'zendesk-support': {
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
  },
  gong: {
    async start() {
      // Small pages so every list spans several; the default dataset otherwise.
      const fake = await startGongFake({ pageSize: 8, calls: 40, users: 30 });
      return {
        fake,
        otherUnhandled: () => fake.media.unhandled,
        env: {
          CES_UPSTREAM_OVERRIDES: JSON.stringify({ gong: fake.url }),
          // Recordings live on the media host, a loopback address here: allowed by host and port only.
          CES_EGRESS_ALLOW: new URL(fake.media.origin).host,
        },
        connector: {
          connector_type: 'gong',
          credentials: { access_key: GONG_FAKE_ACCESS_KEY, access_key_secret: GONG_FAKE_ACCESS_KEY_SECRET },
        },
        cases: gongCases(fake.data),
      };
    },
  },
};
