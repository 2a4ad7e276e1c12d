// Other processes learn that organizations, applications, workspaces or connectors changed: each statement that
// writes one of those tables notifies `ces_changes` with its schema's name when its transaction commits (see
// ../changes.ts).
import { type Kysely, sql } from 'kysely';
import { CHANGE_CHANNEL, WATCHED_TABLES } from '../changes.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE OR REPLACE FUNCTION ces_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify(${sql.lit(CHANGE_CHANNEL)}, TG_TABLE_SCHEMA);
      RETURN NULL;
    END
  $$`.execute(db);
  for (const table of WATCHED_TABLES) {
    await sql`CREATE TRIGGER ${sql.id(`${table}_changed`)}
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION ces_notify_change()`.execute(db);
  }
}
