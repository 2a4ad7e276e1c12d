import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  PostgresDialect,
  type PostgresDialectConfig,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

/**
 * Kysely's PostgreSQL dialect whose introspection sees one schema only. Kysely's own (which its migrator asks
 * whether the migration tables exist) reads every schema of the database and calls functions that parse each
 * table's name, so a schema another session drops meanwhile fails it with "schema … does not exist", and its
 * cost grows with everything else in the database. ces's store lives in one schema; nothing else is asked.
 * Kysely's migration lock stays the whole server's: a migration holds a lock per object it creates until it
 * commits, and many at once (a test run migrating a schema per test) filled the server's lock table ("out of
 * shared memory").
 */
export class SchemaPostgresDialect extends PostgresDialect {
  readonly #schema: string;

  constructor(config: PostgresDialectConfig, schema: string) {
    super(config);
    this.#schema = schema;
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SchemaIntrospector(db, this.#schema);
  }
}

class SchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    return [{ name: this.schema }];
  }

  /** Names only, matched by the schema's name in the catalogs (no function of a name that may vanish). */
  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; kind: string }>`
      SELECT c.relname AS name, c.relkind AS kind
      FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ${this.schema} AND c.relkind IN ('r', 'p', 'v', 'm')
      ORDER BY c.relname`.execute(this.db);
    return rows.map((r) => ({
      name: r.name,
      schema: this.schema,
      isView: r.kind === 'v' || r.kind === 'm',
      columns: [],
    }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}
