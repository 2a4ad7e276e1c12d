// Slack's search records against the hosted SDK's search models: every entity of the Context Store synced from
// the fake (messages of two channels the bot is in, the threads of #engineering's top-level messages) and
// searched back.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertHostedSearchTypes } from '../../helpers/hosted-search.ts';
import { channel } from './cases.ts';
import { Dataset } from './fake/dataset.ts';

describe('Slack search records as the hosted SDK types them', () => {
  test('every entity, messages and threads included, types as the hosted search models', async () => {
    // The fake's default dataset, as the helper's fake serves it: ids are the same in every instance.
    const data = new Dataset();
    const eng = channel(data, 'engineering').id;
    const general = channel(data, 'general').id;
    const records = await assertHostedSearchTypes('slack', {
      replication_config: { channels: [eng, general], threads: [`${eng}/*`] },
    });
    assert.deepEqual(
      Object.entries(records)
        .filter(([, found]) => found.length === 0)
        .map(([entity]) => entity),
      [],
      'entities without search records to check',
    );
    // Thread replies, not only parents: their thread_ts and parent_user_id are typed too.
    assert.ok(
      (records.threads as Array<{ ts: string; thread_ts?: string }>).some(
        (m) => m.thread_ts !== undefined && m.thread_ts !== m.ts,
      ),
    );
  });
});
