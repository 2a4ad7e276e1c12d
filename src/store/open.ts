/**
 * The one place that chooses and opens the store adapter from the configuration; everything else sees the port.
 * PostgreSQL when CES_DATABASE_URL is set, else the SQLite file. Migrations run on open unless `migrate: false`.
 */
import type { Config } from '../config/index.ts';
import type { Store } from './port.ts';
import { openPostgresStore } from './postgres/index.ts';
import { openSqliteStore } from './sqlite/index.ts';

export function openStore(
  config: Pick<Config, 'databaseFile' | 'database' | 'search'>,
  options: { migrate?: boolean } = {},
): Promise<{ store: Store; applied: string[] }> {
  const migrate = options.migrate ?? true;
  if (config.database) {
    const { url, schema, poolSize } = config.database;
    return openPostgresStore({ url, schema, max: poolSize, migrate, search: config.search });
  }
  return openSqliteStore({ file: config.databaseFile, migrate, search: config.search });
}
