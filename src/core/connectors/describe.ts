/**
 * A connector type's entities, actions and params, searchable entities and the search operators: the answer of
 * the MCP describe_connector tool and of execute's `describe` action (what the hosted service's clients call
 * before anything else), read from the definition alone, so it never reaches the provider.
 */
import { catalogDetail } from '../../connectors/catalog.ts';
import type { ConnectorDefinition } from '../../connectors/schema.ts';
import { DomainError } from '../../errors.ts';

/** The search operators of the Context Store DSL (README: Context Store). */
const SEARCH_OPERATORS = {
  eq: 'equal; all scalar types',
  neq: 'not equal (also matches a missing value)',
  gt: 'greater than; numbers, ISO 8601 timestamps, strings',
  gte: 'greater or equal',
  lt: 'less than',
  lte: 'less or equal',
  in: 'one of a list of values',
  like: 'SQL LIKE with % wildcards, case-insensitive; string, text',
  fuzzy: 'these words in this order, case and punctuation ignored; string, text',
  keyword: 'any of these words; string, text',
  contains: 'an array of scalars holds the value',
  any: 'an array of objects has an element matching the nested condition',
  and: 'all of a list of conditions',
  or: 'any of a list of conditions',
  not: 'the condition does not hold',
};

/** The execute action that answers with the description; no definition may declare it (action names are closed). */
export const DESCRIBE_ACTION = 'describe';

export function describeDefinition(def: ConnectorDefinition) {
  const detail = catalogDetail(def);
  return {
    connector_type: def.slug,
    name: def.name,
    definition_id: def.id,
    description: detail.description,
    entities: detail.entities.map((e) => ({
      entity: e.name,
      description: e.description,
      actions: e.actions.map((a) => ({
        action: a.name,
        description: a.description,
        paginated: a.paginated,
        params: a.params.map((p) => ({
          name: p.name,
          type: p.type,
          required: p.required,
          description: p.description,
          ...(p.enum ? { enum: p.enum } : {}),
          ...(p.default !== undefined ? { default: p.default } : {}),
          ...(p.scoped_by ? { scoped_by: p.scoped_by } : {}),
        })),
      })),
      searchable: e.context_store
        ? {
            actions: e.context_store.search_actions,
            fields: e.context_store.fields.map((f) => ({ name: f.name, type: f.type })),
          }
        : null,
    })),
    search: {
      params: '{query: {filter, sort: [{field: "asc"|"desc"}]}, limit (1-1000), cursor, fields}',
      answers:
        'search: result is the records (an array), next page params.cursor = connector_metadata.end_cursor; context_store_search: result is {data: [records], meta: {has_more, cursor, took_ms}}, next page params.cursor = meta.cursor',
      operators: SEARCH_OPERATORS,
      example: {
        query: { filter: { and: [{ eq: { state: 'open' } }, { fuzzy: { title: 'login bug' } }] } },
        limit: 20,
      },
    },
  };
}

/**
 * The description execute's `describe` answers: the whole connector for an empty entity (what the reference's
 * CLI sends), else only the entity named, so an agent can ask for one entity's actions and params.
 */
export function describeForExecute(connectorId: string, def: ConnectorDefinition, entity: string) {
  const whole = { connector_id: connectorId, ...describeDefinition(def) };
  if (entity === '') return whole;
  const one = whole.entities.find((e) => e.entity === entity);
  if (!one) {
    const names = whole.entities.map((e) => e.entity);
    throw new DomainError(
      'UNKNOWN_ENTITY',
      `Unknown entity '${entity.slice(0, 100)}' for ${def.name}; describe takes one of ${names.join(', ')}, or "" for all of them.`,
      {
        errors: [
          {
            field: 'entity',
            message: 'unknown entity',
            error_code: 'unknown_entity',
            details: { available: names },
          },
        ],
      },
    );
  }
  return { ...whole, entities: [one] };
}
