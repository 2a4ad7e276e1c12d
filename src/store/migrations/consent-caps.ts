import type { Kysely } from 'kysely';

/**
 * A migration both adapters run as it is (their numbered files re-export it).
 *
 * `oauth_states.widget_token_id`: the widget token a connect page began the flow with (null for the API's own
 * flows), so the open states of one token can be capped; the indexes serve that count and the workspace's.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_states').addColumn('widget_token_id', 'text').execute();
  await db.schema
    .createIndex('oauth_states_workspace_idx')
    .on('oauth_states')
    .columns(['workspace_id', 'expires_at'])
    .execute();
  await db.schema
    .createIndex('oauth_states_widget_token_idx')
    .on('oauth_states')
    .columns(['widget_token_id', 'expires_at'])
    .execute();
}
