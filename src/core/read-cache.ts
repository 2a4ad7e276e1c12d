/**
 * The two reads every request makes, answered from memory while the store says nothing they depend on has
 * changed (Store.changeVersion) and for TTL_MS at most: whether a token's application is still active
 * (authenticate) and the connector an execute runs, with its encrypted credentials. Each was a query per request
 * (two round trips per execute on PostgreSQL). A write in this process is seen at once; another process's as
 * soon as the store learns of it (see changeVersion). Values are shared by the requests that read them: treat
 * them as read-only.
 */
import type { Connector, Store, StoredCredentials } from '../store/port.ts';

const TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

export class ReadCache {
  private readonly entries = new Map<string, { until: number; value: unknown }>();
  /** The store's change version the entries were read under. */
  private version = Number.NaN;

  constructor(
    private readonly store: Pick<Store, 'changeVersion'>,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /**
   * The value kept for `key` while it is still good, without a turn of the event loop; undefined when there is
   * none (a kept `undefined` too): `get` then loads it.
   */
  peek<T>(key: string): T | undefined {
    this.sync();
    const hit = this.entries.get(key);
    return hit && hit.until > this.clock() ? (hit.value as T) : undefined;
  }

  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const version = this.sync();
    const now = this.clock();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value as T;
    const value = await load();
    // Kept only if nothing changed while it was read (another call may have moved on to a newer version).
    if (this.version === version && this.store.changeVersion() === version) {
      this.entries.delete(key);
      if (this.entries.size >= MAX_ENTRIES) {
        const oldest = this.entries.keys().next();
        if (!oldest.done) this.entries.delete(oldest.value);
      }
      this.entries.set(key, { until: now + TTL_MS, value });
    }
    return value;
  }

  /** Drops every entry once the store's change version moved; returns the version. */
  private sync(): number {
    const version = this.store.changeVersion();
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    return version;
  }
}

type ConnectorWithCredentials = { connector: Connector; credentials: StoredCredentials };

/** Each read, and its `…Kept` twin answering at once from memory (undefined: not kept, ask the first). */
export interface CachedReads {
  isApplicationActive(applicationId: string, organizationId: string): Promise<boolean>;
  isApplicationActiveKept(applicationId: string, organizationId: string): boolean | undefined;
  connectorWithCredentials(organizationId: string, id: string): Promise<ConnectorWithCredentials | undefined>;
  connectorWithCredentialsKept(organizationId: string, id: string): ConnectorWithCredentials | undefined;
}

const applicationKey = (organizationId: string, applicationId: string) =>
  `application\u0000${organizationId}\u0000${applicationId}`;
const connectorKey = (organizationId: string, id: string) => `connector\u0000${organizationId}\u0000${id}`;

const byStore = new WeakMap<Store, CachedReads>();

/** The store's cached reads (one cache per store). */
export function cachedReads(store: Store): CachedReads {
  let reads = byStore.get(store);
  if (!reads) {
    const cache = new ReadCache(store);
    reads = {
      isApplicationActive: (applicationId, organizationId) =>
        cache.get(applicationKey(organizationId, applicationId), () =>
          store.applications.isActiveInOrganization(applicationId, organizationId),
        ),
      isApplicationActiveKept: (applicationId, organizationId) =>
        cache.peek(applicationKey(organizationId, applicationId)),
      connectorWithCredentials: (organizationId, id) =>
        cache.get(connectorKey(organizationId, id), () =>
          store.connectors.getWithCredentials(organizationId, id),
        ),
      connectorWithCredentialsKept: (organizationId, id) => cache.peek(connectorKey(organizationId, id)),
    };
    byStore.set(store, reads);
  }
  return reads;
}
