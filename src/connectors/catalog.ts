/**
 * How a definition is shown through the API. Field names follow the reference service (camelCase catalog
 * members, `definition.spec.connectionSpecification`) so its clients work unchanged; the snake_case members
 * (`credential_options`, `entities`) are ces additions meant for clients and AI agents.
 */
import { LIMIT_PARAM, pageSizeParam } from './page-size.ts';
import { limitDescription } from './runtime/limit.ts';
import type { ActionDefinition, ConnectorDefinition, CredentialOption, ParamDefinition } from './schema.ts';
import { actionNames, COLLECTION_ACTIONS } from './schema.ts';

export interface CatalogListItem {
  sourceDefinitionId: string;
  name: string;
  iconUrl: string;
  supportLevel: 'certified' | 'community' | 'archived' | 'none';
}

export interface CatalogParam {
  name: string;
  type: string;
  required: boolean;
  description: string;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  format?: string;
  items?: { type: string; enum?: unknown[] };
  /** `object` params: their accepted members. */
  properties?: Record<string, unknown>;
  /** Params that can't be given together with this one. */
  conflicts_with?: string[];
  /** Other names the param is accepted under (the hosted catalog's). */
  aliases?: string[];
  /**
   * A required param the connector's replication_config may answer (`replication_config.repositories`): it may
   * be left out when that setting names a single value for it.
   */
  scoped_by?: string;
}

export interface CatalogAction {
  name: string;
  description: string;
  paginated: boolean;
  params: CatalogParam[];
}

export interface CatalogEntity {
  name: string;
  description: string;
  primary_key: string[];
  actions: CatalogAction[];
  /**
   * Present when the Context Store indexes the entity: `search_actions` work on it, filtering and sorting on
   * these fields (`search` answers the records as an array, `context_store_search` as `{data, meta}`).
   */
  context_store: {
    suggested: boolean;
    search_actions: string[];
    fields: Array<{
      name: string;
      type: string;
      description?: string;
      items?: string;
      properties?: unknown[];
    }>;
  } | null;
}

export interface CatalogCredentialOption {
  option_title: string;
  description: string;
  schema: Record<string, unknown>;
}

export interface CatalogDetail extends CatalogListItem {
  id: string;
  connector_type: string;
  documentationUrl: string;
  description: string | null;
  credential_options: CatalogCredentialOption[];
  replication_config: Record<string, unknown>;
  entities: CatalogEntity[];
  definition: {
    name: string;
    spec: { documentationUrl: string; connectionSpecification: Record<string, unknown> };
  };
}

export function catalogListItem(def: ConnectorDefinition): CatalogListItem {
  return {
    sourceDefinitionId: def.id,
    name: def.name,
    iconUrl: def.icon_url,
    supportLevel: def.support_level,
  };
}

export function catalogDetail(def: ConnectorDefinition): CatalogDetail {
  const options = def.credential_options.map(credentialOption);
  return {
    ...catalogListItem(def),
    id: def.id,
    connector_type: def.slug,
    documentationUrl: def.documentation_url,
    description: def.description ?? null,
    credential_options: options,
    replication_config: clone(def.replication_config),
    entities: def.entities.map((e) => ({
      name: e.name,
      description: e.description,
      primary_key: [...e.primary_key],
      actions: actionNames(e).map((name) => catalogAction(def, name, e.actions[name] as ActionDefinition)),
      context_store: e.context_store
        ? {
            suggested: e.context_store.suggested === true,
            search_actions: ['search', 'context_store_search'],
            fields: e.context_store.fields.map((f) => clone(f)),
          }
        : null,
    })),
    definition: {
      name: def.name,
      spec: connectorSpecification(def),
    },
  };
}

/** The reference's ConnectorSpecification of a connector type (a source template's `user_config_spec`). */
export function connectorSpecification(def: ConnectorDefinition) {
  return { documentationUrl: def.documentation_url, connectionSpecification: connectionSpecification(def) };
}

