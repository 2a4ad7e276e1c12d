import assert from 'node:assert/strict';
import { definitionLayouts } from '../../../src/context-store/layout.ts';
import type { EncodedRecords, SyncCheckpoint, SyncJob } from '../../../src/store/port.ts';
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

/**
 * A new GitHub connector's `issues` sync, claimed by hand, with its index layout and the lease's times: for tests
 * that write pages to the store themselves (start the harness with CES_SYNC_ENABLED=false). The connector is
 * created with `token` (default: the harness's organization).
 */
export async function claimGithubIssues(h: Harness, token?: string, overrides: Record<string, unknown> = {}) {
  const created = await createGithubConnector(h, token ?? (await h.token()), overrides);
  assert.equal(created.status, 200, created.body);
  const store = h.deps.store.contextStore;
  const now = new Date().toISOString();
  const until = new Date(Date.now() + 60_000).toISOString();
  const mine = (j: SyncJob | undefined): j is SyncJob =>
    j?.entity === 'issues' && j.connector_id === created.json.id;
  let job: SyncJob | undefined;
  for (let i = 0; i < 50 && !mine(job); i++) job = await store.claim('test', now, until);
  assert.ok(mine(job), 'the issues sync of the new connector');
  const layout = definitionLayouts(h.deps.registry.byId(GITHUB_DEFINITION_ID)!).find(
    (l) => l.entity === 'issues',
  )!;
  /** Writes `pages` as one batch of this sync, as the worker writes a page: Preview, searchable, counted. */
  const commit = (pages: EncodedRecords[], checkpoint: Partial<SyncCheckpoint> = { cursor: null }) =>
    store.commitPage(
      job,
      { layout, pages },
      checkpoint as SyncCheckpoint,
      { status: 'Preview', ready_for_search: true, count: true },
      now,
      until,
    );
  return { job, layout, store, now, until, commit };
}

export type { GithubFake, Harness };
