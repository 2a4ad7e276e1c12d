import type { EntityLayout } from '../context-store/layout.ts';
import type { SearchRequest } from '../context-store/query.ts';
import type {
  EntitySyncState,
  EntitySyncStatus,
  NextPass,
  SyncCheckpoint,
  SyncJob,
  SyncPass,
} from '../context-store/sync-state.ts';
import type { StoredCredentials } from '../security/vault.ts';

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
  /** The source template it was created from; null: its connector type's implicit default template. */
  source_template_id: string | null;
  /** The entities its creator asked for; null: every entity. */
  entities: RequestedEntity[] | null;
  created_at: string;
  updated_at: string;
}

export type EntityMode = 'read' | 'write';

/** An entity a connector is asked to serve (the reference's RequestedEntity); no modes: every mode. */
export interface RequestedEntity {
  entity: string;
  modes?: EntityMode[] | null;
}

export type SourceTemplateMode = 'DIRECT' | 'REPLICATION' | 'MULTI';

/** An organization's enabling of a connector type for its end users. */
export interface SourceTemplate {
  id: string;
  organization_id: string;
  definition_id: string;
  name: string;
  /** replication_config values fixed for every connector made from it */
  partial_default_config: Record<string, unknown>;
  customization: Record<string, unknown> | null;
  tags: string[];
  mode: SourceTemplateMode;
  created_at: string;
  updated_at: string;
}

export interface SourceTemplatePatch {
  name?: string;
  partial_default_config?: Record<string, unknown>;
  customization?: Record<string, unknown> | null;
  mode?: SourceTemplateMode;
  now: string;
}

/** Encrypted credentials as stored: a distinct type so a decrypted value can never be mistaken for it. */
// The vault's envelope (security owns its shape); stored as it is.
export type { StoredCredentials };

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
  source_template_id?: string | null;
  entities?: RequestedEntity[] | null;
  now: string;
}

export interface ConnectorPatch {
  name?: string;
  replication_config?: Record<string, unknown>;
  credential_option?: string;
  /** New credentials from the user; writing them resets `credentials_status` to `valid`. */
  credentials?: StoredCredentials;
  /** null clears the selection (every entity). */
  entities?: RequestedEntity[] | null;
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
  /**
   * Inside `Store.transaction`: holds the organization until the transaction ends, so that a count and the
   * insert it allows (quotas) of concurrent transactions of one organization run one after the other.
   * (SQLite's write transactions are exclusive already; PostgreSQL locks the organization's row.)
   */
  lock(id: string): Promise<void>;
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
  /** Where the application's consent flows may send the browser back to, in URL order. */
  redirectUrls(applicationId: string): Promise<string[]>;
  /** Replaces the application's redirect URLs (tenantless: an application is the operator's to configure). */
  setRedirectUrls(applicationId: string, urls: string[], now: string): Promise<void>;
}

