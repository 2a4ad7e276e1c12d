// Confluence's search records (what the Context Store keeps of each synced list record) type as the hosted SDK's
// search models type them (test/reference/hosted-records/confluence.json). The sync runs against the suite's fake
// and connector (test/connectors/confluence/suite.ts).
import { test } from 'node:test';
import { assertHostedSearchTypes } from '../../helpers/hosted-search.ts';

test("every indexed Confluence entity's search records type as the hosted search models", async () => {
  await assertHostedSearchTypes('confluence');
});
