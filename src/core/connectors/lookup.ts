import type { ConnectorDefinition } from '../../connectors/schema.ts';
import { DomainError } from '../../errors.ts';
import type { Connector } from '../../store/port.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { assertWorkspaceAccess } from '../context.ts';

export const connectorNotFound = (id: string) =>
  new DomainError('CONNECTOR_NOT_FOUND', `Connector ${id} not found.`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A connector id that no connector can have (every id is a UUID) is not found, as an unknown UUID is: the
 * same answer, so it tells nothing more. Asked before the store, whose PostgreSQL uuid column would refuse it.
 */
export function assertPossibleConnectorId(id: string): void {
  if (!UUID.test(id)) throw connectorNotFound(id);
}

/** Loads a connector of the caller's organization (404 otherwise) and enforces a scoped token's workspace. */
export async function loadConnector(
  deps: Pick<CoreDeps, 'store'>,
  ctx: RequestContext,
  id: string,
): Promise<Connector> {
  const connector = await deps.store.connectors.get(ctx.organizationId, id);
  if (!connector) throw connectorNotFound(id);
  assertWorkspaceAccess(ctx, connector.workspace_id);
  return connector;
}

export function definitionOf(deps: Pick<CoreDeps, 'registry'>, connector: Connector): ConnectorDefinition {
  const def = deps.registry.byId(connector.definition_id);
  if (!def) {
    throw new DomainError(
      'DEFINITION_NOT_FOUND',
      `The connector type ${connector.connector_type} (${connector.definition_id}) is no longer installed on this server.`,
    );
  }
  return def;
}

/** `definition_id` or `connector_type` (slug or display name, case-insensitive) names the connector type. */
export function resolveDefinition(
  deps: Pick<CoreDeps, 'registry'>,
  input: { definition_id?: string | undefined; connector_type?: string | undefined },
): ConnectorDefinition {
  if (input.definition_id) {
    const def = deps.registry.byId(input.definition_id);
    if (!def)
      throw new DomainError('DEFINITION_NOT_FOUND', `Connector definition ${input.definition_id} not found.`);
    if (input.connector_type && deps.registry.bySlug(input.connector_type)?.id !== def.id) {
      throw new DomainError(
        'VALIDATION_ERROR',
        'definition_id and connector_type name different connector types.',
        {
          errors: [
            {
              field: 'connector_type',
              message: 'does not match definition_id',
              error_code: 'mismatch',
              details: null,
            },
          ],
        },
      );
    }
    return def;
  }
  if (input.connector_type) {
    const def = deps.registry.bySlug(input.connector_type);
    if (!def) {
      const available = deps.registry
        .all()
        .map((d) => d.slug)
        .join(', ');
      throw new DomainError(
        'DEFINITION_NOT_FOUND',
        `Unknown connector_type '${input.connector_type}'. Available: ${available}.`,
      );
    }
    return def;
  }
  throw new DomainError('VALIDATION_ERROR', 'One of definition_id or connector_type must be provided.', {
    errors: [
      {
        field: 'definition_id',
        message: 'definition_id or connector_type is required',
        error_code: 'missing',
        details: null,
      },
    ],
  });
}
