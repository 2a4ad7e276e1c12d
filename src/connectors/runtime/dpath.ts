/** Reads `path` (one key or array index per element) from a parsed JSON body; undefined when absent. */
export function atPath(value: unknown, path: readonly string[]): unknown {
  let cur = value;
  for (const seg of path) {
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(seg)) return undefined;
      cur = cur[Number(seg)];
    } else if (typeof cur === 'object' && cur !== null && Object.hasOwn(cur, seg)) {
      cur = (cur as Record<string, unknown>)[seg];
    } else {
      return undefined;
    }
  }
  return cur;
}
