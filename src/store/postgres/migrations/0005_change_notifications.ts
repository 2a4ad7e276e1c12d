// Other processes learn that organizations, applications, workspaces or connectors changed: each statement that
// writes one of those tables notifies `ces_changes` with its schema's name when its transaction commits (see
// ../changes.ts, whose WATCHED_TABLES and CHANGE_CHANNEL must name what this creates; a test checks they do).
// The names are written out here: a released migration must not change when that module does.
import { type Kysely, sql } from 'kysely';

const TABLES = ['organizations', 'account_organizations', 'applications', 'workspaces', 'connectors'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE OR REPLACE FUNCTION ces_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('ces_changes', TG_TABLE_SCHEMA);
      RETURN NULL;
    END
  $$`.execute(db);
  for (const table of TABLES) {
    await sql`CREATE TRIGGER ${sql.id(`${table}_changed`)}
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION ces_notify_change()`.execute(db);
  }
}
