/** The `route` of a request no route matched (a 404): never its path. */
export const UNMATCHED_ROUTE = 'unmatched';
