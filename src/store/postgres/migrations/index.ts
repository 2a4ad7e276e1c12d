import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_initial.ts';
import * as m0002 from './0002_source_templates.ts';
import * as m0003 from './0003_oauth_apps.ts';
import * as m0004 from './0004_consent.ts';
import * as m0005 from './0005_change_notifications.ts';
import * as m0006 from './0006_consent_caps.ts';

/** Forward-only, numbered. Never edit a released migration: add the next number. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_source_templates': m0002,
  '0003_oauth_apps': m0003,
  '0004_consent': m0004,
  '0005_change_notifications': m0005,
  '0006_consent_caps': m0006,
};

export const postgresMigrations: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
