import { isObject, type Json } from './openapi.ts';

/**
 * The hosted service's connector catalog reduced to what the parity tests compare with ces's definitions: per
 * connector slug, its definition id, the entities its Context Store indexes, and each entity-action's param names
 * (and body member names, where it has a body). Titles, versions and auth scheme names go.
 */
export function reduceCatalog(catalog: unknown): Json {
  if (!isObject(catalog)) throw new Error('anchor catalog: not an object of connectors by slug');
  const out: Record<string, Json> = {};
  for (const [slug, connector] of Object.entries(catalog)) {
    const at = `anchor catalog: ${slug}`;
    if (!isObject(connector) || typeof connector.definition_id !== 'string' || !isObject(connector.entities))
      throw new Error(`${at}: no definition_id or entities`);
    const entities: Record<string, Json> = {};
    for (const [entity, actions] of Object.entries(connector.entities)) {
      if (!isObject(actions)) throw new Error(`${at}.${entity}: not an object of actions`);
      const reduced: Record<string, Json> = {};
      for (const [action, spec] of Object.entries(actions)) {
        if (!isObject(spec) || !names(spec.params)) throw new Error(`${at}.${entity}.${action}: no params`);
        if (spec.body !== undefined && !names(spec.body))
          throw new Error(`${at}.${entity}.${action}: body is not a list of names`);
        reduced[action] =
          spec.body === undefined ? { params: spec.params } : { params: spec.params, body: spec.body };
      }
      entities[entity] = reduced;
    }
    const indexed = connector.context_store_entities ?? [];
    if (!names(indexed)) throw new Error(`${at}: context_store_entities is not a list of names`);
    out[slug] = { definition_id: connector.definition_id, context_store_entities: indexed, entities };
  }
  return out;
}

function names(value: Json | undefined): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}
