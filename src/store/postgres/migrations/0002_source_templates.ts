import { type Kysely, sql } from 'kysely';

/** Source templates and the connector's template and requested entities (as SQLite's 0005). */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the evolving Database type
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE source_templates (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      definition_id text NOT NULL,
      name text NOT NULL,
      partial_default_config text NOT NULL,
      customization text,
      tags text NOT NULL,
      mode text NOT NULL,
      created_at text NOT NULL,
      updated_at text NOT NULL
    );
    CREATE INDEX source_templates_org_idx ON source_templates (organization_id, definition_id);
    ALTER TABLE connectors ADD COLUMN source_template_id text, ADD COLUMN entities text;
  `.execute(db);
}
