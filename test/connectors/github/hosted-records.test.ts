// GitHub's search records type as the hosted SDK's search models (IssuesSearchData...) type them: its `id` the
// GraphQL node id and `database_id` REST's number, on every entity the hosted catalog reads through GraphQL.
// (list/get/api_search/create/update answers are checked by the definition-driven suite.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DefinitionRegistry } from '../../../src/connectors/registry.ts';
import { assertHostedSearchTypes } from '../../helpers/hosted-search.ts';

test('every indexed entity’s search records type as the hosted ones', async () => {
  const records = await assertHostedSearchTypes('github', {
    // Every key that scopes an entity, so each indexes records.
    replication_config: {
      repositories: ['ces-demo/widgets', 'octocat/*'],
      issues: ['ces-demo/widgets/*'],
      pull_requests: ['ces-demo/widgets/*'],
      orgs: ['ces-demo'],
      projects: ['ces-demo/*'],
      member_logins: ['octocat'],
    },
  });
  // A null id would pass the models' `str | None`: every record of an entity that writes it has one.
  const github = DefinitionRegistry.default().bySlug('github');
  const missing = (github?.entities ?? [])
    .filter((e) => e.record_fields?.id !== undefined)
    .flatMap((e) =>
      ((records[e.name] ?? []) as Array<{ id: unknown; node_id: unknown; database_id: unknown }>)
        .filter((r) => typeof r.id !== 'string' || r.id !== r.node_id || typeof r.database_id !== 'number')
        .map((r) => `${e.name} ${JSON.stringify({ id: r.id, database_id: r.database_id })}`),
    );
  assert.deepEqual(missing, []);
});
