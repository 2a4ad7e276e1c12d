// The resource groups of a Ces client: connectors, definitions (the catalog) and workspaces.
import type { Client } from 'openapi-fetch';
import { unwrap } from './errors.ts';
import type { paths } from './generated/openapi.ts';
import type {
  Connector,
  ConnectorCheck,
  ConnectorCheckSettings,
  ConnectorCreate,
  ConnectorDeleted,
  ConnectorInspection,
  ConnectorListQuery,
  ConnectorSummary,
  ConnectorUpdate,
  Definition,
  DefinitionSummary,
  Workspace,
  WorkspaceListQuery,
  WorkspaceUpdate,
} from './types.ts';

type Api = Client<paths>;
const id = (value: string) => ({ params: { path: { id: value } } });

/** The Context Store's connector states, in the order a backfill goes through them. */
const STAGES = ['Loading', 'Building Preview', 'Preview', 'Ready'] as const;
export type ContextStoreStage = (typeof STAGES)[number];

export class Connectors {
  constructor(private readonly api: Api) {}

  /** Creates a connector; its credentials are checked against the provider first (never answered back). */
  create(body: ConnectorCreate): Promise<Connector> {
    return unwrap(this.api.POST('/api/v1/integrations/connectors', { body }));
  }

  /** The organization's connectors (those of the token's workspace for a scoped token). */
  async list(query: ConnectorListQuery = {}): Promise<ConnectorSummary[]> {
    return (await unwrap(this.api.GET('/api/v1/integrations/connectors', { params: { query } }))).data;
  }

  get(connectorId: string): Promise<Connector> {
    return unwrap(this.api.GET('/api/v1/integrations/connectors/{id}', id(connectorId)));
  }

  /** Changes `name`, `replication_config`, `entities`, or rotates `credentials` (checked first). */
  update(connectorId: string, body: ConnectorUpdate): Promise<Connector> {
    return unwrap(this.api.PUT('/api/v1/integrations/connectors/{id}', { ...id(connectorId), body }));
  }

  /** Deletes the connector, its credentials and its index; done when it answers. */
  delete(connectorId: string): Promise<ConnectorDeleted> {
    return unwrap(this.api.DELETE('/api/v1/integrations/connectors/{id}', id(connectorId)));
  }

  /** Checks the stored credentials (with these settings, if given) against the provider; changes nothing. */
  async check(connectorId: string, settings: ConnectorCheckSettings = {}): Promise<ConnectorCheck> {
    const path = '/api/v1/integrations/connectors/{id}/check';
    return (await unwrap(this.api.POST(path, { ...id(connectorId), body: settings }))) as ConnectorCheck;
  }

  /** Checks a connector's settings and credentials as create would, storing nothing. */
  async checkNew(body: ConnectorCreate): Promise<ConnectorCheck> {
    return (await unwrap(this.api.POST('/api/v1/integrations/connectors/check', { body }))) as ConnectorCheck;
  }

  /** The Context Store's state: per entity status, ready_for_search, entity_count, last_error. */
  inspect(connectorId: string): Promise<ConnectorInspection> {
    return unwrap(this.api.GET('/api/v1/integrations/connectors/{id}/inspect', id(connectorId)));
  }

  /**
   * Waits until the connector's Context Store has reached `until` (`Preview`: some entities searchable, others
   * still on their way, so check the entity's `ready_for_search`; `Ready`: every backfill done), polling inspect.
   * Throws when it failed or the time is up.
   */
  async waitForContextStore(
    connectorId: string,
    options: { until?: 'Preview' | 'Ready'; timeoutMs?: number; intervalMs?: number } = {},
  ): Promise<ConnectorInspection> {
    const { until = 'Ready', timeoutMs = 60_000, intervalMs = 250 } = options;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const inspection = await this.inspect(connectorId);
      const status = inspection.context_store.status;
      if (STAGES.indexOf(status as ContextStoreStage) >= STAGES.indexOf(until)) return inspection;
      if (status === 'Failed' || status === null) {
        const errors = inspection.context_store.entities.map((e) => e.last_error).filter(Boolean);
        throw new Error(`the Context Store of ${connectorId} is ${status ?? 'off'}: ${errors.join('; ')}`);
      }
      if (Date.now() > deadline) {
        throw new Error(`the Context Store of ${connectorId} is still ${status} after ${timeoutMs} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

export class Definitions {
  constructor(private readonly api: Api) {}

  /** The catalog of connector types, optionally those whose name contains `name`. */
  async list(query: { name?: string } = {}): Promise<DefinitionSummary[]> {
    const path = '/api/v1/integrations/definitions/sources';
    return (await unwrap(this.api.GET(path, { params: { query } }))).definitions;
  }

  /** Credential options, the replication_config schema, entities, actions and their params. */
  get(definitionId: string): Promise<Definition> {
    return unwrap(this.api.GET('/api/v1/integrations/definitions/sources/{id}', id(definitionId)));
  }
}

export class Workspaces {
  constructor(private readonly api: Api) {}

  /** One page of workspaces; `next` is the cursor of the following page (null on the last). */
  list(query: WorkspaceListQuery = {}): Promise<{ data: Workspace[]; next: string | null }> {
    return unwrap(this.api.GET('/api/v1/workspaces', { params: { query } }));
  }

  /** Every workspace, page after page. */
  async *all(query: Omit<WorkspaceListQuery, 'cursor'> = {}): AsyncGenerator<Workspace, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.list({ ...query, ...(cursor ? { cursor } : {}) });
      yield* page.data;
      cursor = page.next ?? undefined;
    } while (cursor);
  }

  get(workspaceId: string): Promise<Workspace> {
    const path = '/api/v1/workspaces/{workspace_id}';
    return unwrap(this.api.GET(path, { params: { path: { workspace_id: workspaceId } } }));
  }

  /** Renames it or sets its `status` (an inactive workspace's connectors answer 403 WORKSPACE_INACTIVE). */
  update(workspaceId: string, body: WorkspaceUpdate): Promise<Workspace> {
    const path = '/api/v1/workspaces/{workspace_id}';
    return unwrap(this.api.PUT(path, { params: { path: { workspace_id: workspaceId } }, body }));
  }
}
