// The Jira provider of the definition-driven suite: the fake with its default dataset (cases choose small
// pages). Attachment content redirects to the fake's media host, a second origin allowed by host and port.
// The connector syncs every issue's comments and worklogs (replication_config.issues), so the Context Store
// filled from it (test/helpers/hosted-search.ts) holds every entity; the suite's own calls never sync.
import type { SuiteProvider } from '../suite/types.ts';
import { jiraCases } from './cases.ts';
import { JIRA_FAKE_API_TOKEN, JIRA_FAKE_EMAIL, startJiraFake } from './fake/index.ts';

export const provider: SuiteProvider = {
  async start() {
    const fake = await startJiraFake();
    return {
      fake,
      otherUnhandled: () => fake.media.unhandled,
      env: {
        CES_UPSTREAM_OVERRIDES: JSON.stringify({ jira: fake.url }),
        CES_EGRESS_ALLOW: new URL(fake.media.origin).host,
      },
      connector: {
        connector_type: 'jira',
        credentials: { email: JIRA_FAKE_EMAIL, api_token: JIRA_FAKE_API_TOKEN, subdomain: 'ces-fake' },
        replication_config: { issues: ['*'] },
      },
      cases: jiraCases(fake.data),
    };
  },
};
