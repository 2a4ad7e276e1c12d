// Gong's search records (what the Context Store keeps of each synced list record) type as the hosted SDK's search
// models type them (test/reference/hosted-records/gong.json), and the members ces keeps as Gong types them
// (./hosted-exceptions.ts) are still exactly those the hosted list schemas type otherwise: an exception whose
// member now types as the hosted one, or a new mismatch beside them, fails here. The sync runs against the
// suite's fake and connector (test/connectors/gong/suite.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hostedRecordViolations } from '../../helpers/hosted-records.ts';
import { assertHostedSearchTypes } from '../../helpers/hosted-search.ts';
import { violationPath } from '../suite/hosted-exceptions.ts';
import { GONG_HOSTED_TYPE_EXCEPTIONS } from './hosted-exceptions.ts';

test("every indexed Gong entity's search records type as the hosted search models; the exceptions still hold", async () => {
  const records = await assertHostedSearchTypes('gong');

  // The stored records are the list's: checked against the hosted list schema, they show every mismatch.
  const excepted = new Set(GONG_HOSTED_TYPE_EXCEPTIONS.map((e) => e.path.split('.')[0] as string));
  const seen = new Set<string>();
  for (const entity of excepted) {
    const found = records[entity];
    assert.ok(found && found.length > 0, `${entity} has no search records`);
    for (const v of hostedRecordViolations('gong', entity, 'list', found)) seen.add(violationPath(v));
  }
  assert.deepEqual(
    [...seen].sort(),
    GONG_HOSTED_TYPE_EXCEPTIONS.map((e) => e.path).sort(),
    'the exceptions are exactly the mismatches',
  );
});
