/**
 * The one place that chooses and opens the store adapter from the configuration; everything else sees the port.
 * Migrations run on open unless `migrate: false`.
 */
import type { Config } from '../config/index.ts';
import type { Store } from './port.ts';
import { openSqliteStore } from './sqlite/index.ts';

export function openStore(
  config: Pick<Config, 'databaseFile' | 'search'>,
  options: { migrate?: boolean } = {},
): Promise<{ store: Store; applied: string[] }> {
  return openSqliteStore({
    file: config.databaseFile,
    migrate: options.migrate ?? true,
    search: config.search,
  });
}
