import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_initial.ts';

/** Forward-only, numbered. Never edit a released migration: add the next number. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': m0001,
};

export const postgresMigrations: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