function credentialOption(option: CredentialOption): CatalogCredentialOption {
  const properties: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(option.fields)) {
    properties[name] = {
      type: 'string',
      title: field.title,
      description: field.description,
      ...(field.secret ? { 'x-secret': true, airbyte_secret: true } : {}),
      ...(field.aliases?.length ? { 'x-aliases': [...field.aliases] } : {}),
    };
  }
  return {
    option_title: option.title,
    description: option.description,
    schema: { type: 'object', required: [...option.required], properties, additionalProperties: false },
  };
}

function catalogAction(def: ConnectorDefinition, name: string, action: ActionDefinition): CatalogAction {
  const params = Object.entries(action.params ?? {}).map(([pname, p]) => {
    const shown = catalogParam(pname, p);
    const scope = p.required === true ? def.scoping?.find((s) => s.param === pname) : undefined;
    if (scope) shown.scoped_by = `replication_config.${scope.config}`;
    if (pname === LIMIT_PARAM && p.maximum !== undefined && COLLECTION_ACTIONS.includes(name as never))
      shown.description += ` A larger limit is clamped to ${p.maximum}.`;
    return shown;
  });
  const paginated = action.pagination !== undefined && action.pagination.type !== 'none';
  const aliases = def.execute_param_aliases;
  const size = COLLECTION_ACTIONS.includes(name as never) ? pageSizeParam(action) : LIMIT_PARAM;
  if (size !== LIMIT_PARAM) {
    const maximum = size === undefined ? undefined : action.params?.[size]?.maximum;
    params.push({
      name: LIMIT_PARAM,
      type: 'integer',
      required: false,
      description: limitDescription(size, maximum),
      minimum: 1,
    });
  }
  if (paginated) {
    params.push({
      name: 'cursor',
      type: 'string',
      required: false,
      description:
        'The end_cursor of the previous page (from connector_metadata). It replays the next-page request, so the other params may be left out.',
      ...(aliases?.cursor ? { aliases: [...aliases.cursor] } : {}),
    });
  }
  for (const alias of aliases?.select_fields ?? []) {
    params.push({
      name: alias,
      type: 'array',
      required: false,
      description: 'The record fields to return (dotted paths), as select_fields does.',
      items: { type: 'string' },
    });
  }
  return { name, description: action.description, paginated, params };
}

function catalogParam(name: string, p: ParamDefinition): CatalogParam {
  return {
    name,
    type: p.type,
    required: p.required === true,
    description: p.description,
    ...(p.enum ? { enum: [...p.enum] } : {}),
    ...(p.default !== undefined ? { default: p.default } : {}),
    ...(p.minimum !== undefined ? { minimum: p.minimum } : {}),
    ...(p.maximum !== undefined ? { maximum: p.maximum } : {}),
    ...(p.format ? { format: p.format } : {}),
    ...(p.items ? { items: clone(p.items) } : {}),
    ...(p.properties ? { properties: clone(p.properties) } : {}),
    ...(p.conflicts_with ? { conflicts_with: [...p.conflicts_with] } : {}),
    ...(p.aliases ? { aliases: [...p.aliases] } : {}),
  };
}

/** The reference service's shape: `credentials` is a oneOf whose branches carry an `option_title` const. */
function connectionSpecification(def: ConnectorDefinition): Record<string, unknown> {
  const oneOf = def.credential_options.map((o) => {
    const schema = credentialOption(o).schema as { required: string[]; properties: Record<string, unknown> };
    return {
      title: o.title,
      description: o.description,
      type: 'object',
      required: ['option_title', ...schema.required],
      properties: { option_title: { type: 'string', const: o.title, order: 0 }, ...schema.properties },
    };
  });
  const config = clone(def.replication_config) as {
    properties: Record<string, unknown>;
    required?: string[];
  };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: `${def.name} Spec`,
    type: 'object',
    required: ['credentials', ...(config.required ?? [])],
    properties: {
      credentials: {
        title: 'Authentication',
        description: 'Credentials for the provider.',
        type: 'object',
        oneOf,
      },
      ...config.properties,
    },
  };
}

/** Definitions are frozen; callers may want to decorate what we hand out. */
function clone<T>(value: T): T {
  return structuredClone(value);
}
