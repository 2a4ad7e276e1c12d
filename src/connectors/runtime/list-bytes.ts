/**
 * When a list action's records may stay unparsed. A caller that only stores the records' bytes (the Context
 * Store's sync, which parses them on its writer thread) asks for them unparsed; the runtime then parses only the
 * envelope around the list (json-slice.ts cutList). That is possible when nothing the runtime reads in an answer
 * lies inside the list: the paging style's paths and the next-page decision, the metadata paths, the error rules
 * that may match a success, GraphQL's `errors`. Decided once per action.
 */
import type { ActionDefinition, ConnectorDefinition, Pagination } from '../schema.ts';

const decided = new WeakMap<ActionDefinition, readonly string[] | null>();

/** The record selector of `action` if its records may stay unparsed; undefined if the runtime needs them. */
export function unparsedListPath(
  def: ConnectorDefinition,
  action: ActionDefinition,
  graphql: boolean,
): readonly string[] | undefined {
  let path = decided.get(action);
  if (path === undefined) {
    path = decide(def, action, graphql);
    decided.set(action, path);
  }
  return path ?? undefined;
}

function decide(
  def: ConnectorDefinition,
  action: ActionDefinition,
  graphql: boolean,
): readonly string[] | null {
  const selector = action.record_selector ?? [];
  const read: string[][] = [];
  if (!pagingReads(action.pagination, read)) return null;
  read.push(...Object.values(action.meta ?? {}));
  for (const rule of def.errors?.rules ?? []) {
    if (rule.when.body && rule.when.status.some((s) => s >= 200 && s < 300)) read.push(rule.when.body.path);
  }
  if (graphql) read.push(['errors']);
  return read.some((p) => readsList(p, selector)) ? null : selector;
}

/** Adds the body paths a paging style reads; false if it reads the records themselves. */
function pagingReads(pagination: Pagination | undefined, out: string[][]): boolean {
  if (!pagination) return true;
  switch (pagination.type) {
    case 'none':
    case 'link_header':
    case 'header_cursor':
      return true;
    case 'first_of':
      return pagination.styles.every((style) => pagingReads(style, out));
    case 'next_url':
      out.push(pagination.path);
      return true;
    case 'body_cursor':
      out.push(pagination.cursor_path, ...(pagination.has_more_path ? [pagination.has_more_path] : []));
      return true;
    case 'relay':
      out.push(pagination.page_info);
      return true;
    // The last record's key, or how many records came.
    case 'keyset':
    case 'page_number':
    case 'offset':
      return false;
  }
}

/**
 * Whether reading `path` (dpath.ts atPath) sees the list at `list`: the list itself, something holding it, or
 * an element (an index past it). A key past it reads nothing on an array either way (GitHub's rules on
 * `errors.0.type` beside its whole-body lists).
 */
function readsList(path: readonly string[], list: readonly string[]): boolean {
  const n = Math.min(path.length, list.length);
  for (let i = 0; i < n; i++) if (path[i] !== list[i]) return false;
  return path.length <= list.length || /^\d+$/.test(path[list.length] as string);
}
