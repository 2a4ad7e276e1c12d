// Linear's search records (what the Context Store keeps of each synced list record) type as the hosted SDK's
// search models type them (test/reference/hosted-records/linear.json). The sync runs against the suite's fake and
// connector (test/connectors/linear/suite.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hostedRecordFacts } from '../../helpers/hosted-records.ts';
import { assertHostedSearchTypes } from '../../helpers/hosted-search.ts';

test("every indexed Linear entity's search records type as the hosted search models", async () => {
  const records = await assertHostedSearchTypes('linear');
  const typed = Object.entries(hostedRecordFacts('linear')?.entities ?? {})
    .filter(([, actions]) => actions.search !== undefined)
    .map(([entity]) => entity);
  // Every hosted search model is checked against records, not against an empty index.
  assert.deepEqual(
    typed.filter((entity) => (records[entity]?.length ?? 0) === 0),
    [],
    'hosted search entities without search records',
  );
});
