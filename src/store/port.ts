/**
 * The store port: what core needs from persistence. Adapters (SQLite now, PostgreSQL later) implement it.
 * Every tenant-owned lookup takes the organization id; there is no find-by-id without a tenant.
 * The two tenantless lookups (an application by client_id at login, and the key-rotation sweep) say so.
 */
export type WorkspaceStatus = 'active' | 'inactive';

export interface Organization {
  id: string;
  name: string;
  created_at: string;
}

export interface Application {
  id: string;
  account_id: string;
  name: string;
  client_id: string;
  created_at: string;
  revoked_at: string | null;
}

/** Only the login path sees the keyed hash of the client secret. */
export interface ApplicationWithSecretHash extends Application {
  secret_hash: string;
}

export interface Workspace {
  id: string;
  organization_id: string;
  name: string;
  status: WorkspaceStatus;
  cache_enabled: boolean | null;
  created_at: string;
  updated_at: string;
}

/** `needs_reauth`: the provider refused to renew the stored OAuth2 grant; new credentials are needed. */
export type CredentialsStatus = 'valid' | 'needs_reauth';

/** A connector as ordinary reads return it: never with its credentials. */
export interface Connector {
  id: string;
  organization_id: string;
  workspace_id: string;
  workspace_name: string;
  workspace_status: WorkspaceStatus;
  definition_id: string;
  connector_type: string;
  name: string;
  replication_config: Record<string, unknown>;
  credential_option: string;
  credentials_status: CredentialsStatus;
  /** Why the status is `needs_reauth` (no credential value in it); null while `valid`. */
  credentials_error: string | null;
  created_at: string;
  updated_at: string;
}

/** Encrypted credentials as stored: a distinct type so a decrypted value can never be mistaken for it. */
export interface StoredCredentials {
  ciphertext: string;
  key_id: string;
}

export interface NewConnector {
  id: string;
  organization_id: string;
  workspace_id: string;
  definition_id: string;
  connector_type: string;
  name: string;
  replication_config: Record<string, unknown>;
  credential_option: string;
  credentials: StoredCredentials;
  now: string;
}

export interface ConnectorPatch {
  name?: string;
  replication_config?: Record<string, unknown>;
  credential_option?: string;
  /** New credentials from the user; writing them resets `credentials_status` to `valid`. */
  credentials?: StoredCredentials;
  now: string;
}

export interface WorkspaceListQuery {
  nameContains?: string;
  status?: WorkspaceStatus;
  limit: number;
  /** Keyset position: list continues strictly after this (name, id). */
  after?: { name: string; id: string };
}

export interface OrganizationsRepo {
  create(org: Organization): Promise<void>;
  get(id: string): Promise<Organization | undefined>;
  list(): Promise<Organization[]>;
}

export interface AccountsRepo {
  create(account: { id: string; name: string; created_at: string }): Promise<void>;
  addMembership(accountId: string, organizationId: string, now: string): Promise<void>;
  organizationIds(accountId: string): Promise<string[]>;
  isMember(accountId: string, organizationId: string): Promise<boolean>;
}

export interface ApplicationsRepo {
  create(app: ApplicationWithSecretHash): Promise<void>;
  /** Tenantless by nature: the client_id is what identifies the caller at login. */
  findByClientIdForLogin(clientId: string): Promise<ApplicationWithSecretHash | undefined>;
  /** Whether a token's application still exists, is not revoked and is still a member of the organization. */
  isActiveInOrganization(applicationId: string, organizationId: string): Promise<boolean>;
  listForOrganization(organizationId: string): Promise<Application[]>;
  revoke(organizationId: string, applicationIdOrClientId: string, now: string): Promise<boolean>;
}

export interface WorkspacesRepo {
  create(ws: Workspace): Promise<void>;
  get(organizationId: string, id: string): Promise<Workspace | undefined>;
  getByName(organizationId: string, name: string): Promise<Workspace | undefined>;
  list(organizationId: string, query: WorkspaceListQuery): Promise<Workspace[]>;
  stats(organizationId: string): Promise<{ active: number; inactive: number }>;
  update(
    organizationId: string,
    id: string,
    patch: { name?: string; status?: WorkspaceStatus; cache_enabled?: boolean | null; now: string },
  ): Promise<Workspace | undefined>;
  /** Deletes the workspace and, with it, its connectors and their encrypted credentials. */
  delete(organizationId: string, id: string): Promise<boolean>;
}

export interface ConnectorsRepo {
  create(connector: NewConnector): Promise<void>;
  get(organizationId: string, id: string): Promise<Connector | undefined>;
  list(organizationId: string, filter: { workspaceId?: string; definitionId?: string }): Promise<Connector[]>;
  update(organizationId: string, id: string, patch: ConnectorPatch): Promise<boolean>;
  delete(organizationId: string, id: string): Promise<boolean>;
  /** The execute path: the connector and its encrypted credentials in one read. */
  getWithCredentials(
    organizationId: string,
    id: string,
  ): Promise<{ connector: Connector; credentials: StoredCredentials } | undefined>;
  /**
   * Compare-and-swap of refreshed credentials: writes `next` (and status `valid`) only if the row still holds
   * `expected` (same ciphertext), so of two concurrent refreshes exactly one is stored. False: it changed.
   */
  replaceCredentialsIfUnchanged(
    organizationId: string,
    id: string,
    expected: StoredCredentials,
    next: StoredCredentials,
  ): Promise<boolean>;
  /** Sets `needs_reauth` with `reason`, only if the row still holds `expected`. False: it changed. */
  markCredentialsNeedReauth(
    organizationId: string,
    id: string,
    expected: StoredCredentials,
    reason: string,
  ): Promise<boolean>;
  /** The one read that loads the secret column alone. */
  getCredentials(organizationId: string, id: string): Promise<StoredCredentials | undefined>;
  /** Key rotation sweep (tenantless by design: it re-encrypts every row, reading nothing but ciphertext). */
  listCredentialsForRotation(): Promise<Array<{ id: string; organization_id: string } & StoredCredentials>>;
  replaceCredentialsForRotation(id: string, credentials: StoredCredentials): Promise<void>;
}

export interface ServerSecretsRepo {
  get(name: string): Promise<StoredCredentials | undefined>;
  /** Inserts only if absent; returns the stored value either way (first writer wins when processes race). */
  putIfAbsent(name: string, value: StoredCredentials, now: string): Promise<StoredCredentials>;
  list(): Promise<Array<{ name: string } & StoredCredentials>>;
  replace(name: string, value: StoredCredentials): Promise<void>;
}

export interface Store {
  organizations: OrganizationsRepo;
  accounts: AccountsRepo;
  applications: ApplicationsRepo;
  workspaces: WorkspacesRepo;
  connectors: ConnectorsRepo;
  serverSecrets: ServerSecretsRepo;
  /** Runs fn atomically; the store passed to fn is bound to the transaction. */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