export interface WorkspacesRepo {
  create(ws: Workspace): Promise<void>;
  get(organizationId: string, id: string): Promise<Workspace | undefined>;
  getByName(organizationId: string, name: string): Promise<Workspace | undefined>;
  list(organizationId: string, query: WorkspaceListQuery): Promise<Workspace[]>;
  stats(organizationId: string): Promise<{ active: number; inactive: number }>;
  /** How many workspaces the organization has (its quota). */
  count(organizationId: string): Promise<number>;
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
  /** How many connectors the organization has, all workspaces together (its quota). */
  count(organizationId: string): Promise<number>;
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

export interface SourceTemplatesRepo {
  create(template: SourceTemplate): Promise<void>;
  get(organizationId: string, id: string): Promise<SourceTemplate | undefined>;
  /** The organization's templates, oldest first; only those of one connector type with `definitionId`. */
  list(organizationId: string, filter?: { definitionId?: string }): Promise<SourceTemplate[]>;
  update(organizationId: string, id: string, patch: SourceTemplatePatch): Promise<SourceTemplate | undefined>;
  delete(organizationId: string, id: string): Promise<boolean>;
}

/** An organization's own OAuth app for a connector type; the client secret only in `OAuthAppWithSecret`. */
export interface OAuthApp {
  id: string;
  organization_id: string;
  definition_id: string;
  client_id: string;
  created_at: string;
  updated_at: string;
}

export interface OAuthAppWithSecret extends OAuthApp {
  secret: StoredCredentials;
}

export interface OAuthAppsRepo {
  /** Creates the organization's app for the connector type, or replaces its client id and secret (id and created_at kept). */
  put(app: OAuthAppWithSecret): Promise<OAuthApp>;
  get(organizationId: string, definitionId: string): Promise<OAuthAppWithSecret | undefined>;
  delete(organizationId: string, definitionId: string): Promise<boolean>;
  /** Key rotation sweep (tenantless by design: it re-encrypts every row). */
  listForRotation(): Promise<
    Array<{ id: string; organization_id: string; definition_id: string } & StoredCredentials>
  >;
  replaceSecretForRotation(id: string, secret: StoredCredentials): Promise<void>;
}

/** The server side of one consent flow's `state` (see migrations/consent.ts). */
export interface OAuthState {
  id: string;
  organization_id: string;
  application_id: string;
  workspace_id: string;
  /** The widget token (its `jti`) the connect page began the flow with; null for a flow begun through the API. */
  widget_token_id: string | null;
  definition_id: string;
  option_title: string;
  redirect_url: string;
  /** What the connector is created with once consent is given (JSON the core layer owns). */
  request: string;
  /** The PKCE verifier, encrypted; null for providers without PKCE. */
  verifier: StoredCredentials | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** How many open states (unused, expiring after now) one workspace and one widget token may hold; 0: no cap. */
export interface OpenStateCaps {
  perWorkspace: number;
  perWidgetToken: number;
}

export type CappedCreate =
  | { created: true }
  /** `freesAt`: the earliest expiry among the states the cap counted, when the next one may be stored. */
  | { created: false; cap: 'workspace' | 'widget_token'; limit: number; freesAt: string };

export interface OAuthStatesRepo {
  create(state: OAuthState): Promise<void>;
  /**
   * Stores the state unless its workspace, or its widget token, already holds as many open states as its cap
   * (open at `now`: unused and expiring after it). The count and the insert run as one: racing calls, in this
   * process or in others on the same database, never pass a cap together.
   */
  createWithinCaps(state: OAuthState, caps: OpenStateCaps, now: string): Promise<CappedCreate>;
  /**
   * Marks the state used and returns it, if it is unused and expires after `now`; otherwise undefined. Of
   * racing calls for one state exactly one gets it (a single conditional UPDATE).
   */
  consume(organizationId: string, id: string, now: string): Promise<OAuthState | undefined>;
  /** Removes states that expired before `before` (used or not); returns how many. */
  deleteExpired(before: string): Promise<number>;
}

export interface ServerSecretsRepo {
  get(name: string): Promise<StoredCredentials | undefined>;
  /** Inserts only if absent; returns the stored value either way (first writer wins when processes race). */
  putIfAbsent(name: string, value: StoredCredentials, now: string): Promise<StoredCredentials>;
  list(): Promise<Array<{ name: string } & StoredCredentials>>;
  replace(name: string, value: StoredCredentials): Promise<void>;
}

/** Token buckets in the database (see ConnectorRuntime's RateBuckets, which this satisfies). */
export interface SharedRateBuckets {
  /**
   * Takes a token of `key`'s bucket (`requests` per `per_seconds`, full when new) if one is due within
   * `maxWaitMs`: granted with how long to wait before sending, or refused with how long it would have been.
   */
  reserve(
    key: string,
    rate: { requests: number; per_seconds: number },
    maxWaitMs: number,
  ): Promise<{ granted: boolean; waitMs: number }>;
  /** The provider said `share` of its bucket is free: `key`'s level is held to that share of its size. */
  observe(key: string, rate: { requests: number; per_seconds: number }, share: number): Promise<void>;
}

/** Counted slots in the database (see ConnectorRuntime's SharedSlots, which this satisfies). */
export interface SharedConcurrencySlots {
  /** Takes one of `limit` slots of `key` if one is free: its id, or null. A slot expires after `holdMs`. */
  tryAcquire(key: string, limit: number, holdMs: number): Promise<string | null>;
  release(id: string): Promise<void>;
}

export interface Store {
  organizations: OrganizationsRepo;
  accounts: AccountsRepo;
  applications: ApplicationsRepo;
  workspaces: WorkspacesRepo;
  connectors: ConnectorsRepo;
  sourceTemplates: SourceTemplatesRepo;
  oauthApps: OAuthAppsRepo;
  oauthStates: OAuthStatesRepo;
  serverSecrets: ServerSecretsRepo;
  contextStore: ContextStoreRepo;
  /** Runs fn atomically; the store passed to fn is bound to the transaction. */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /**
   * Runs fn while holding `key` against every other holder of it: in this process, and on PostgreSQL in every
   * process on the database (an advisory lock, freed by the server if the process dies). For work that must
   * not run twice at once anywhere, such as spending an OAuth2 refresh token.
   */
  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Rate-limit buckets every process on the database shares (PostgreSQL); undefined where each process keeps
   * its own (SQLite: one process).
   */
  readonly rateBuckets?: SharedRateBuckets;
  /**
   * Concurrency slots every process on the database counts together (PostgreSQL); undefined where each process
   * counts its own.
   */
  readonly concurrencySlots?: SharedConcurrencySlots;
  /**
   * A number that differs from every earlier answer once what this store serves about organizations,
   * applications, workspaces or connectors may have changed: after each committed write of this process, and
   * after another process's as soon as this process learns of it (SQLite: another connection's commit, seen
   * from the next turn of the event loop; PostgreSQL: the notification its tables' triggers send on commit).
   * Answers kept in memory under one number (src/core/read-cache.ts) are current while it stays the same. An
   * adapter that cannot tell (PostgreSQL while its listening connection is down) answers a new number at every
   * call.
   */
  changeVersion(): number;
  ping(): Promise<void>;
  close(): Promise<void>;
}

// --- Context Store -----------------------------------------------------------------------------------------

// The sync's domain types live in the Context Store domain; the port stores them as they are.
export type { EntitySyncStatus, SyncPass, SyncCheckpoint, EntitySyncState, NextPass, SyncJob };

/**
 * Records made ready for writing by `ContextStoreRepo.encode` (for SQLite: serialised rows). Encoding is most
 * of a write's cost outside the database, so the sync loop encodes each page as it arrives, while the next
 * one is being fetched, and hands the store whole batches of encoded pages.
 */
export interface EncodedRecords {
  /** Records encoded; 0 for a page given as bytes (`encodeBytes`), whose records are counted when written. */
  readonly count: number;
  /** The provider's bytes of a page given as bytes. */
  readonly bytes?: number;
  readonly rows: unknown;
}

/** What `commitPage` did. */
export interface PageCommit {
  /** False: the lease was lost, nothing was written. */
  held: boolean;
  /** Records written. */
  records: number;
  /**
   * For pages given as bytes with a `high` field: its largest value among their records (ISO 8601), by partition
   * key. The checkpoint written with them already holds it.
   */
  highs: Record<string, string>;
}

/**
 * The syncs of one connector type's entity, all organizations together (for metrics: it names no tenant).
 */
export interface ContextStoreStats {
  connector_type: string;
  entity: string;
  /** Syncs by status; statuses without any are absent. */
  syncs: Partial<Record<EntitySyncStatus, number>>;
  /** Records in the index: the syncs' entity counts added up (each as of its last count). */
  records: number;
  /**
   * The earliest `run_after` of the syncs due at `now` that a worker may run (workspace active, Context Store
   * on; running ones included): since when the most overdue one waits for its pass to finish. Null: none due.
   */
  oldest_due_at: string | null;
}

/** The index side of one entity: what the worker writes (and search reads). */
export interface IndexPage {
  layout: EntityLayout;
  /** pages encoded by `encode` with this layout, in the order read */
  pages: EncodedRecords[];
}

/**
 * The Context Store's persistence. Its methods run their own transactions: never call them inside
 * `Store.transaction` (on SQLite they would wait for the very connection that transaction holds).
 */
export interface ContextStoreRepo {
  /** Creates the index tables of these layouts; a table whose layout changed is rebuilt and its syncs restarted. */
  ensureLayouts(layouts: EntityLayout[], now: string): Promise<{ rebuilt: string[] }>;
  /** Starts syncs (status Initializing, a backfill due now) for entities that have none yet. */
  initConnector(organizationId: string, connectorId: string, entities: string[], now: string): Promise<void>;
  /** Re-reads everything from scratch (new credentials or replication_config): a new backfill due now. */
  restartConnector(organizationId: string, connectorId: string, now: string): Promise<void>;
  states(organizationId: string, connectorId: string): Promise<EntitySyncState[]>;
  /** Sync states of many connectors of an organization at once (connector lists). */
  statesFor(organizationId: string, connectorIds: string[]): Promise<Map<string, EntitySyncState[]>>;
  /**
   * Leases one due sync of a connector whose workspace is active and has the Context Store enabled.
   * Atomic: of several workers, one gets it. A lease that expired (its worker died) can be claimed again.
   */
  claim(owner: string, now: string, leaseUntil: string): Promise<SyncJob | undefined>;
  /**
   * Prepares records for commitPage (synchronous: no I/O). Records without their primary key are left out:
   * they can't be kept in step. `generation` is the pass's; `syncedAt` the time they were read. `texts`, when
   * given, holds each record's JSON as the provider wrote it (kept instead of serialising the record again).
   */
  encode(
    connectorId: string,
    layout: EntityLayout,
    records: unknown[],
    generation: number,
    syncedAt: string,
    texts?: readonly string[],
  ): EncodedRecords;
  /**
   * `encode` for a page the store decodes where it writes it (SQLite: on its writer thread, off the thread that
   * answers requests): `list` is the provider's bytes of the list of records, not parsed yet, in the pieces they
   * arrived in (joined, they are the list; a store joins them where it parses them). With `high`,
   * commitPage reports the largest value of that (incremental, timestamp) field among the page's records under
   * the partition key, and writes it into the checkpoint's `highs`. The store may take the pieces' memory
   * (SQLite moves them to its decoder thread): the caller reads none of them after the call. Optional: a store
   * without it is given parsed records.
   */
  encodeBytes?(
    connectorId: string,
    layout: EntityLayout,
    list: readonly Buffer[],
    generation: number,
    syncedAt: string,
    high?: { field: string; key: string },
  ): EncodedRecords;
  /**
   * Writes a page of records and the checkpoint after it in one transaction, if `job`'s lease is still ours
   * (`held` false: it was lost, nothing written). Extends the lease. A page given as bytes that is not a JSON
   * list of records fails the commit, with nothing written. `state.count` asks for the entity count to be
   * brought up to date (a store that keeps it exact as it writes, as SQLite does, needs no asking).
   */
  commitPage(
    job: SyncJob,
    page: IndexPage,
    checkpoint: SyncCheckpoint,
    state: { status: EntitySyncStatus; ready_for_search: boolean; count: boolean },
    now: string,
    leaseUntil: string,
  ): Promise<PageCommit>;
  /**
   * Ends a pass: for a backfill/full pass deletes the records it did not see (older generation), then
   * schedules the next pass and releases the lease. False: lease lost.
   */
  finishPass(job: SyncJob, layout: EntityLayout, next: NextPass, now: string): Promise<boolean>;
  /** Saves a checkpoint (e.g. resolved partitions) and extends the lease; false: lease lost. */
  saveCheckpoint(
    job: SyncJob,
    checkpoint: SyncCheckpoint,
    status: EntitySyncStatus,
    leaseUntil: string,
  ): Promise<boolean>;
  /** Gives the sync back, due again at `run_after`, optionally recording a failure. */
  release(
    job: SyncJob,
    outcome: { run_after: string; attempts: number; status?: EntitySyncStatus; last_error?: string | null },
    now: string,
  ): Promise<void>;
  /**
   * Owners recorded on leases, expired ones included until another owner takes them over (a restarted process
   * frees those of its dead predecessor on the same host).
   */
  leaseOwners(): Promise<string[]>;
  releaseOwner(owner: string): Promise<number>;
  /**
   * One page of a search over a connector's index, compiled by the adapter for its own SQL dialect; only rows
   * of the organization's connector. Each row's `data` is the record's stored JSON text. Runs off the request
   * path's thread where the adapter can, taking turns fairly across organizations, and within the configured
   * time budget: SEARCH_TIMEOUT when it ran past it (the database work has stopped). A search is let in to wait
   * by the wait its organization's searches ahead of it imply (search-queue.ts, shared by both adapters):
   * SEARCH_QUEUE_FULL (Retry-After) when they would keep it waiting too long, or it gave up waiting behind
   * them; SERVER_BUSY (Retry-After) when every organization's searches together would, or it gave up waiting
   * behind other organizations'; INVALID_QUERY before anything runs.
   */
  search(
    organizationId: string,
    connectorId: string,
    layout: EntityLayout,
    request: SearchRequest,
  ): Promise<Array<{ rid: number; data: string }>>;
  /**
   * Every sync aggregated by connector type and entity (metrics). Reads every sync row, so callers keep the
   * answer a while rather than asking per scrape; the SQLite adapter reads on its writer's thread, never on the
   * request path's.
   */
  stats(now: string): Promise<ContextStoreStats[]>;
  /** Removes the connector's records from these index tables and its syncs. */
  dropConnector(organizationId: string, connectorId: string, layouts: EntityLayout[]): Promise<void>;
  /** Finishes the writes handed over and frees what the repo holds (its writer thread). */
  close(): Promise<void>;
}
