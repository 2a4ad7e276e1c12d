/**
 * The reference's configuration checks: `POST /integrations/connectors/check` (a create's body, checked and not
 * stored) and `POST /integrations/connectors/{id}/check` (a stored connector with new settings). The answer is
 * a check result, not an error: what the provider or the definition refused comes back as `status: failed`
 * with the reason, as the reference does. Only a request naming what does not exist (a workspace, a connector
 * type, a template, the connector) or that this caller may not touch is a 4xx.
 */
import { randomUUID } from 'node:crypto';
import { resolveCredentials } from '../../connectors/credentials.ts';
import { destinationConfigKeys } from '../../connectors/runtime/request.ts';
import { DomainError } from '../../errors.ts';
import type { RequestedEntity } from '../../store/port.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { viewOf } from './context-store.ts';
import { type CreateConnectorInput, resolveWorkspace } from './create.ts';
import { openConnectorCall } from './credential-store.ts';
import { definitionOf, loadConnector } from './lookup.ts';
import {
  composeReplicationConfig,
  refuseOauthSecretId,
  requestedEntities,
  resolveTemplate,
} from './reference-input.ts';
import { validateReplicationConfig } from './replication-config.ts';

export interface CheckResult {
  id: string;
  status: 'succeeded' | 'failed';
  error_message: string | null;
  failure_reason: {
    timestamp: number;
    failure_origin: 'source';
    failure_type: 'config_error' | 'transient_error';
    external_message: string;
    internal_message: string;
    stacktrace: null;
    retryable: boolean;
    from_trace_message: false;
  } | null;
  entity_check_results: null;
}

/** Refusals about the configuration or the credentials themselves; anything else may pass on a retry. */
const CONFIG_ERRORS = new Set([
  'VALIDATION_ERROR',
  'INVALID_CREDENTIALS',
  'UPSTREAM_AUTH_FAILED',
  'UPSTREAM_FORBIDDEN',
  'UPSTREAM_NOT_FOUND',
  'CONNECTOR_REAUTH_REQUIRED',
  'INVALID_PARAMS',
]);
/** What says the request itself named something wrong: these stay errors. */
const REQUEST_ERRORS = new Set([
  'WORKSPACE_NOT_FOUND',
  'WORKSPACE_SCOPE_VIOLATION',
  'WORKSPACE_INACTIVE',
  'CONNECTOR_NOT_FOUND',
  'DEFINITION_NOT_FOUND',
  'SOURCE_TEMPLATE_NOT_FOUND',
  'FORBIDDEN',
  'UNAUTHENTICATED',
  'RATE_LIMITED',
  'SERVER_BUSY',
]);

async function outcome(deps: Pick<CoreDeps, 'now'>, run: () => Promise<unknown>): Promise<CheckResult> {
  const id = randomUUID();
  try {
    await run();
    return { id, status: 'succeeded', error_message: null, failure_reason: null, entity_check_results: null };
  } catch (err) {
    if (!(err instanceof DomainError) || REQUEST_ERRORS.has(err.code)) throw err;
    const config = CONFIG_ERRORS.has(err.code);
    return {
      id,
      status: 'failed',
      error_message: err.message,
      failure_reason: {
        timestamp: deps.now().getTime(),
        failure_origin: 'source',
        failure_type: config ? 'config_error' : 'transient_error',
        external_message: err.message,
        internal_message: err.code,
        stacktrace: null,
        retryable: !config,
        from_trace_message: false,
      },
      entity_check_results: null,
    };
  }
}

/** A create's body checked as create would, against the provider; nothing is stored. */
export async function checkNewConnector(
  deps: CoreDeps,
  ctx: RequestContext,
  input: CreateConnectorInput,
): Promise<CheckResult> {
  await resolveWorkspace(deps, ctx, input.workspace_name);
  const { def, template } = await resolveTemplate(deps, ctx.organizationId, input);
  return outcome(deps, async () => {
    refuseOauthSecretId(input);
    requestedEntities(def, input.entities);
    const credentials = resolveCredentials(def, input.credentials);
    const config = validateReplicationConfig(def, composeReplicationConfig(def, template, input));
    await deps.runtime.checkCredentials(def, credentials, config);
  });
}

export interface CheckExistingInput {
  name?: string | undefined;
  replication_config?: Record<string, unknown> | undefined;
  entities?: RequestedEntity[] | undefined;
}

/**
 * A stored connector's credentials checked with new settings (or its own). Nothing changes but what a refresh
 * of its OAuth2 grant during the check must store (a rotated refresh token would otherwise be lost).
 */
export async function checkExistingConnector(
  deps: CoreDeps,
  ctx: RequestContext,
  id: string,
  input: CheckExistingInput,
): Promise<CheckResult> {
  const connector = await loadConnector(deps, ctx, id);
  const def = definitionOf(deps, connector);
  const { template } = await viewOf(deps, connector);
  const stored = await deps.store.connectors.getCredentials(ctx.organizationId, id);
  if (!stored) throw new DomainError('CONNECTOR_NOT_FOUND', `Connector ${id} not found.`);
  let config = connector.replication_config;
  if (input.replication_config !== undefined) {
    config = validateReplicationConfig(def, composeReplicationConfig(def, template, input));
    // Stored credentials go only where their owner sent them: a check never carries them to a new host.
    const moved = destinationConfigKeys(def).filter(
      (k) => JSON.stringify(connector.replication_config[k]) !== JSON.stringify(config[k]),
    );
    if (moved.length > 0) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `replication_config.${moved[0]} changes where ${def.name} requests go; the stored credentials are not sent to a new destination. Check the new settings with their credentials: POST /api/v1/integrations/connectors/check.`,
        {
          errors: moved.map((k) => ({
            field: `replication_config.${k}`,
            message: 'changes the destination of the stored credentials',
            error_code: 'destination_change',
            details: null,
          })),
        },
      );
    }
  }
  return outcome(deps, async () => {
    requestedEntities(def, input.entities);
    const call = openConnectorCall(deps, ctx.organizationId, connector, stored, def);
    await deps.runtime.checkCredentials(def, call.credentials, config, id, call.credentialStore);
  });
}
