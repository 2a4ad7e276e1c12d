// The GitHub provider of the definition-driven suite: the fake with a second repository of ces-demo, so the
// organization's repositories span two pages of one.
import type { SuiteProvider } from '../suite/types.ts';
import { githubCases } from './cases.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN, startGithubFake } from './fake/index.ts';

export const provider: SuiteProvider = {
  async start() {
    const fake = await startGithubFake();
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
};
