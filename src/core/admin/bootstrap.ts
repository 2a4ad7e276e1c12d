import fs from 'node:fs';
import path from 'node:path';
import type { Store } from '../../store/port.ts';
import { createApplication } from './applications.ts';
import { createOrganization } from './organizations.ts';

export interface BootstrapCredentials {
  organization_id: string;
  workspace_id: string;
  workspace_name: string;
  client_id: string;
  client_secret: string;
  created_at: string;
}

export const bootstrapFile = (dataDir: string) => path.join(dataDir, 'bootstrap-credentials.json');

/**
 * First start on an empty database: one organization, its `default` workspace and one application whose
 * credentials are returned to be printed once and written to a 0600 file. Later starts find an organization
 * and do nothing.
 */
export async function bootstrapIfEmpty(
  store: Store,
  pepper: Buffer,
  dataDir: string,
  now: string,
): Promise<BootstrapCredentials | null> {
  // Processes starting together on one database: one creates, the others find it done.
  return store.exclusive('ces.bootstrap', () => bootstrapOnce(store, pepper, dataDir, now));
}

async function bootstrapOnce(
  store: Store,
  pepper: Buffer,
  dataDir: string,
  now: string,
): Promise<BootstrapCredentials | null> {
  if ((await store.organizations.list()).length > 0) return null;
  const { organization, defaultWorkspace } = await createOrganization(store, {
    name: 'Default organization',
    now,
  });
  const app = await createApplication(store, pepper, {
    name: 'bootstrap',
    organizationIds: [organization.id],
    now,
  });
  const creds: BootstrapCredentials = {
    organization_id: organization.id,
    workspace_id: defaultWorkspace.id,
    workspace_name: defaultWorkspace.name,
    client_id: app.client_id,
    client_secret: app.client_secret,
    created_at: now,
  };
  fs.writeFileSync(bootstrapFile(dataDir), `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  return creds;
}
