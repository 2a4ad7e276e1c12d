import { resolveCredentials } from '../../connectors/credentials.ts';
import { connectorAad } from '../../security/vault.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { isoNow } from '../context.ts';
import { type ConnectorView, restartContextStore, viewOf } from './context-store.ts';
import { connectorNotFound, definitionOf, loadConnector } from './lookup.ts';
import { validateReplicationConfig } from './replication-config.ts';

export interface UpdateConnectorInput {
  name?: string | undefined;
  replication_config?: Record<string, unknown> | undefined;
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
  const replicationConfig =
    input.replication_config !== undefined
      ? validateReplicationConfig(def, input.replication_config)
      : connector.replication_config;
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
  if (credentials || input.replication_config !== undefined) await restartContextStore(deps, after);
  return viewOf(deps, after);
}
