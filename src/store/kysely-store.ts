import { type Kysely, sql, type Transaction } from 'kysely';
import type {
  Connector,
  ConnectorPatch,
  ContextStoreRepo,
  CredentialsStatus,
  NewConnector,
  RequestedEntity,
  SharedConcurrencySlots,
  SharedRateBuckets,
  SourceTemplate,
  SourceTemplateMode,
  Store,
  StoredCredentials,
  Workspace,
  WorkspaceListQuery,
  WorkspaceStatus,
} from './port.ts';
import { PreparedQuery } from './prepared.ts';
import type { Database } from './schema.ts';

/**
 * The store port over Kysely. The queries here are dialect-neutral (no SQLite-only SQL), so the PostgreSQL
 * adapter reuses this class and only brings its own dialect and migrations.
 */
type Db = Kysely<Database> | Transaction<Database>;

/** What an adapter adds beyond the dialect-neutral queries here. */
export interface AdapterExtras {
  /** The database locks rows (`FOR UPDATE`); SQLite's write transactions lock the whole file instead. */
  rowLocks?: boolean;
  /** Holds `key` across processes while fn runs (PostgreSQL advisory locks). */
  exclusive?<T>(key: string, fn: () => Promise<T>): Promise<T>;
  rateBuckets?: SharedRateBuckets;
  concurrencySlots?: SharedConcurrencySlots;
  /** This store's in-process holders (shared with the stores bound to its transactions). */
  mutex?: KeyedMutex;
  /** The adapter's change signal (Store.changeVersion); without one, every call is a change. */
  changes?: ChangeSignal;
}

/** Counts the changes an adapter sees (Store.changeVersion). */
export class ChangeSignal {
  private version = 0;

  constructor(
    private readonly source: {
      /** Looks for a change made elsewhere (SQLite: another connection's commit); true when there was one. */
      poll?: () => boolean;
      /** false: changes may go unseen (PostgreSQL's listening connection is down): every call is a change. */
      watching?: () => boolean;
      /** Stops watching (the store closes). */
      close?: () => Promise<void>;
    } = {},
  ) {}

  /** Something changed: every number handed out so far is stale. */
  bump(): void {
    this.version++;
  }

  current(): number {
    if (this.source.watching?.() === false || this.source.poll?.()) this.version++;
    return this.version;
  }

  async close(): Promise<void> {
    await this.source.close?.();
  }
}

