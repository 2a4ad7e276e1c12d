import type { Kysely } from 'kysely';

/**
 * Whether a connector's stored credentials still work. `needs_reauth` is set when the provider refused to
 * renew an OAuth2 grant; only new credentials (PUT) bring it back to `valid`. `credentials_error` says why,
 * in words that never contain a credential value.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving Database type
export async function up(db: Kysely<any>): Promise<void> {
  // One column per ALTER: SQLite adds a single column per statement.
  await db.schema
    .alterTable('connectors')
    .addColumn('credentials_status', 'text', (c) => c.notNull().defaultTo('valid'))
    .execute();
  await db.schema.alterTable('connectors').addColumn('credentials_error', 'text').execute();
}
