import { type Harness, startHarness } from '../../helpers/harness.ts';
import { GITHUB_FAKE_DEFAULT_TOKEN, type GithubFake, startGithubFake } from './fake/index.ts';

export const GITHUB_DEFINITION_ID = 'ef69ef6e-aa7f-4af1-a01d-ef775033524e';

/** A harness whose GitHub connector type is pointed at a fresh GitHub fake. */
export async function startWithGithub(
  tokens: string[] = [GITHUB_FAKE_DEFAULT_TOKEN],
  env: Record<string, string> = {},
) {
  const fake = await startGithubFake({ tokens });
  const h = await startHarness({ CES_UPSTREAM_OVERRIDES: JSON.stringify({ github: fake.url }), ...env });
  return { fake, h, close: async () => Promise.all([h.close(), fake.close()]) };
}

export async function createGithubConnector(
  h: Harness,
  token: string,
  overrides: Record<string, unknown> = {},
  pat = GITHUB_FAKE_DEFAULT_TOKEN,
) {
  return h.inject({
    method: 'POST',
    url: '/api/v1/integrations/connectors',
    token,
    body: {
      workspace_name: 'default',
      definition_id: GITHUB_DEFINITION_ID,
      name: 'octo',
      credentials: { personal_access_token: pat },
      replication_config: { repositories: ['ces-demo/widgets'] },
      ...overrides,
    },
  });
}

export type { GithubFake, Harness };
