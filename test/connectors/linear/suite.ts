// The Linear provider of the definition-driven suite: the fake with its default workspace, a connector on the
// personal API key (the lists page by the cases' small `first`).
import type { SuiteProvider } from '../suite/types.ts';
import { linearCases } from './cases.ts';
import { LINEAR_FAKE_API_KEY, startLinearFake } from './fake/index.ts';

export const provider: SuiteProvider = {
  async start() {
    const fake = await startLinearFake();
    return {
      fake,
      env: { CES_UPSTREAM_OVERRIDES: JSON.stringify({ linear: fake.url }) },
      connector: { connector_type: 'linear', credentials: { api_key: LINEAR_FAKE_API_KEY } },
      cases: linearCases(fake.data),
    };
  },
};
