/**
 * Load-time checks of the two options that let the hosted service's clients call a list as they do there:
 * `page_size_param` (what `limit` sets) on every collection action, and the top-level `scoping` (required
 * params defaulted from replication_config).
 */
import { LIMIT_PARAM, pageSizeCandidates } from './page-size.ts';
import {
  ACTION_NAMES,
  type ActionDefinition,
  COLLECTION_ACTIONS,
  type ConnectorDefinition,
} from './schema.ts';
import { placeholders } from './template.ts';

/** Every paged collection action knows its page-size param or says it has none; others don't declare one. */
export function checkPageSize(action: ActionDefinition, name: string, at: string, out: string[]): void {
  const declared = action.page_size_param;
  const params = action.params ?? {};
  if (!COLLECTION_ACTIONS.includes(name as never)) {
    if (declared !== undefined)
      out.push(`${at}/page_size_param: only ${COLLECTION_ACTIONS.join(' and ')} actions have pages`);
    return;
  }
  if (typeof declared === 'string') {
    const param = Object.hasOwn(params, declared) ? params[declared] : undefined;
    if (!param) out.push(`${at}/page_size_param: '${declared}' is not a param of the action`);
    else if (param.type !== 'integer')
      out.push(`${at}/page_size_param: '${declared}' must be an integer param`);
  } else if (declared === undefined) {
    const candidates = pageSizeCandidates(action);
    // An unpaged list has no page size to set: limit only caps it, which needs no saying.
    const paged = action.pagination !== undefined && action.pagination.type !== 'none';
    if (candidates.length === 0 && paged)
      out.push(
        `${at}: no param sets the page size; name it with page_size_param, or say page_size_param: false (then limit only caps the records answered)`,
      );
    else if (candidates.length > 1)
      out.push(
        `${at}/page_size_param: ambiguous page size (${candidates.join(', ')}); name the one limit sets`,
      );
  }
  // `limit` is the page size on every collection action: a param of that name meaning anything else would
  // make a client's `limit` do two things.
  const size =
    typeof declared === 'string' ? declared : declared === false ? undefined : pageSizeCandidates(action)[0];
  for (const [pname, p] of Object.entries(params)) {
    if (pname === size) continue;
    if (pname === LIMIT_PARAM || p.aliases?.includes(LIMIT_PARAM))
      out.push(
        `${at}/params/${pname}: '${LIMIT_PARAM}' is the page size of a collection action; only its page_size_param may take that name`,
      );
  }
}

/**
 * Each scoping entry names a replication_config array of strings, a pattern with placeholders, a value made of
 * them, and a param some action requires; a param is scoped once.
 */
export function checkScoping(def: ConnectorDefinition, out: string[]): void {
  const props = def.replication_config.properties as Record<
    string,
    { type?: unknown; items?: { type?: unknown } }
  >;
  const required = new Set<string>();
  for (const entity of def.entities)
    for (const name of ACTION_NAMES)
      for (const [pname, p] of Object.entries(entity.actions[name]?.params ?? {}))
        if (p.required === true) required.add(pname);
  const seen = new Set<string>();
  (def.scoping ?? []).forEach((entry, i) => {
    const at = `/scoping/${i}`;
    if (seen.has(entry.param)) out.push(`${at}/param: '${entry.param}' is scoped twice`);
    seen.add(entry.param);
    if (!required.has(entry.param))
      out.push(`${at}/param: '${entry.param}' is a required param of no action`);
    const prop = Object.hasOwn(props, entry.config) ? props[entry.config] : undefined;
    if (!prop) out.push(`${at}/config: '${entry.config}' is not a replication_config property`);
    else if (prop.type !== 'array' || prop.items?.type !== 'string')
      out.push(`${at}/config: replication_config property '${entry.config}' must be an array of strings`);
    const names = placeholders(entry.pattern);
    if (names.length === 0) out.push(`${at}/pattern: has no {placeholder}`);
    const value = entry.value ?? `{${entry.param}}`;
    const used = placeholders(value);
    if (used.length === 0) out.push(`${at}/value: has no {placeholder}`);
    for (const p of used)
      if (!names.includes(p)) out.push(`${at}/value: placeholder {${p}} is not a placeholder of the pattern`);
  });
}
