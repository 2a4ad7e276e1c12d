/** Types of scripts/check-layers.mjs (plain JS, so `npm run lint` runs it with node alone). */
export function violations(edges: Array<[string, string]>): string[];
export function importEdges(root: string, dir?: string): Array<[string, string]>;
