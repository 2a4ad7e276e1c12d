/**
 * The one place that chooses and opens the store adapter from the configuration; everything else sees the port.
 * PostgreSQL when CES_DATABASE_URL is set, else the SQLite file. Migrations run on open unless `migrate: false`.
 */
import type { Config } from '../config/index.ts';
import type { Store } from './port.ts';

export async function openStore(
  config: Pick<Config, 'databaseFile' | 'database' | 'search'>,
  options: {
    migrate?: boolean;
    /**
     * PostgreSQL: told when this process stops hearing other processes' changes (reads of connectors and
     * applications then always go to the database) and when it hears them again.
     */
    onChangeFeed?: (listening: boolean, reason?: string) => void;
  } = {},
): Promise<{ store: Store; applied: string[] }> {
  const migrate = options.migrate ?? true;
  if (config.database) {
    const { url, schema, poolSize } = config.database;
    // Each adapter is loaded only when chosen: a start-up on SQLite never loads pg, nor one on PostgreSQL
    // better-sqlite3.
    const { openPostgresStore } = await import('./postgres/index.ts');
    const { onChangeFeed } = options;
    return openPostgresStore({
      url,
      schema,
      max: poolSize,
      migrate,
      search: config.search,
      ...(onChangeFeed ? { onChangeFeed } : {}),
    });
  }
  const { openSqliteStore } = await import('./sqlite/index.ts');
  return openSqliteStore({ file: config.databaseFile, migrate, search: config.search });
}
