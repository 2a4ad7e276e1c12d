import type { Kysely } from 'kysely';

/**
 * A migration both adapters run as it is (their numbered files re-export it): the schema builder's statements
 * here mean the same on SQLite and PostgreSQL.
 *
 * An organization's own OAuth app per connector type (`PUT /oauth/credentials`): its client id, and its client
 * secret encrypted like every credential (bound to the organization and connector type).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_apps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('definition_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('secret_ciphertext', 'text', (c) => c.notNull())
    .addColumn('secret_key_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('oauth_apps_org_definition_uq', ['organization_id', 'definition_id'])
    .execute();
}