/** One holder per key at a time within this process: each caller runs after the previous one settles. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const mine = previous.then(fn, fn);
    const tail = mine.catch(() => {});
    this.tails.set(key, tail);
    try {
      return await mine;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

function toWorkspace(row: Database['workspaces']): Workspace {
  return {
    id: row.id,
    organization_id: row.organization_id,
    name: row.name,
    status: row.status as WorkspaceStatus,
    cache_enabled: row.cache_enabled === null ? null : row.cache_enabled === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function toSourceTemplate(row: Database['source_templates']): SourceTemplate {
  return {
    ...row,
    partial_default_config: JSON.parse(row.partial_default_config) as Record<string, unknown>,
    customization:
      row.customization === null ? null : (JSON.parse(row.customization) as Record<string, unknown>),
    tags: JSON.parse(row.tags) as string[],
    mode: row.mode as SourceTemplateMode,
  };
}

/** Escapes LIKE metacharacters so a user's `%` or `_` matches literally. */
function likeContains(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class KyselyStore implements Store {
  constructor(
    private readonly db: Db,
    private readonly root: Kysely<Database>,
    /** The adapter's Context Store; it runs its own transactions, so a transaction-bound store shares it. */
    readonly contextStore: ContextStoreRepo,
    extras: AdapterExtras = {},
  ) {
    this.extras = {
      ...extras,
      mutex: extras.mutex ?? new KeyedMutex(),
      changes: extras.changes ?? new ChangeSignal({ watching: () => false }),
    };
    if (extras.rateBuckets) this.rateBuckets = extras.rateBuckets;
    if (extras.concurrencySlots) this.concurrencySlots = extras.concurrencySlots;
  }

  private readonly extras: AdapterExtras & { mutex: KeyedMutex; changes: ChangeSignal };

  readonly rateBuckets?: SharedRateBuckets;
  readonly concurrencySlots?: SharedConcurrencySlots;

  async exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    // One holder per key in this process first: waiters queue here, not on database connections.
    const { exclusive } = this.extras;
    return this.extras.mutex.run(key, () => (exclusive ? exclusive(key, fn) : fn()));
  }

  async transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    if (this.db !== this.root) return fn(this); // already inside one: flatten
    return this.root
      .transaction()
      .execute((trx) => fn(new KyselyStore(trx, this.root, this.contextStore, this.extras)));
  }

  changeVersion(): number {
    return this.extras.changes.current();
  }

  async ping(): Promise<void> {
    await this.db.selectFrom('organizations').select('id').limit(1).execute();
  }

  async close(): Promise<void> {
    await this.extras.changes.close();
    await this.contextStore.close();
    await this.root.destroy();
  }

  readonly organizations: Store['organizations'] = {
    create: async (org) => {
      await this.db.insertInto('organizations').values(org).execute();
    },
    get: (id) => this.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst(),
    list: () => this.db.selectFrom('organizations').selectAll().orderBy('created_at').orderBy('id').execute(),
    lock: async (id) => {
      if (this.db === this.root) throw new Error('organizations.lock needs a transaction');
      if (this.extras.rowLocks) {
        await this.db.selectFrom('organizations').select('id').where('id', '=', id).forUpdate().execute();
      }
    },
  };

  readonly accounts: Store['accounts'] = {
    create: async (account) => {
      await this.db.insertInto('accounts').values(account).execute();
    },
    addMembership: async (accountId, organizationId, now) => {
      await this.db
        .insertInto('account_organizations')
        .values({ account_id: accountId, organization_id: organizationId, created_at: now })
        .onConflict((oc) => oc.columns(['account_id', 'organization_id']).doNothing())
        .execute();
    },
    organizationIds: async (accountId) => {
      const rows = await this.db
        .selectFrom('account_organizations')
        .select('organization_id')
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => r.organization_id);
    },
    isMember: async (accountId, organizationId) => {
      const row = await this.db
        .selectFrom('account_organizations')
        .select('account_id')
        .where('account_id', '=', accountId)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst();
      return row !== undefined;
    },
  };

  readonly applications: Store['applications'] = {
    create: async (app) => {
      await this.db.insertInto('applications').values(app).execute();
    },
    findByClientIdForLogin: (clientId) =>
      this.db
        .selectFrom('applications')
        .selectAll()
        .where('client_id', '=', clientId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst(),
    isActiveInOrganization: async (applicationId, organizationId) =>
      (await this.activeApplication.first(this.db, applicationId, organizationId)) !== undefined,
    listForOrganization: (organizationId) =>
      this.db
        .selectFrom('applications as a')
        .innerJoin('account_organizations as m', 'm.account_id', 'a.account_id')
        .select(['a.id', 'a.account_id', 'a.name', 'a.client_id', 'a.created_at', 'a.revoked_at'])
        .where('m.organization_id', '=', organizationId)
        .orderBy('a.created_at')
        .execute(),
    revoke: async (organizationId, idOrClientId, now) => {
      const app = await this.db
        .selectFrom('applications as a')
        .innerJoin('account_organizations as m', 'm.account_id', 'a.account_id')
        .select('a.id')
        .where('m.organization_id', '=', organizationId)
        .where((eb) => eb.or([eb('a.id', '=', idOrClientId), eb('a.client_id', '=', idOrClientId)]))
        .executeTakeFirst();
      if (!app) return false;
      await this.db
        .updateTable('applications')
        .set({ revoked_at: now })
        .where('id', '=', app.id)
        .where('revoked_at', 'is', null)
        .execute();
      return true;
    },
    redirectUrls: async (applicationId) => {
      const rows = await this.db
        .selectFrom('application_redirect_urls')
        .select('url')
        .where('application_id', '=', applicationId)
        .orderBy('url')
        .execute();
      return rows.map((r) => r.url);
    },
    setRedirectUrls: async (applicationId, urls, now) => {
      await this.transaction(async (tx) => {
        const db = (tx as KyselyStore).db;
        await db
          .deleteFrom('application_redirect_urls')
          .where('application_id', '=', applicationId)
          .execute();
        const unique = [...new Set(urls)];
        if (unique.length === 0) return;
        await db
          .insertInto('application_redirect_urls')
          .values(unique.map((url) => ({ application_id: applicationId, url, created_at: now })))
          .execute();
      });
    },
  };

  readonly workspaces: Store['workspaces'] = {
    create: async (ws) => {
      await this.db
        .insertInto('workspaces')
        .values({ ...ws, cache_enabled: ws.cache_enabled === null ? null : ws.cache_enabled ? 1 : 0 })
        .execute();
    },
    get: async (organizationId, id) => {
      const row = await this.db
        .selectFrom('workspaces')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toWorkspace(row);
    },
    getByName: async (organizationId, name) => {
      const row = await this.db
        .selectFrom('workspaces')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('name', '=', name)
        .executeTakeFirst();
      return row && toWorkspace(row);
    },
    list: async (organizationId, query: WorkspaceListQuery) => {
      let q = this.db.selectFrom('workspaces').selectAll().where('organization_id', '=', organizationId);
      if (query.nameContains) {
        const pattern = likeContains(query.nameContains.toLowerCase());
        // ESCAPE is standard SQL (SQLite and PostgreSQL alike), so a literal % or _ in the query stays literal.
        q = q.where(sql<boolean>`lower(name) like ${pattern} escape '\\'`);
      }
      if (query.status) q = q.where('status', '=', query.status);
      if (query.after) {
        const { name, id } = query.after;
        q = q.where((eb) =>
          eb.or([eb('name', '>', name), eb.and([eb('name', '=', name), eb('id', '>', id)])]),
        );
      }
      const rows = await q.orderBy('name').orderBy('id').limit(query.limit).execute();
      return rows.map(toWorkspace);
    },
    stats: async (organizationId) => {
      const rows = await this.db
        .selectFrom('workspaces')
        .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
        .where('organization_id', '=', organizationId)
        .groupBy('status')
        .execute();
      const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
      return { active: count('active'), inactive: count('inactive') };
    },
    count: async (organizationId) => {
      const row = await this.db
        .selectFrom('workspaces')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('organization_id', '=', organizationId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    update: async (organizationId, id, patch) => {
      const set: Partial<Database['workspaces']> = { updated_at: patch.now };
      if (patch.name !== undefined) set.name = patch.name;
      if (patch.status !== undefined) set.status = patch.status;
      if (patch.cache_enabled !== undefined) {
        set.cache_enabled = patch.cache_enabled === null ? null : patch.cache_enabled ? 1 : 0;
      }
      const result = await this.db
        .updateTable('workspaces')
        .set(set)
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return undefined;
      return this.workspaces.get(organizationId, id);
    },
    delete: async (organizationId, id) => {
      // Explicit child delete rather than relying on ON DELETE CASCADE being enabled in every dialect.
      await this.db
        .deleteFrom('connectors')
        .where('organization_id', '=', organizationId)
        .where('workspace_id', '=', id)
        .execute();
      const result = await this.db
        .deleteFrom('workspaces')
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };

  /** Asked on every authenticated request (revocation is read per request): compiled once. */
  private readonly activeApplication = new PreparedQuery(2, (applicationId: string, organizationId: string) =>
    this.db
      .selectFrom('applications as a')
      .innerJoin('account_organizations as m', 'm.account_id', 'a.account_id')
      .select('a.id')
      .where('a.id', '=', applicationId)
      .where('a.revoked_at', 'is', null)
      .where('m.organization_id', '=', organizationId),
  );

  /** Read by every execute: compiled once. */
  private readonly connectorWithCredentials = new PreparedQuery(2, (organizationId: string, id: string) =>
    this.connectorQuery()
      .select(['c.credentials_ciphertext', 'c.credentials_key_id'])
      .where('c.organization_id', '=', organizationId)
      .where('c.id', '=', id),
  );

  private connectorQuery() {
    return this.db
      .selectFrom('connectors as c')
      .innerJoin('workspaces as w', 'w.id', 'c.workspace_id')
      .select([
        'c.id',
        'c.organization_id',
        'c.workspace_id',
        'w.name as workspace_name',
        'w.status as workspace_status',
        'c.definition_id',
        'c.connector_type',
        'c.name',
        'c.replication_config',
        'c.credential_option',
        'c.credentials_status',
        'c.credentials_error',
        'c.source_template_id',
        'c.entities',
        'c.created_at',
        'c.updated_at',
      ]);
  }

  private static toConnector(
    row: Omit<Connector, 'replication_config' | 'entities'> & {
      replication_config: string;
      entities: string | null;
    },
  ) {
    return {
      ...row,
      workspace_status: row.workspace_status as WorkspaceStatus,
      credentials_status: row.credentials_status as CredentialsStatus,
      replication_config: JSON.parse(row.replication_config) as Record<string, unknown>,
      entities: row.entities === null ? null : (JSON.parse(row.entities) as RequestedEntity[]),
    } satisfies Connector;
  }

  readonly connectors: Store['connectors'] = {
    create: async (c: NewConnector) => {
      await this.db
        .insertInto('connectors')
        .values({
          id: c.id,
          organization_id: c.organization_id,
          workspace_id: c.workspace_id,
          definition_id: c.definition_id,
          connector_type: c.connector_type,
          name: c.name,
          replication_config: JSON.stringify(c.replication_config),
          credential_option: c.credential_option,
          credentials_ciphertext: c.credentials.ciphertext,
          credentials_key_id: c.credentials.key_id,
          credentials_status: 'valid',
          credentials_error: null,
          source_template_id: c.source_template_id ?? null,
          entities: c.entities ? JSON.stringify(c.entities) : null,
          created_at: c.now,
          updated_at: c.now,
        })
        .execute();
    },
    get: async (organizationId, id) => {
      const row = await this.connectorQuery()
        .where('c.organization_id', '=', organizationId)
        .where('c.id', '=', id)
        .executeTakeFirst();
      return row && KyselyStore.toConnector(row as never);
    },
    getWithCredentials: async (organizationId, id) => {
      const row = await this.connectorWithCredentials.first(this.db, organizationId, id);
      if (!row) return undefined;
      const { credentials_ciphertext, credentials_key_id, ...rest } = row;
      return {
        connector: KyselyStore.toConnector(rest as never),
        credentials: { ciphertext: credentials_ciphertext, key_id: credentials_key_id },
      };
    },
    list: async (organizationId, filter) => {
      let q = this.connectorQuery().where('c.organization_id', '=', organizationId);
      if (filter.workspaceId) q = q.where('c.workspace_id', '=', filter.workspaceId);
      if (filter.definitionId) q = q.where('c.definition_id', '=', filter.definitionId);
      const rows = await q.orderBy('c.created_at').orderBy('c.id').execute();
      return rows.map((r) => KyselyStore.toConnector(r as never));
    },
    count: async (organizationId) => {
      const row = await this.db
        .selectFrom('connectors')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('organization_id', '=', organizationId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    update: async (organizationId, id, patch: ConnectorPatch) => {
      const set: Partial<Database['connectors']> = { updated_at: patch.now };
      if (patch.name !== undefined) set.name = patch.name;
      if (patch.replication_config !== undefined)
        set.replication_config = JSON.stringify(patch.replication_config);
      if (patch.credential_option !== undefined) set.credential_option = patch.credential_option;
      if (patch.entities !== undefined) set.entities = patch.entities ? JSON.stringify(patch.entities) : null;
      if (patch.credentials !== undefined) {
        set.credentials_ciphertext = patch.credentials.ciphertext;
        set.credentials_key_id = patch.credentials.key_id;
        set.credentials_status = 'valid';
        set.credentials_error = null;
      }
      const result = await this.db
        .updateTable('connectors')
        .set(set)
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    delete: async (organizationId, id) => {
      const result = await this.db
        .deleteFrom('connectors')
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    replaceCredentialsIfUnchanged: async (organizationId, id, expected, next) => {
      // Ciphertexts carry a fresh random IV, so equal ciphertext means nobody wrote the row since we read it.
      const result = await this.db
        .updateTable('connectors')
        .set({
          credentials_ciphertext: next.ciphertext,
          credentials_key_id: next.key_id,
          credentials_status: 'valid',
          credentials_error: null,
        })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .where('credentials_ciphertext', '=', expected.ciphertext)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    markCredentialsNeedReauth: async (organizationId, id, expected, reason) => {
      const result = await this.db
        .updateTable('connectors')
        .set({ credentials_status: 'needs_reauth', credentials_error: reason })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .where('credentials_ciphertext', '=', expected.ciphertext)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    getCredentials: async (organizationId, id) => {
      const row = await this.db
        .selectFrom('connectors')
        .select(['credentials_ciphertext', 'credentials_key_id'])
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && { ciphertext: row.credentials_ciphertext, key_id: row.credentials_key_id };
    },
    listCredentialsForRotation: async () => {
      const rows = await this.db
        .selectFrom('connectors')
        .select(['id', 'organization_id', 'credentials_ciphertext', 'credentials_key_id'])
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        organization_id: r.organization_id,
        ciphertext: r.credentials_ciphertext,
        key_id: r.credentials_key_id,
      }));
    },
    replaceCredentialsForRotation: async (id, credentials: StoredCredentials) => {
      await this.db
        .updateTable('connectors')
        .set({ credentials_ciphertext: credentials.ciphertext, credentials_key_id: credentials.key_id })
        .where('id', '=', id)
        .execute();
    },
  };

  readonly sourceTemplates: Store['sourceTemplates'] = {
    create: async (t) => {
      await this.db
        .insertInto('source_templates')
        .values({
          ...t,
          partial_default_config: JSON.stringify(t.partial_default_config),
          customization: t.customization === null ? null : JSON.stringify(t.customization),
          tags: JSON.stringify(t.tags),
        })
        .execute();
    },
    get: async (organizationId, id) => {
      const row = await this.db
        .selectFrom('source_templates')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toSourceTemplate(row);
    },
    list: async (organizationId, filter = {}) => {
      let q = this.db
        .selectFrom('source_templates')
        .selectAll()
        .where('organization_id', '=', organizationId);
      if (filter.definitionId) q = q.where('definition_id', '=', filter.definitionId);
      const rows = await q.orderBy('created_at').orderBy('id').execute();
      return rows.map(toSourceTemplate);
    },
    update: async (organizationId, id, patch) => {
      const set: Partial<Database['source_templates']> = { updated_at: patch.now };
      if (patch.name !== undefined) set.name = patch.name;
      if (patch.partial_default_config !== undefined)
        set.partial_default_config = JSON.stringify(patch.partial_default_config);
      if (patch.customization !== undefined)
        set.customization = patch.customization === null ? null : JSON.stringify(patch.customization);
      if (patch.mode !== undefined) set.mode = patch.mode;
      const result = await this.db
        .updateTable('source_templates')
        .set(set)
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return undefined;
      return this.sourceTemplates.get(organizationId, id);
    },
    delete: async (organizationId, id) => {
      const result = await this.db
        .deleteFrom('source_templates')
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };

  readonly oauthStates: Store['oauthStates'] = {
    create: async (state) => {
      const { verifier, ...rest } = state;
      await this.db
        .insertInto('oauth_states')
        .values({
          ...rest,
          verifier_ciphertext: verifier?.ciphertext ?? null,
          verifier_key_id: verifier?.key_id ?? null,
        })
        .execute();
    },
    createWithinCaps: (state, caps, now) =>
      this.transaction(async (store) => {
        const tx = store as KyselyStore;
        // Serializes the count and the insert against every other consent start of the organization: SQLite's
        // transactions take the write lock first (begin immediate); PostgreSQL locks the organization's row.
        await tx.organizations.lock(state.organization_id);
        const counted = [
          ['workspace', 'workspace_id', state.workspace_id, caps.perWorkspace],
          ['widget_token', 'widget_token_id', state.widget_token_id, caps.perWidgetToken],
        ] as const;
        for (const [cap, column, value, limit] of counted) {
          if (limit <= 0 || value === null) continue;
          const open = await tx.db
            .selectFrom('oauth_states')
            .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('expires_at').as('first')])
            .where('organization_id', '=', state.organization_id)
            .where(column, '=', value)
            .where('used_at', 'is', null)
            .where('expires_at', '>', now)
            .executeTakeFirstOrThrow();
          if (Number(open.n) >= limit) return { created: false, cap, limit, freesAt: String(open.first) };
        }
        await tx.oauthStates.create(state);
        return { created: true };
      }),
    consume: async (organizationId, id, now) => {
      const row = await this.db
        .updateTable('oauth_states')
        .set({ used_at: now })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      const { verifier_ciphertext, verifier_key_id, ...rest } = row;
      return {
        ...rest,
        verifier:
          verifier_ciphertext !== null && verifier_key_id !== null
            ? { ciphertext: verifier_ciphertext, key_id: verifier_key_id }
            : null,
      };
    },
    deleteExpired: async (before) => {
      const result = await this.db
        .deleteFrom('oauth_states')
        .where('expires_at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };

  readonly oauthApps: Store['oauthApps'] = {
    put: async (app) => {
      await this.db
        .insertInto('oauth_apps')
        .values({
          id: app.id,
          organization_id: app.organization_id,
          definition_id: app.definition_id,
          client_id: app.client_id,
          secret_ciphertext: app.secret.ciphertext,
          secret_key_id: app.secret.key_id,
          created_at: app.created_at,
          updated_at: app.updated_at,
        })
        .onConflict((oc) =>
          oc.columns(['organization_id', 'definition_id']).doUpdateSet({
            client_id: app.client_id,
            secret_ciphertext: app.secret.ciphertext,
            secret_key_id: app.secret.key_id,
            updated_at: app.updated_at,
          }),
        )
        .execute();
      const stored = await this.oauthApps.get(app.organization_id, app.definition_id);
      if (!stored) throw new Error('oauth app vanished after upsert');
      const { secret: _secret, ...rest } = stored;
      return rest;
    },
    get: async (organizationId, definitionId) => {
      const row = await this.db
        .selectFrom('oauth_apps')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('definition_id', '=', definitionId)
        .executeTakeFirst();
      if (!row) return undefined;
      const { secret_ciphertext, secret_key_id, ...rest } = row;
      return { ...rest, secret: { ciphertext: secret_ciphertext, key_id: secret_key_id } };
    },
    delete: async (organizationId, definitionId) => {
      const result = await this.db
        .deleteFrom('oauth_apps')
        .where('organization_id', '=', organizationId)
        .where('definition_id', '=', definitionId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    listForRotation: async () => {
      const rows = await this.db
        .selectFrom('oauth_apps')
        .select(['id', 'organization_id', 'definition_id', 'secret_ciphertext', 'secret_key_id'])
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        organization_id: r.organization_id,
        definition_id: r.definition_id,
        ciphertext: r.secret_ciphertext,
        key_id: r.secret_key_id,
      }));
    },
    replaceSecretForRotation: async (id, secret) => {
      await this.db
        .updateTable('oauth_apps')
        .set({ secret_ciphertext: secret.ciphertext, secret_key_id: secret.key_id })
        .where('id', '=', id)
        .execute();
    },
  };

  readonly serverSecrets: Store['serverSecrets'] = {
    get: async (name) => {
      const row = await this.db
        .selectFrom('server_secrets')
        .select(['ciphertext', 'key_id'])
        .where('name', '=', name)
        .executeTakeFirst();
      return row;
    },
    putIfAbsent: async (name, value, now) => {
      await this.db
        .insertInto('server_secrets')
        .values({ name, ciphertext: value.ciphertext, key_id: value.key_id, created_at: now })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const stored = await this.serverSecrets.get(name);
      if (!stored) throw new Error(`server secret ${name} vanished after insert`);
      return stored;
    },
    list: () => this.db.selectFrom('server_secrets').select(['name', 'ciphertext', 'key_id']).execute(),
    replace: async (name, value) => {
      await this.db
        .updateTable('server_secrets')
        .set({ ciphertext: value.ciphertext, key_id: value.key_id })
        .where('name', '=', name)
        .execute();
    },
  };
}
