import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_initial.ts';
import * as m0002 from './0002_credentials_status.ts';
import * as m0003 from './0003_context_store.ts';
import * as m0004 from './0004_context_store_keys.ts';
import * as m0005 from './0005_source_templates.ts';
import * as m0006 from './0006_oauth_apps.ts';
import * as m0007 from './0007_consent.ts';
import * as m0008 from './0008_consent_caps.ts';

/** Forward-only, numbered. Never edit a released migration: add the next number. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_credentials_status': m0002,
  '0003_context_store': m0003,
  '0004_context_store_keys': m0004,
  '0005_source_templates': m0005,
  '0006_oauth_apps': m0006,
  '0007_consent': m0007,
  '0008_consent_caps': m0008,
};

export const sqliteMigrations: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
