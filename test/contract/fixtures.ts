// Fixtures of the store contract (store-contract.ts): rows built the way src/core builds them, with fixed
// timestamps and fresh ids, and a fresh store per test.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach } from 'node:test';
import type {
  ApplicationWithSecretHash,
  NewConnector,
  Store,
  StoredCredentials,
  Workspace,
  WorkspaceStatus,
} from '../../src/store/port.ts';

export interface OpenedStore {
  store: Store;
  close(): Promise<void>;
}

export const T0 = '2024-01-01T00:00:00.000Z';
export const T1 = '2024-01-02T00:00:00.000Z';
export const T2 = '2024-01-03T00:00:00.000Z';

/** A ciphertext-shaped value, unique each call (real ones carry a fresh IV). */
export function creds(keyId = 'key-1'): StoredCredentials {
  return { ciphertext: `v1.${randomUUID()}.tag.ct`, key_id: keyId };
}

export async function newOrg(store: Store, name = 'Org'): Promise<string> {
  const id = randomUUID();
  await store.organizations.create({ id, name, created_at: T0 });
  return id;
}

export async function newWorkspace(
  store: Store,
  organizationId: string,
  name: string,
  fields: { status?: WorkspaceStatus; cache_enabled?: boolean | null } = {},
): Promise<Workspace> {
  const ws: Workspace = {
    id: randomUUID(),
    organization_id: organizationId,
    name,
    status: fields.status ?? 'active',
    cache_enabled: fields.cache_enabled === undefined ? null : fields.cache_enabled,
    created_at: T0,
    updated_at: T0,
  };
  await store.workspaces.create(ws);
  return ws;
}

export async function newConnector(
  store: Store,
  organizationId: string,
  workspaceId: string,
  fields: Partial<Pick<NewConnector, 'definition_id' | 'name' | 'now' | 'replication_config'>> = {},
): Promise<NewConnector> {
  const id = randomUUID();
  const c: NewConnector = {
    id,
    organization_id: organizationId,
    workspace_id: workspaceId,
    definition_id: fields.definition_id ?? 'def-github',
    connector_type: 'github',
    name: fields.name ?? `GitHub - ${id}`,
    replication_config: fields.replication_config ?? { repos: ['a/b'], since: 3 },
    credential_option: 'api_key',
    credentials: creds(),
    now: fields.now ?? T0,
  };
  await store.connectors.create(c);
  return c;
}

/** An account that is a member of `organizationIds`, with one application. */
export async function newApplication(
  store: Store,
  organizationIds: string[],
): Promise<ApplicationWithSecretHash> {
  const accountId = randomUUID();
  await store.accounts.create({ id: accountId, name: 'Account', created_at: T0 });
  for (const orgId of organizationIds) await store.accounts.addMembership(accountId, orgId, T0);
  const app: ApplicationWithSecretHash = {
    id: randomUUID(),
    account_id: accountId,
    name: 'App',
    client_id: `ces_${randomUUID()}`,
    secret_hash: `hash-${randomUUID()}`,
    created_at: T0,
    revoked_at: null,
  };
  await store.applications.create(app);
  return app;
}

/** A fresh store (from `open`) for each test of the enclosing describe; the getter returns it. */
export function freshStore(open: () => Promise<OpenedStore>): () => Store {
  let opened: OpenedStore | undefined;
  beforeEach(async () => {
    opened = await open();
  });
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });
  return () => {
    if (!opened) throw new Error('store not open');
    return opened.store;
  };
}
