import type { Kysely } from 'kysely';

/**
 * Source templates: an organization enables a connector type for its end users, optionally fixing part of its
 * replication_config, tagging it, and choosing the entities to index. A connector remembers the template it was
 * created from (null: the type's implicit default) and the entities its creator asked for (JSON; null: all).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('source_templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('definition_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('partial_default_config', 'text', (c) => c.notNull())
    .addColumn('customization', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('source_templates_org_idx')
    .on('source_templates')
    .columns(['organization_id', 'definition_id'])
    .execute();
  await db.schema.alterTable('connectors').addColumn('source_template_id', 'text').execute();
  await db.schema.alterTable('connectors').addColumn('entities', 'text').execute();
}
