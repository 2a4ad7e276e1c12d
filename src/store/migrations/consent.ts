import type { Kysely } from 'kysely';

/**
 * A migration both adapters run as it is (their numbered files re-export it).
 *
 * `oauth_states`: one row per consent flow begun (`POST /integrations/connectors/oauth/initiate`), the server
 * side of the `state` parameter: who asked, for which connector type and workspace, where to send the browser
 * afterwards, the PKCE verifier (encrypted), when it expires, and when it was used (once only).
 * `application_redirect_urls`: where an application's consent flows may send the browser back to.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_states')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('application_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('definition_id', 'text', (c) => c.notNull())
    .addColumn('option_title', 'text', (c) => c.notNull())
    .addColumn('redirect_url', 'text', (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('verifier_ciphertext', 'text')
    .addColumn('verifier_key_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('oauth_states_expiry_idx').on('oauth_states').column('expires_at').execute();

  await db.schema
    .createTable('application_redirect_urls')
    .addColumn('application_id', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('application_redirect_urls_pk', ['application_id', 'url'])
    .execute();
}
