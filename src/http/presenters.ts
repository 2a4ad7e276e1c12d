import type { ConnectorView } from '../core/connectors/context-store.ts';
import type { CredentialsListing } from '../core/connectors/credentials-list.ts';
import { presentTemplateDetail, presentTemplateSummary } from '../core/templates/source-templates.ts';
import type { getWorkspace } from '../core/workspaces/get.ts';

/** A workspace as the workspace verbs return it (get, update, list's `data`). */
type Workspace = Awaited<ReturnType<typeof getWorkspace>>;

/** Reply shapes. Explicit field lists: a new column never reaches a client by accident. */
export function presentWorkspace(ws: Workspace) {
  return {
    id: ws.id,
    name: ws.name,
    organization_id: ws.organization_id,
    status: ws.status,
    cache_enabled: ws.cache_enabled,
    tombstone: false,
    visibility: 'private' as const,
    color: null,
    created_at: ws.created_at,
    updated_at: ws.updated_at,
  };
}

export function presentConnector(c: ConnectorView) {
  return { ...connectorFields(c), source_template: presentTemplateDetail(c.template) };
}

export function presentConnectorListItem(c: ConnectorView) {
  return { ...connectorFields(c), summarized_source_template: presentTemplateSummary(c.template) };
}

function connectorFields(c: ConnectorView) {
  return {
    id: c.id,
    name: c.name,
    workspace_id: c.workspace_id,
    workspace_name: c.workspace_name,
    definition_id: c.definition_id,
    connector_type: c.connector_type,
    credential_option: c.credential_option,
    credentials_status: c.credentials_status,
    credentials_error: c.credentials_error,
    replication_config: c.replication_config,
    context_store: c.context_store,
    entities: c.entities,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

/** GET /organizations/{organization_id}/credentials: never a credential value, only where each connector stands. */
export function presentCredentialsListing(listing: CredentialsListing) {
  return {
    data: listing.items.map(({ connector: c, store }) => ({
      id: c.id,
      name: c.name,
      workspace_id: c.workspace_id,
      workspace_name: c.workspace_name,
      definition_id: c.definition_id,
      connector_type: c.connector_type,
      credentials_status: c.credentials_status,
      context_store_status: store?.status ?? null,
      context_store_entity_count: store?.entity_count ?? 0,
      created_at: c.created_at,
      updated_at: c.updated_at,
    })),
    total: listing.total,
  };
}
