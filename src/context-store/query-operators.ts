/**
 * The kind of a search, for metrics: the costliest kind of condition its filter uses. One label per search
 * (not one per operator used), so a histogram's count is the number of searches; a closed set, so no value
 * of a query ever becomes a label.
 */

/** Costliest first: a `like` scans the connector's rows, full text reads its index, a comparison an index. */
export const SEARCH_OPERATORS = [
  'like',
  'fuzzy',
  'keyword',
  'any',
  'contains',
  'range',
  'in',
  'neq',
  'eq',
  'none',
] as const;

export type SearchOperator = (typeof SEARCH_OPERATORS)[number];

// A Map, not an object: a query's key such as `constructor` must not find anything.
const KIND = new Map<string, SearchOperator>([
  ['like', 'like'],
  ['fuzzy', 'fuzzy'],
  ['keyword', 'keyword'],
  ['any', 'any'],
  ['contains', 'contains'],
  ['gt', 'range'],
  ['gte', 'range'],
  ['lt', 'range'],
  ['lte', 'range'],
  ['in', 'in'],
  ['neq', 'neq'],
  ['eq', 'eq'],
]);
const RANK = new Map<SearchOperator, number>(SEARCH_OPERATORS.map((op, i) => [op, i]));
/** Deeper than any query the parser accepts; a refused query is still labelled, from what lies above this. */
const MAX_DEPTH = 40;

/**
 * The search's operator label, from its raw filter (valid or not: searches refused as INVALID_QUERY are
 * labelled too). `none`: no filter, or none of the known operators.
 */
export function searchOperator(filter: unknown): SearchOperator {
  let best: SearchOperator = 'none';
  const visit = (node: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    for (const [op, arg] of Object.entries(node)) {
      if (op === 'and' || op === 'or' || op === 'not') {
        visit(arg, depth + 1);
        continue;
      }
      const kind = KIND.get(op);
      if (kind === undefined) continue;
      if ((RANK.get(kind) ?? 0) < (RANK.get(best) ?? 0)) best = kind;
      // `any` holds conditions on the elements of an array field.
      if (op === 'any' && typeof arg === 'object' && arg !== null)
        for (const inner of Object.values(arg)) visit(inner, depth + 1);
    }
  };
  visit(filter, 0);
  return best;
}
