/**
 * How deeply client JSON may nest. Real connector configs nest 2–3 levels and a search request about 40 at the
 * search language's own limit; recursive walkers (structuredClone, Ajv, JSON.stringify, the query parser) overflow
 * the stack somewhere past 1,900 levels, answering 500 before any check of theirs runs.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * True when `value` holds arrays/objects nested deeper than `max` (a bare object is depth 1). Iterative, so it is
 * safe on input that would overflow the stack of anything recursive, and it stops at the first path past `max`.
 */
export function jsonDepthExceeds(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: Array<{ node: object; depth: number }> = [{ node: value, depth: 1 }];
  // A value reachable twice (only possible for objects built in code, never for parsed JSON) is walked once.
  const seen = new Set<object>();
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > max) return true;
    if (seen.has(node)) continue;
    seen.add(node);
    for (const child of Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push({ node: child, depth: depth + 1 });
    }
  }
  return false;
}
