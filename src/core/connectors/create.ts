import { randomUUID } from 'node:crypto';
import { type ResolvedCredentials, resolveCredentials } from '../../connectors/credentials.ts';
import type { ConnectorDefinition } from '../../connectors/schema.ts';
import { DomainError } from '../../errors.ts';
import { connectorAad } from '../../security/vault.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { assertWorkspaceAccess, isoNow } from '../context.ts';
import { assertUnderQuota } from '../quotas.ts';
import { type ConnectorView, startContextStore, viewOf } from './context-store.ts';
import {
  composeReplicationConfig,
  type ReferenceInput,
  refuseOauthSecretId,
  requestedEntities,
  resolveTemplate,
} from './reference-input.ts';
import { validateReplicationConfig } from './replication-config.ts';

export interface CreateConnectorInput extends ReferenceInput {
  workspace_name?: string | undefined;
  name?: string | undefined;
  credentials: unknown;
}

/**
 * Unlike the reference service, credentials are checked at create: their shape against the definition's
 * options, then live against the provider (the definition's `check` request). Nothing is stored unless both pass.
 */
export function createConnector(
  deps: CoreDeps,
  ctx: RequestContext,
  input: CreateConnectorInput,
): Promise<ConnectorView> {
  return createWithCredentials(deps, ctx, input, (def) => resolveCredentials(def, input.credentials));
}

/**
 * The create path with credentials from elsewhere than the request body (a consent flow's token answer):
 * `credentialsFor` is called with the resolved definition, before anything is checked or stored.
 */
export async function createWithCredentials(
  deps: CoreDeps,
  ctx: RequestContext,
  input: Omit<CreateConnectorInput, 'credentials'>,
  credentialsFor: (def: ConnectorDefinition) => ResolvedCredentials,
): Promise<ConnectorView> {
  const workspace = await resolveWorkspace(deps, ctx, input.workspace_name);
  refuseOauthSecretId(input);
  const { def, template } = await resolveTemplate(deps, ctx.organizationId, input);
  const entities = requestedEntities(def, input.entities);
  const credentials = credentialsFor(def);
  const replicationConfig = validateReplicationConfig(def, composeReplicationConfig(def, template, input));
  // Also before the live check, so an organization at its limit costs no upstream call.
  await assertConnectorQuota(deps, deps.store, ctx.organizationId);
  const id = randomUUID();
  // The check may have refreshed an OAuth2 grant (rotating a single-use refresh token): store what it used.
  const checked = await deps.runtime.checkCredentials(def, credentials, replicationConfig, id);

  const now = isoNow(deps);
  // Count and insert in one transaction holding the organization, so creations racing each other stop exactly
  // at the limit.
  await deps.store.transaction(async (tx) => {
    await tx.organizations.lock(ctx.organizationId);
    await assertConnectorQuota(deps, tx, ctx.organizationId);
    await tx.connectors.create({
      id,
      organization_id: ctx.organizationId,
      workspace_id: workspace.id,
      definition_id: def.id,
      connector_type: def.slug,
      name: input.name?.trim() || `${def.name} - ${id}`,
      replication_config: replicationConfig,
      credential_option: checked.option,
      credentials: deps.vault.encrypt(JSON.stringify(checked), connectorAad(ctx.organizationId, id)),
      source_template_id: template.organization_id === null ? null : template.id,
      entities,
      now,
    });
  });
  const created = await deps.store.connectors.get(ctx.organizationId, id);
  if (!created) throw new Error('connector vanished right after insert');
  await startContextStore(deps, created, def, template);
  return viewOf(deps, created);
}

async function assertConnectorQuota(deps: CoreDeps, store: CoreDeps['store'], organizationId: string) {
  const limit = deps.quotas.connectorsPerOrganization;
  if (limit <= 0) return;
  const count = await store.connectors.count(organizationId);
  assertUnderQuota(count, limit, 'connectors', 'CES_MAX_CONNECTORS_PER_ORGANIZATION');
}

export async function resolveWorkspace(deps: CoreDeps, ctx: RequestContext, name: string | undefined) {
  if (name === undefined) {
    if (ctx.workspaceId) {
      const ws = await deps.store.workspaces.get(ctx.organizationId, ctx.workspaceId);
      if (ws) return ws;
    }
    throw new DomainError('VALIDATION_ERROR', 'workspace_name is required.', {
      errors: [{ field: 'workspace_name', message: 'is required', error_code: 'missing', details: null }],
    });
  }
  const ws = await deps.store.workspaces.getByName(ctx.organizationId, name);
  if (!ws) throw new DomainError('WORKSPACE_NOT_FOUND', `Workspace '${name}' not found.`);
  assertWorkspaceAccess(ctx, ws.id);
  return ws;
}
