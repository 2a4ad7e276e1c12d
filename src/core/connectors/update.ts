import { type ResolvedCredentials, resolveCredentials } from '../../connectors/credentials.ts';
import { destinationConfigKeys, movedDestinationFields } from '../../connectors/runtime/request.ts';
import type { ConnectorDefinition } from '../../connectors/schema.ts';
import { DomainError } from '../../errors.ts';
import { connectorAad } from '../../security/vault.ts';
import type { Connector, RequestedEntity } from '../../store/port.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { isoNow } from '../context.ts';
import { type ConnectorView, restartContextStore, startContextStore, viewOf } from './context-store.ts';
import { connectorNotFound, definitionOf, loadConnector } from './lookup.ts';
import { composeReplicationConfig, requestedEntities } from './reference-input.ts';
import { validateReplicationConfig } from './replication-config.ts';

export interface UpdateConnectorInput {
  name?: string | undefined;
  replication_config?: Record<string, unknown> | undefined;
  /** [] clears the selection (every entity). */
  entities?: RequestedEntity[] | undefined;
  credentials?: unknown;
}

/** PUT also rotates credentials (the reference cannot): validated and checked live exactly as at create. */
export async function updateConnector(
  deps: CoreDeps,
  ctx: RequestContext,
  id: string,
  input: UpdateConnectorInput,
): Promise<ConnectorView> {
  const connector = await loadConnector(deps, ctx, id);
  const def = definitionOf(deps, connector);
  const { template } = await viewOf(deps, connector);
  const replicationConfig =
    input.replication_config !== undefined
      ? validateReplicationConfig(def, composeReplicationConfig(def, template, input))
      : connector.replication_config;
  const entities = input.entities !== undefined ? requestedEntities(def, input.entities) : undefined;
  if (input.credentials === undefined)
    await assertDestinationKept(deps, ctx, def, connector, replicationConfig);
  let credentials: ReturnType<typeof resolveCredentials> | undefined;
  if (input.credentials !== undefined) {
    // What the check used: it may have refreshed an OAuth2 grant. Storing new credentials clears needs_reauth.
    credentials = await deps.runtime.checkCredentials(
      def,
      resolveCredentials(def, input.credentials),
      replicationConfig,
      id,
    );
  }
  const updated = await deps.store.connectors.update(ctx.organizationId, id, {
    ...(input.name !== undefined ? { name: input.name.trim() } : {}),
    ...(input.replication_config !== undefined ? { replication_config: replicationConfig } : {}),
    ...(entities !== undefined ? { entities } : {}),
    ...(credentials
      ? {
          credential_option: credentials.option,
          credentials: deps.vault.encrypt(JSON.stringify(credentials), connectorAad(ctx.organizationId, id)),
        }
      : {}),
    now: isoNow(deps),
  });
  if (!updated) throw connectorNotFound(id);
  const after = await loadConnector(deps, ctx, id);
  // Entities newly asked for get their syncs (ones no longer asked for keep what they indexed).
  if (entities !== undefined) await startContextStore(deps, after, def, template);
  if (credentials || input.replication_config !== undefined) await restartContextStore(deps, after);
  return viewOf(deps, after);
}

/**
 * Stored credentials go only where their owner sent them. A change of a setting that decides the destination
 * (GitHub Enterprise's `api_url`, a Zendesk subdomain) would otherwise let anyone allowed to update the connector,
 * a workspace-scoped token included, redirect the stored token to a host of their choosing — on the next execute
 * and on the sync the change restarts. Such a change needs the credentials in the same request, which are then
 * checked live against the new destination.
 */
async function assertDestinationKept(
  deps: CoreDeps,
  ctx: RequestContext,
  def: ConnectorDefinition,
  connector: Connector,
  next: Record<string, unknown>,
): Promise<void> {
  const keys = destinationConfigKeys(def);
  const touched = keys.some(
    (k) => JSON.stringify(connector.replication_config[k]) !== JSON.stringify(next[k]),
  );
  if (!touched) return;
  // Only now decrypt: a credential field (Zendesk's subdomain) may take precedence over the config key.
  const found = await deps.store.connectors.getWithCredentials(ctx.organizationId, connector.id);
  if (!found) throw connectorNotFound(connector.id);
  const stored = JSON.parse(
    deps.vault.decrypt(found.credentials, connectorAad(ctx.organizationId, connector.id)),
  ) as ResolvedCredentials;
  const moved = movedDestinationFields(def, connector.replication_config, next, stored);
  if (moved.length === 0) return;
  const message = `Changing ${moved.join(', ')} changes where this connector's credentials are sent; send the credentials again in the same request ({"credentials": {...}}), and they are checked against the new destination.`;
  throw new DomainError('VALIDATION_ERROR', message, {
    errors: [
      ...moved.map((field) => ({
        field,
        message: 'changes the destination of the stored credentials; the credentials are required with it',
        error_code: 'credentials_required',
        details: null,
      })),
      {
        field: 'credentials',
        message: 'required when the destination changes',
        error_code: 'required',
        details: null,
      },
    ],
  });
}
