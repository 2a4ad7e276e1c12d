// The store contract: what every adapter of the store port (src/store/port.ts) must do, checked through the
// port alone (no SQL), so the SQLite adapter today and the PostgreSQL adapter later run the same suite.
// Each test gets a fresh, empty store from `open`.
//
// Covered: organizations, accounts, applications, workspaces, connectors, sourceTemplates, oauthApps, serverSecrets, contextStore,
// transaction, ping.
import { changeVersionContract } from './change-version.ts';
import { connectorsContract } from './connectors.ts';
import { consentContract } from './consent.ts';
import { contextStoreContract } from './context-store.ts';
import { contextStoreStatsContract } from './context-store-stats.ts';
import type { OpenedStore } from './fixtures.ts';
import { oauthAppsContract } from './oauth-apps.ts';
import { secretsContract } from './secrets.ts';
import { sourceTemplatesContract } from './source-templates.ts';
import { tenantsContract } from './tenants.ts';
import { workspacesContract } from './workspaces.ts';

export type { OpenedStore };

export function storeContract(name: string, open: () => Promise<OpenedStore>): void {
  tenantsContract(name, open);
  workspacesContract(name, open);
  connectorsContract(name, open);
  secretsContract(name, open);
  sourceTemplatesContract(name, open);
  oauthAppsContract(name, open);
  consentContract(name, open);
  contextStoreContract(name, open);
  contextStoreStatsContract(name, open);
  changeVersionContract(name, open);
}
