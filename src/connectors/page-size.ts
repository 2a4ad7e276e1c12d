/**
 * Which param of a collection action sets its page size: what a client's `limit` sets. The hosted service's
 * clients send `limit` to every `list` (its SDK's health check sends `{limit: 1}` to the first one it finds),
 * while providers name the page size `per_page`, `page[size]`, `maxResults`, `first`...; a definition names the
 * param with `page_size_param`, or it is inferred from those names when exactly one param fits.
 */
import type { ActionDefinition, Pagination } from './schema.ts';

/** Names providers give a page size (as the param's own name or its `api_name`). */
export const PAGE_SIZE_NAMES: readonly string[] = [
  'per_page',
  'page_size',
  'page[size]',
  'limit',
  'maxResults',
  'first',
  'count',
];

/** The client's name for the page size on every collection action. */
export const LIMIT_PARAM = 'limit';

/**
 * The page-size params the action could mean: integer params named (or sent as) a page size, or named by the
 * pagination as its size/limit param. Several or none means the definition has to say.
 */
export function pageSizeCandidates(action: ActionDefinition): string[] {
  const fromPaging = new Set(pagingSizeNames(action.pagination));
  return Object.entries(action.params ?? {})
    .filter(([name, p]) => {
      if (p.type !== 'integer') return false;
      const sent = p.api_name ?? name;
      return PAGE_SIZE_NAMES.includes(name) || PAGE_SIZE_NAMES.includes(sent) || fromPaging.has(sent);
    })
    .map(([name]) => name);
}

const resolved = new WeakMap<ActionDefinition, { param: string | undefined }>();

/**
 * The action's page-size param, or undefined when it has none (`page_size_param: false`, or nothing to infer
 * from: load.ts refuses a collection action where that is not said). Definitions are frozen: worked out once.
 */
export function pageSizeParam(action: ActionDefinition): string | undefined {
  let kept = resolved.get(action);
  if (!kept) {
    const declared = action.page_size_param;
    const candidates = declared === undefined ? pageSizeCandidates(action) : [];
    kept = {
      param:
        declared === false ? undefined : (declared ?? (candidates.length === 1 ? candidates[0] : undefined)),
    };
    resolved.set(action, kept);
  }
  return kept.param;
}

function pagingSizeNames(pagination: Pagination | undefined): string[] {
  if (!pagination) return [];
  switch (pagination.type) {
    case 'first_of':
      return pagination.styles.flatMap((s) => pagingSizeNames(s));
    case 'page_number':
      return pagination.size_param === undefined ? [] : [pagination.size_param];
    case 'offset':
      return [pagination.limit_param];
    default:
      return [];
  }
}
