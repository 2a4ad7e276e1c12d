import type { Kysely } from 'kysely';

/**
 * The Context Store's bookkeeping. The index tables themselves (one per connector type and entity, with a
 * column per declared searchable field) are derived from the connector definitions and created at start-up;
 * `cs_layouts` remembers the layout each was built with, so a changed definition rebuilds its table.
 * `cs_syncs` is both the state shown by /inspect and the job the worker leases: one row per connector and entity.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cs_layouts')
    .addColumn('table_name', 'text', (c) => c.primaryKey())
    .addColumn('definition_id', 'text', (c) => c.notNull())
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('layout_hash', 'text', (c) => c.notNull())
    // Rows the table had when the planner's statistics were last gathered (ANALYZE).
    .addColumn('analyzed_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('cs_syncs')
    .addColumn('connector_id', 'text', (c) => c.notNull().references('connectors.id').onDelete('cascade'))
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('ready_for_search', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('entity_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('updated_at', 'text')
    .addColumn('backfilled_at', 'text')
    .addColumn('last_full_at', 'text')
    .addColumn('pass', 'text', (c) => c.notNull())
    .addColumn('run_after', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('checkpoint', 'text')
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('high_water', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('cs_syncs_pk', ['connector_id', 'entity'])
    .execute();
  await db.schema.createIndex('cs_syncs_due_idx').on('cs_syncs').columns(['run_after']).execute();
  await db.schema
    .createIndex('cs_syncs_org_idx')
    .on('cs_syncs')
    .columns(['organization_id', 'connector_id'])
    .execute();
}
