/**
 * An organization's own OAuth app per connector type (the reference's `PUT /oauth/credentials` and
 * `DELETE /oauth/credentials/connector_type/{connector_type}`): the client id and secret its end users' consent
 * will be asked for (the consent flow reads them). The secret is encrypted like every credential, bound to the
 * organization and connector type, and never answered.
 */
import { randomUUID } from 'node:crypto';
import type { ConnectorDefinition } from '../../connectors/schema.ts';
import { DomainError } from '../../errors.ts';
import { oauthAppAad } from '../../security/vault.ts';
import type { OAuthApp } from '../../store/port.ts';
import { resolveDefinition } from '../connectors/lookup.ts';
import type { CoreDeps, RequestContext } from '../context.ts';
import { isoNow, requireApplicationToken } from '../context.ts';

/** A credential option whose grant is renewed with the app's client id and secret: OAuth2 with an app. */
export function oauthAppOption(def: ConnectorDefinition) {
  return def.credential_options.find(
    (o) =>
      o.refresh?.grant_type !== 'client_credentials' &&
      o.refresh !== undefined &&
      'client_id' in o.fields &&
      'client_secret' in o.fields,
  );
}

export interface PutOAuthAppInput {
  connector_type?: string | undefined;
  connector_definition_id?: string | undefined;
  configuration: Record<string, unknown>;
}

const invalid = (field: string, message: string) =>
  new DomainError('VALIDATION_ERROR', `${field} ${message}.`, {
    errors: [{ field, message, error_code: 'invalid', details: null }],
  });

function definitionFor(deps: Pick<CoreDeps, 'registry'>, input: Omit<PutOAuthAppInput, 'configuration'>) {
  if ((input.connector_type === undefined) === (input.connector_definition_id === undefined)) {
    throw invalid('connector_type', 'or connector_definition_id is required, exactly one of them');
  }
  const def = resolveDefinition(deps, {
    definition_id: input.connector_definition_id,
    connector_type: input.connector_type,
  });
  if (!oauthAppOption(def)) {
    throw invalid(
      input.connector_type !== undefined ? 'connector_type' : 'connector_definition_id',
      `names ${def.name}, whose credentials include no OAuth app (no credential option renewed with a client id and secret)`,
    );
  }
  return def;
}

export function presentOAuthApp(app: OAuthApp) {
  return {
    id: app.id,
    scope_type: 'organization' as const,
    scope_id: app.organization_id,
    connector_type: 'source' as const,
    connector_definition_id: app.definition_id,
    created_at: app.created_at,
    updated_at: app.updated_at,
  };
}

export async function putOAuthApp(
  deps: Pick<CoreDeps, 'store' | 'registry' | 'vault' | 'now'>,
  ctx: RequestContext,
  input: PutOAuthAppInput,
) {
  requireApplicationToken(ctx);
  const def = definitionFor(deps, input);
  const { client_id: clientId, client_secret: clientSecret, ...rest } = input.configuration;
  const extra = Object.keys(rest);
  if (extra.length > 0) {
    throw invalid(`configuration.${extra[0]}`, 'is not a member of an OAuth app (client_id, client_secret)');
  }
  for (const [name, value] of [
    ['client_id', clientId],
    ['client_secret', clientSecret],
  ] as const) {
    if (typeof value !== 'string' || value.length === 0 || value.length > 2048) {
      throw invalid(`configuration.${name}`, 'must be a string of 1 to 2048 characters');
    }
  }
  const now = isoNow(deps);
  const app = await deps.store.oauthApps.put({
    id: randomUUID(),
    organization_id: ctx.organizationId,
    definition_id: def.id,
    client_id: clientId as string,
    secret: deps.vault.encrypt(clientSecret as string, oauthAppAad(ctx.organizationId, def.id)),
    created_at: now,
    updated_at: now,
  });
  return presentOAuthApp(app);
}

/** Idempotent: deleting an app that is not there succeeds too. */
export async function deleteOAuthApp(
  deps: Pick<CoreDeps, 'store' | 'registry'>,
  ctx: RequestContext,
  connectorType: string,
): Promise<void> {
  requireApplicationToken(ctx);
  const def = resolveDefinition(deps, { connector_type: connectorType });
  await deps.store.oauthApps.delete(ctx.organizationId, def.id);
}
