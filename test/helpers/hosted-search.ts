// A connector's Context Store filled from its provider fake and read back through search, for the tests that
// check search records against the hosted SDK's search models (test/connectors/<slug>/hosted-records.test.ts):
// the same fake, data and connector as the definition-driven suite (test/connectors/<slug>/suite.ts).
import assert from 'node:assert/strict';
import { providerFor } from '../connectors/suite/providers.ts';
import { startHarness } from './harness.ts';
import { hostedRecordFacts, hostedSearchViolations } from './hosted-records.ts';
import { waitFor } from './wait.ts';

interface EntityState {
  entity: string;
  status: string;
  ready_for_search: boolean;
  backfilled_at: string | null;
  last_error: string | null;
}

/** Search answers at most this many records a page (the Context Store's own ceiling). */
const PAGE = 1000;

/**
 * Every indexed entity of `slug`'s connector after its first full sync against the fake, with every record its
 * search answers (all pages); entities whose sync failed are in `failed` with their error instead. `connector`
 * adds members to the connector's creation body, e.g. the `replication_config` that names the parents of
 * entities synced per parent (without it those sync nothing).
 */
export async function searchRecordsAfterSync(
  slug: string,
  connector: Record<string, unknown> = {},
): Promise<{ records: Record<string, unknown[]>; failed: Record<string, string | null> }> {
  const provider = await providerFor(slug);
  assert.ok(provider, `test/connectors/${slug}/suite.ts has no provider`);
  const started = await provider.start();
  const h = await startHarness({
    // The records are under test here, not the provider's request rate.
    CES_RATE_LIMIT_OVERRIDES: JSON.stringify({ [slug]: null }),
    ...started.env,
    CES_SYNC_POLL_MS: '20',
  });
  try {
    const token = await h.token();
    const created = await h.inject({
      method: 'POST',
      url: '/api/v1/integrations/connectors',
      token,
      body: { workspace_name: 'default', name: `hosted-${slug}`, ...started.connector, ...connector },
    });
    assert.equal(created.status, 200, created.body);
    const id = created.json.id as string;
    await h.deps.worker.start();
    const states = await waitFor(
      `${slug}'s first sync of every entity`,
      async () => {
        const res = await h.inject({
          method: 'GET',
          url: `/api/v1/integrations/connectors/${id}/inspect`,
          token,
        });
        assert.equal(res.status, 200, res.body);
        const entities = res.json.context_store.entities as EntityState[];
        const settled = entities.every(
          (e) => (e.ready_for_search && e.backfilled_at !== null) || e.status === 'Failed',
        );
        return settled ? entities : undefined;
      },
      60_000,
    );
    await h.deps.worker.stop();
    const records: Record<string, unknown[]> = {};
    const failed: Record<string, string | null> = {};
    for (const state of states) {
      if (state.status === 'Failed') {
        failed[state.entity] = state.last_error;
        continue;
      }
      const found: unknown[] = [];
      let cursor: string | undefined;
      do {
        const res = await h.inject({
          method: 'POST',
          url: `/api/v1/integrations/connectors/${id}/execute`,
          token,
          body: {
            entity: state.entity,
            action: 'search',
            params: { limit: PAGE, ...(cursor ? { cursor } : {}) },
          },
        });
        assert.equal(res.status, 200, res.body);
        found.push(...(res.json.result as unknown[]));
        cursor = res.json.connector_metadata.has_next_page
          ? res.json.connector_metadata.end_cursor
          : undefined;
      } while (cursor !== undefined);
      records[state.entity] = found;
    }
    return { records, failed };
  } finally {
    await h.deps.worker.stop();
    await h.close();
    await started.fake.close();
  }
}

/** `pages.search[3].properties: ...` as `pages.search[*].properties: ...`: a violation whatever its record. */
export function anyIndex(violation: string): string {
  return violation.replace(/^([a-z_]+\.search)\[\d+\]/, '$1[*]');
}

/**
 * Syncs `slug`'s connector against its fake and asserts that every entity synced, that every entity the hosted
 * search models type has records (checked on records, not on an empty index), and that the search records of
 * each type as those models do, but for `excepted` violations (spelled with `[*]`, see anyIndex). Answers the
 * records, for further checks.
 */
export async function assertHostedSearchTypes(
  slug: string,
  connector: Record<string, unknown> = {},
  excepted: ReadonlySet<string> = new Set(),
): Promise<Record<string, unknown[]>> {
  const { records, failed } = await searchRecordsAfterSync(slug, connector);
  assert.deepEqual(failed, {}, 'entities whose sync failed');
  const typed = Object.entries(hostedRecordFacts(slug)?.entities ?? {})
    .filter(([, actions]) => actions.search !== undefined)
    .map(([entity]) => entity);
  assert.deepEqual(
    typed.filter((entity) => (records[entity]?.length ?? 0) === 0),
    [],
    'hosted search entities without search records',
  );
  const violations = Object.entries(records)
    .flatMap(([entity, found]) => hostedSearchViolations(slug, entity, found))
    .filter((v) => !excepted.has(anyIndex(v)));
  assert.deepEqual(violations, [], 'search records typed as the hosted ones');
  return records;
}
