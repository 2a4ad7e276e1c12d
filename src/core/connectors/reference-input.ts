/**
 * The reference's optional members of a connector's create (and check) body, resolved into what ces stores:
 * the source template (given, or the organization's only one for the type, or the type's default), its fixed
 * replication_config values, `environment` (values of the definition's base-URL variables), and `entities`.
 */
import type { ConnectorDefinition } from '../../connectors/schema.ts';
import { DomainError } from '../../errors.ts';
import type { RequestedEntity } from '../../store/port.ts';
import type { CoreDeps } from '../context.ts';
import { defaultTemplate, getTemplate, type TemplateView } from '../templates/source-templates.ts';
import { resolveDefinition } from './lookup.ts';

export interface ReferenceInput {
  definition_id?: string | undefined;
  connector_type?: string | undefined;
  source_template_id?: string | undefined;
  replication_config?: Record<string, unknown> | undefined;
  environment?: Record<string, unknown> | undefined;
  entities?: RequestedEntity[] | undefined;
  server_side_oauth_secret_id?: string | undefined;
}

const invalid = (
  field: string,
  message: string,
  code = 'invalid',
  details: Record<string, unknown> | null = null,
) =>
  new DomainError('VALIDATION_ERROR', `${field} ${message}.`, {
    errors: [{ field, message, error_code: code, details }],
  });

/** The definition and template a body names (one of definition_id, connector_type, source_template_id). */
export async function resolveTemplate(
  deps: Pick<CoreDeps, 'store' | 'registry'>,
  organizationId: string,
  input: ReferenceInput,
): Promise<{ def: ConnectorDefinition; template: TemplateView }> {
  if (input.source_template_id !== undefined) {
    const template = await getTemplate(deps, organizationId, input.source_template_id);
    if (input.definition_id !== undefined || input.connector_type !== undefined) {
      const named = resolveDefinition(deps, input);
      if (named.id !== template.definition.id) {
        throw invalid(
          'source_template_id',
          `is a template of ${template.definition.name}, not of ${named.name}`,
          'mismatch',
        );
      }
    }
    return { def: template.definition, template };
  }
  if (input.definition_id === undefined && input.connector_type === undefined) {
    throw new DomainError(
      'VALIDATION_ERROR',
      'One of connector_type, definition_id, or source_template_id must be provided.',
      {
        errors: [
          {
            field: 'connector_type',
            message: 'one of connector_type, definition_id, source_template_id is required',
            error_code: 'missing',
            details: null,
          },
        ],
      },
    );
  }
  const def = resolveDefinition(deps, input);
  const own = await deps.store.sourceTemplates.list(organizationId, { definitionId: def.id });
  if (own.length > 1) {
    throw invalid(
      'source_template_id',
      `is required: this organization has ${own.length} templates for ${def.name} (${own.map((t) => t.id).join(', ')})`,
      'missing',
    );
  }
  const [only] = own;
  return { def, template: only ? { ...only, definition: def } : defaultTemplate(def) };
}

/**
 * The replication_config to validate: the caller's, with `environment` values moved to the keys of the
 * definition's base-URL variables, and the template's fixed values (a different value for one is refused).
 */
export function composeReplicationConfig(
  def: ConnectorDefinition,
  template: TemplateView,
  input: Pick<ReferenceInput, 'replication_config' | 'environment'>,
): Record<string, unknown> {
  const config: Record<string, unknown> = { ...(input.replication_config ?? {}) };
  for (const [name, value] of Object.entries(input.environment ?? {})) {
    const variable = def.base_url_variables?.[name];
    const key = variable ? (variable.config_key ?? name) : undefined;
    if (key === undefined) {
      const known = Object.keys(def.base_url_variables ?? {});
      throw invalid(
        `environment.${name}`,
        `is not a setting of ${def.name}'s server URL (${known.length > 0 ? `it has: ${known.join(', ')}` : 'it has none'})`,
        'unknown_variable',
        { variables: known },
      );
    }
    if (config[key] !== undefined && JSON.stringify(config[key]) !== JSON.stringify(value)) {
      throw invalid(`environment.${name}`, `differs from replication_config.${key}`, 'conflict');
    }
    config[key] = value;
  }
  for (const [key, value] of Object.entries(template.partial_default_config)) {
    if (config[key] !== undefined && JSON.stringify(config[key]) !== JSON.stringify(value)) {
      throw invalid(
        `replication_config.${key}`,
        `is fixed to ${JSON.stringify(value)} by source template ${template.id}`,
        'fixed_by_template',
      );
    }
    config[key] = structuredClone(value);
  }
  return config;
}

/** The entities a body asks for, checked against the definition; null when it names none. */
export function requestedEntities(
  def: ConnectorDefinition,
  entities: RequestedEntity[] | undefined,
): RequestedEntity[] | null {
  if (entities === undefined) return null;
  const names = new Set(def.entities.map((e) => e.name));
  const seen = new Set<string>();
  entities.forEach((e, i) => {
    if (!names.has(e.entity)) {
      throw invalid(
        `entities.${i}.entity`,
        `'${e.entity}' is not an entity of ${def.name}`,
        'unknown_entity',
        {
          entities: [...names],
        },
      );
    }
    if (seen.has(e.entity)) throw invalid(`entities.${i}.entity`, `names '${e.entity}' twice`, 'duplicate');
    seen.add(e.entity);
  });
  // [] clears the selection: every entity, as with none given.
  return entities.length === 0
    ? null
    : entities.map((e) => (e.modes ? { entity: e.entity, modes: [...e.modes] } : { entity: e.entity }));
}

/** ces takes credentials in the request (checked at once); the reference's older OAuth secret-id hand-over is not offered. */
export function refuseOauthSecretId(input: Pick<ReferenceInput, 'server_side_oauth_secret_id'>): void {
  if (input.server_side_oauth_secret_id === undefined) return;
  throw invalid(
    'server_side_oauth_secret_id',
    'is not supported by ces, which issues no OAuth secret ids: send the credentials themselves (they are checked against the provider at once)',
    'unsupported',
  );
}
